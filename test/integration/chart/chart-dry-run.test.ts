import { expect } from 'chai';
import { DEFAULT_ON_PLUGINS } from '../../../lib/admission/plugins/index.js';
import { SERVER_NAME, VENDOR_DOMAIN } from '../../../lib/apis/vendor.js';
import type { TestClient } from '../../framework/client.js';
import { OVERRIDES, renderTestChart, type ChartObject } from '../../framework/chart.js';
import { useTestServer } from '../../framework/test-server.js';

const FULL = `demo-${SERVER_NAME}`;

/** Where a kind is served: its collection path (namespaced or not) from the server's discovery. */
async function collectionPath(client: TestClient, o: ChartObject): Promise<string> {
  const base = o.apiVersion.includes('/') ? `/apis/${o.apiVersion}` : `/api/${o.apiVersion}`;
  const discovery = await client.get(base);
  expect(discovery.status, `discovery of ${o.apiVersion}`).to.equal(200);
  const resource = (discovery.body.resources as { name: string; kind: string; namespaced: boolean }[]).find((r) => r.kind === o.kind && !r.name.includes('/'));
  expect(resource, `${o.kind} in ${o.apiVersion}`).to.not.equal(undefined);
  return resource!.namespaced ? `${base}/namespaces/${o.metadata.namespace}/${resource!.name}` : `${base}/${resource!.name}`;
}

/**
 * Creates every object with `?dryRun=All&fieldValidation=Strict` (kubectl's default validation):
 * each must be accepted (201) with its name, kind and a sample of its fields intact, and must not
 * be stored.
 */
async function dryRunAll(client: TestClient, objects: ChartObject[]): Promise<Record<string, ChartObject>> {
  const accepted: Record<string, ChartObject> = {};
  for (const o of objects) {
    const path = await collectionPath(client, o);
    const res = await client.post(`${path}?dryRun=All&fieldValidation=Strict`, o);
    const id = `${o.kind}/${o.metadata.name}`;
    expect(res.status, `${id}: ${res.text}`).to.equal(201);
    expect(res.headers.warning, `${id} warnings`).to.equal(undefined);
    expect([res.body.kind, res.body.metadata.name]).to.deep.equal([o.kind, o.metadata.name]);
    expect((await client.get(`${path}/${o.metadata.name}`)).status, `${id} is not stored`).to.equal(404);
    accepted[id] = res.body;
  }
  return accepted;
}

describe('Helm chart (manifests/): every rendered object passes a server-side dry run', function () {
  this.timeout(60_000);
  // The admission plugins a deployed server runs by default.
  const server = useTestServer({ admission: { plugins: DEFAULT_ON_PLUGINS } });
  let n = 0;

  /** A fresh namespace for one rendering. */
  async function namespace(): Promise<string> {
    const name = `chart-${++n}`;
    expect((await server().admin.post('/api/v1/namespaces', { metadata: { name } })).status).to.equal(201);
    return name;
  }

  it('with the default values (RBAC in the upstream spelling of the group)', async () => {
    const ns = await namespace();
    const { objects } = renderTestChart({}, ns);
    expect(objects).to.have.length(12);
    const accepted = await dryRunAll(server().admin, objects);
    const pod = accepted[`Deployment/${FULL}`]!.spec.template.spec;
    expect(pod.containers[0].readinessProbe.httpGet.path).to.equal('/readyz');
    expect(pod.containers[0].lifecycle.preStop.exec.command).to.deep.equal(['sleep', '5']);
    expect(pod.terminationGracePeriodSeconds).to.equal(85);
    expect(accepted[`StatefulSet/${FULL}-etcd`]!.spec.volumeClaimTemplates[0].spec.resources.requests.storage).to.equal('8Gi');
    expect(accepted[`Service/${FULL}-etcd-peer`]!.spec.clusterIP).to.equal('None');
  });

  it('with overrides: 3 replicas, audit on, OIDC on, a LoadBalancer', async () => {
    const ns = await namespace();
    const { objects } = renderTestChart(OVERRIDES, ns);
    expect(objects.filter((o) => o.kind === 'ConfigMap')).to.have.length(2);
    const accepted = await dryRunAll(server().admin, objects);
    expect(accepted[`Deployment/${FULL}`]!.spec.replicas).to.equal(3);
    expect(accepted[`Service/${FULL}`]!.spec.type).to.equal('LoadBalancer');
  });

  it('the dry run is a real check: a misspelt field in the rendered Deployment is refused', async () => {
    const ns = await namespace();
    const deploy = renderTestChart({}, ns).objects.find((o) => o.kind === 'Deployment')!;
    const c = deploy.spec.template.spec.containers[0];
    c.readinesProbe = c.readinessProbe;
    const res = await server().admin.post(`/apis/apps/v1/namespaces/${ns}/deployments?dryRun=All&fieldValidation=Strict`, deploy);
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].readinesProbe"');
  });

  it('with the vendor spelling of the RBAC group, an external etcd and no PodDisruptionBudget', async () => {
    const ns = await namespace();
    const { objects } = renderTestChart({ apiGroupDomain: VENDOR_DOMAIN, etcd: { enabled: false, external: { servers: ['https://etcd.example:2379'] } }, podDisruptionBudget: { enabled: false } }, ns);
    expect(objects.map((o) => o.kind)).to.deep.equal(['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'Service', 'Deployment']);
    expect(objects.find((o) => o.kind === 'Role')!.apiVersion).to.equal(`rbac.authorization.${VENDOR_DOMAIN}/v1`);
    await dryRunAll(server().admin, objects);
  });
});
