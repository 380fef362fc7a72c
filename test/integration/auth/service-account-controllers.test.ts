import { expect } from 'chai';
import { DESCRIPTION_ANNOTATION, ROOT_CA_CONFIGMAP_NAME, ROOT_CA_DESCRIPTION, SYSTEM_NAMESPACE } from '../../../lib/apis/vendor.js';
import { TestClient } from '../../framework/client.js';
import { eventually } from '../../framework/storage-contract.js';
import { useTestServer } from '../../framework/test-server.js';

const NS = '/api/v1/namespaces';
const saPath = (ns: string) => `${NS}/${ns}/serviceaccounts/default`;
const caPath = (ns: string) => `${NS}/${ns}/configmaps/${ROOT_CA_CONFIGMAP_NAME}`;

describe('the controllers that make service accounts usable (issue #10 item 2: serviceaccount, root-ca-cert-publisher)', () => {
  const server = useTestServer({ controllers: ['*'] });
  const exists = async (path: string) => (await server().admin.get(path)).status === 200;
  let n = 0;
  async function freshNamespace(): Promise<string> {
    const name = `sa-controllers-${++n}`;
    expect((await server().admin.post(NS, { metadata: { name } })).status).to.equal(201);
    return name;
  }

  it('gives every new namespace a default ServiceAccount', async () => {
    const ns = await freshNamespace();
    await eventually(() => exists(saPath(ns)), 10_000, 'default ServiceAccount');
    const sa = (await server().admin.get(saPath(ns))).body;
    expect(sa).to.deep.include({ kind: 'ServiceAccount', apiVersion: 'v1' });
    expect(sa.metadata).to.include({ name: 'default', namespace: ns });
  });

  it('gives the namespaces that exist at start one too', async () => {
    for (const ns of ['default', SYSTEM_NAMESPACE]) {
      await eventually(() => exists(saPath(ns)), 10_000, `default ServiceAccount in ${ns}`);
      await eventually(() => exists(caPath(ns)), 10_000, `root CA ConfigMap in ${ns}`);
    }
  });

  it('creates the default ServiceAccount again when it is deleted', async () => {
    const ns = await freshNamespace();
    await eventually(() => exists(saPath(ns)), 10_000, 'default ServiceAccount');
    const uid = (await server().admin.get(saPath(ns))).body.metadata.uid;
    expect((await server().admin.delete(saPath(ns))).status).to.equal(200);
    await eventually(async () => {
      const res = await server().admin.get(saPath(ns));
      return res.status === 200 && res.body.metadata.uid !== uid;
    }, 10_000, 'default ServiceAccount recreated');
  });

  it('publishes the root CA ConfigMap with the CA that verifies the serving certificate, annotated as upstream', async () => {
    const ns = await freshNamespace();
    await eventually(() => exists(caPath(ns)), 10_000, 'root CA ConfigMap');
    const cm = (await server().admin.get(caPath(ns))).body;
    expect(Object.keys(cm.data)).to.deep.equal(['ca.crt']);
    expect(cm.metadata.annotations).to.deep.equal({ [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION });
    // A client trusting only the published bundle reaches the server: the CA verifies its certificate.
    const trusting = new TestClient(server().url, cm.data['ca.crt'], {});
    expect((await trusting.get('/readyz')).status).to.equal(200);
  });

  it('restores the root CA ConfigMap when its data or annotation is edited, keeping other metadata', async () => {
    const ns = await freshNamespace();
    await eventually(() => exists(caPath(ns)), 10_000, 'root CA ConfigMap');
    const original = (await server().admin.get(caPath(ns))).body.data['ca.crt'];
    const patch = { metadata: { labels: { mine: 'yes' }, annotations: { [DESCRIPTION_ANNOTATION]: null } }, data: { 'ca.crt': 'forged', extra: 'x' } };
    expect((await server().admin.patch(caPath(ns), patch, 'application/merge-patch+json')).status).to.equal(200);
    await eventually(async () => {
      const cm = (await server().admin.get(caPath(ns))).body;
      return cm.data['ca.crt'] === original && !('extra' in cm.data) && cm.metadata.annotations?.[DESCRIPTION_ANNOTATION] === ROOT_CA_DESCRIPTION;
    }, 10_000, 'root CA ConfigMap restored');
    expect((await server().admin.get(caPath(ns))).body.metadata.labels).to.deep.equal({ mine: 'yes' });
  });

  it('creates the root CA ConfigMap again when it is deleted', async () => {
    const ns = await freshNamespace();
    await eventually(() => exists(caPath(ns)), 10_000, 'root CA ConfigMap');
    const uid = (await server().admin.get(caPath(ns))).body.metadata.uid;
    expect((await server().admin.delete(caPath(ns))).status).to.equal(200);
    await eventually(async () => {
      const res = await server().admin.get(caPath(ns));
      return res.status === 200 && res.body.metadata.uid !== uid;
    }, 10_000, 'root CA ConfigMap recreated');
  });

  it('does not hold up the deletion of a namespace by recreating what the namespace controller removes', async () => {
    const ns = await freshNamespace();
    await eventually(async () => (await exists(saPath(ns))) && (await exists(caPath(ns))), 10_000, 'namespace populated');
    expect((await server().admin.delete(`${NS}/${ns}`)).status).to.equal(200);
    await eventually(async () => (await server().admin.get(`${NS}/${ns}`)).status === 404, 15_000, 'namespace gone');
    const left = await server().admin.get(`/api/v1/configmaps?fieldSelector=metadata.namespace%3D${ns}`);
    expect(left.body.items).to.deep.equal([]);
    const accounts = await server().admin.get(`/api/v1/serviceaccounts?fieldSelector=metadata.namespace%3D${ns}`);
    expect(accounts.body.items).to.deep.equal([]);
  });
});
