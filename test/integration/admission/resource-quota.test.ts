import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RESOURCE_QUOTA_CONFIG_GROUP } from '../../../lib/admission/plugins/resource-quota/config.js';
import { APISERVER_CONFIG_GROUP, STORAGE_CLASS_QUOTA_SUFFIX, vendorGroup } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

type Body = Record<string, unknown>;

const pod = (name: string, extra: { resources?: Body; spec?: Body } = {}): Body => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox', ...(extra.resources ? { resources: extra.resources } : {}) }], ...extra.spec },
});
const quota = (name: string, hard: Record<string, string>, spec: Body = {}): Body => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard, ...spec } });

/** Polls `cond` every 50 ms for up to 10 s. */
async function eventually(what: string, cond: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await cond()) return;
    await sleep(50);
  }
  throw new Error(`${what}: not within 10s`);
}

describe('ResourceQuota admission and the resource quota controller (spec 001 § Admission control)', () => {
  const server = useTestServer({
    admission: { plugins: ['NamespaceLifecycle', 'ResourceQuota'] },
    controllers: ['resourcequota'],
    resourceQuotaSyncPeriodMs: 1000,
  });
  const admin = () => server().admin;
  let n = 0;

  async function namespace(): Promise<string> {
    const ns = `rq-${++n}`;
    const res = await admin().post('/api/v1/namespaces', { metadata: { name: ns } });
    expect(res.status, res.text).to.equal(201);
    return ns;
  }
  const quotaPath = (ns: string, name: string) => `/api/v1/namespaces/${ns}/resourcequotas/${name}`;
  const used = async (ns: string, name: string): Promise<Record<string, string> | undefined> => (await admin().get(quotaPath(ns, name))).body.status?.used;

  /** Creates the quota and waits until the controller has written its status (and the informers have seen it). */
  async function withQuota(ns: string, q: Body): Promise<void> {
    const name = (q.metadata as Body).name as string;
    const res = await admin().post(`/api/v1/namespaces/${ns}/resourcequotas`, q);
    expect(res.status, res.text).to.equal(201);
    await eventually('quota status', async () => (await used(ns, name)) !== undefined);
    await sleep(200);
  }
  const create = (ns: string, resource: string, body: Body, query = '') => admin().post(`/api/v1/namespaces/${ns}/${resource}${query}`, body);

  it('counts the objects that exist when the quota is created, then rejects what exceeds it with upstream message', async () => {
    const ns = await namespace();
    expect((await create(ns, 'pods', pod('before'))).status).to.equal(201);
    await withQuota(ns, quota('q', { pods: '2' }));
    const q = (await admin().get(quotaPath(ns, 'q'))).body;
    expect(q.status).to.deep.equal({ hard: { pods: '2' }, used: { pods: '1' } });
    expect((await create(ns, 'pods', pod('second'))).status).to.equal(201);
    expect(await used(ns, 'q')).to.deep.equal({ pods: '2' });
    const res = await create(ns, 'pods', pod('third'));
    expect(res.status, res.text).to.equal(403);
    expect(res.body).to.deep.include({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403 });
    expect(res.body.details).to.deep.equal({ name: 'third', kind: 'pods' });
    expect(res.body.message).to.equal('pods "third" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');
  });

  it('gives the used amount back when an object is deleted, and when a pod reaches a terminal phase', async () => {
    const ns = await namespace();
    await withQuota(ns, quota('q', { pods: '1', 'count/pods': '5' }));
    expect((await create(ns, 'pods', pod('a'))).status).to.equal(201);
    expect((await create(ns, 'pods', pod('b'))).status).to.equal(403);
    expect((await admin().delete(`/api/v1/namespaces/${ns}/pods/a`)).status).to.equal(200);
    await eventually('pods back to 0', async () => (await used(ns, 'q'))?.pods === '0');
    expect(await used(ns, 'q')).to.deep.equal({ 'count/pods': '0', pods: '0' });
    const b = await create(ns, 'pods', pod('b'));
    expect(b.status, b.text).to.equal(201);
    const done = { ...b.body, status: { ...b.body.status, phase: 'Succeeded' } };
    const st = await admin().put(`/api/v1/namespaces/${ns}/pods/b/status`, done);
    expect(st.status, st.text).to.equal(200);
    await eventually('terminal pod not charged', async () => (await used(ns, 'q'))?.pods === '0');
    expect((await used(ns, 'q'))!['count/pods']).to.equal('1');
    expect((await create(ns, 'pods', pod('c'))).status).to.equal(201);
  });

  it('charges compute resources and requires every container to state what a quota constrains', async () => {
    const ns = await namespace();
    await withQuota(ns, quota('compute', { 'requests.cpu': '1', 'limits.memory': '1Gi', cpu: '1' }));
    const bare = await create(ns, 'pods', {
      ...pod('bare'),
      spec: { containers: [{ name: 'b', image: 'busybox' }, { name: 'a', image: 'busybox', resources: { requests: { cpu: '100m' } } }] },
    });
    expect(bare.status, bare.text).to.equal(403);
    expect(bare.body.message).to.equal('pods "bare" is forbidden: failed quota: compute: must specify cpu for: b; limits.memory for: a,b; requests.cpu for: b');
    const ok = await create(ns, 'pods', pod('ok', { resources: { requests: { cpu: '600m', memory: '100Mi' }, limits: { memory: '512Mi' } } }));
    expect(ok.status, ok.text).to.equal(201);
    expect(await used(ns, 'compute')).to.deep.equal({ cpu: '600m', 'limits.memory': '512Mi', 'requests.cpu': '600m' });
    const over = await create(ns, 'pods', pod('over', { resources: { requests: { cpu: '500m' }, limits: { memory: '768Mi' } } }));
    expect(over.status).to.equal(403);
    expect(over.body.message).to.equal(
      'pods "over" is forbidden: exceeded quota: compute, requested: cpu=500m,limits.memory=768Mi,requests.cpu=500m, used: cpu=600m,limits.memory=512Mi,requests.cpu=600m, limited: cpu=1,limits.memory=1Gi,requests.cpu=1',
    );
  });

  it('applies scopes: BestEffort, NotTerminating and a PriorityClass scope selector', async () => {
    const ns = await namespace();
    await withQuota(ns, quota('besteffort', { pods: '1' }, { scopes: ['BestEffort'] }));
    await withQuota(ns, quota('gold', { pods: '1' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['gold'] }] } }));
    await withQuota(ns, quota('long', { pods: '3' }, { scopes: ['NotTerminating'] }));
    const burstable = { resources: { requests: { cpu: '10m' } } };
    expect((await create(ns, 'pods', pod('be-1'))).status).to.equal(201);
    const be2 = await create(ns, 'pods', pod('be-2'));
    expect(be2.body.message).to.equal('pods "be-2" is forbidden: exceeded quota: besteffort, requested: pods=1, used: pods=1, limited: pods=1');
    expect((await create(ns, 'pods', pod('bu-1', burstable))).status).to.equal(201);
    expect((await create(ns, 'pods', pod('job', { ...burstable, spec: { activeDeadlineSeconds: 60 } }))).status, 'Terminating pods are outside NotTerminating').to.equal(201);
    const gold = (name: string) => create(ns, 'pods', pod(name, { ...burstable, spec: { priorityClassName: 'gold' } }));
    expect((await gold('gold-1')).status).to.equal(201);
    expect((await gold('gold-2')).body.message).to.equal('pods "gold-2" is forbidden: exceeded quota: gold, requested: pods=1, used: pods=1, limited: pods=1');
    expect(await used(ns, 'besteffort')).to.deep.equal({ pods: '1' });
    expect(await used(ns, 'long')).to.deep.equal({ pods: '3' });
  });

  it('charges services by type, also when an update changes it', async () => {
    const ns = await namespace();
    await withQuota(ns, quota('svc', { services: '5', 'services.nodeports': '1', 'services.loadbalancers': '0' }));
    const svc = (name: string, type: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type, ports: [{ port: 80 }] } });
    expect((await create(ns, 'services', svc('a', 'ClusterIP'))).status).to.equal(201);
    const lb = await create(ns, 'services', svc('lb', 'LoadBalancer'));
    expect(lb.body.message).to.equal('services "lb" is forbidden: exceeded quota: svc, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0');
    expect((await create(ns, 'services', svc('np', 'NodePort'))).status).to.equal(201);
    expect(await used(ns, 'svc')).to.deep.equal({ services: '2', 'services.loadbalancers': '0', 'services.nodeports': '1' });
    const a = (await admin().get(`/api/v1/namespaces/${ns}/services/a`)).body;
    const up = await admin().put(`/api/v1/namespaces/${ns}/services/a`, { ...a, spec: { ...a.spec, type: 'NodePort' } });
    expect(up.status, up.text).to.equal(403);
    expect(up.body.message).to.equal('services "a" is forbidden: exceeded quota: svc, requested: services.nodeports=1, used: services.nodeports=1, limited: services.nodeports=1');
    expect((await admin().delete(`/api/v1/namespaces/${ns}/services/np`)).status).to.equal(200);
    await eventually('node port given back', async () => (await used(ns, 'svc'))?.['services.nodeports'] === '0');
  });

  it('charges claims by storage and by storage class', async () => {
    const ns = await namespace();
    const goldStorage = `gold${STORAGE_CLASS_QUOTA_SUFFIX}requests.storage`;
    const goldClaims = `gold${STORAGE_CLASS_QUOTA_SUFFIX}persistentvolumeclaims`;
    await withQuota(ns, quota('storage', { 'requests.storage': '10Gi', persistentvolumeclaims: '10', [goldStorage]: '3Gi', [goldClaims]: '1' }));
    const claim = (name: string, storage: string, cls?: string) => ({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...(cls ? { storageClassName: cls } : {}) },
    });
    expect((await create(ns, 'persistentvolumeclaims', claim('plain', '5Gi'))).status).to.equal(201);
    const big = await create(ns, 'persistentvolumeclaims', claim('big', '4Gi', 'gold'));
    expect(big.body.message).to.equal(`persistentvolumeclaims "big" is forbidden: exceeded quota: storage, requested: ${goldStorage}=4Gi, used: ${goldStorage}=0, limited: ${goldStorage}=3Gi`);
    expect((await create(ns, 'persistentvolumeclaims', claim('g', '2Gi', 'gold'))).status).to.equal(201);
    expect(await used(ns, 'storage')).to.deep.equal({ [goldClaims]: '1', [goldStorage]: '2Gi', persistentvolumeclaims: '2', 'requests.storage': '7Gi' });
  });

  it('counts objects of every resource (count/<resource>.<group>) and the legacy names, lowering them on resync', async () => {
    const ns = await namespace();
    const roles = `count/roles.${vendorGroup('rbac.authorization')}`;
    await withQuota(ns, quota('objects', { configmaps: '1', 'count/secrets': '1', [roles]: '1', 'count/deployments.apps': '0' }));
    expect((await create(ns, 'configmaps', { metadata: { name: 'a' } })).status).to.equal(201);
    expect((await create(ns, 'configmaps', { metadata: { name: 'b' } })).body.message).to.equal(
      'configmaps "b" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=1, limited: configmaps=1',
    );
    expect((await create(ns, 'secrets', { metadata: { name: 's' } })).status).to.equal(201);
    const role = (name: string) => ({ apiVersion: `${vendorGroup('rbac.authorization')}/v1`, kind: 'Role', metadata: { name }, rules: [] });
    expect((await admin().post(`/apis/${vendorGroup('rbac.authorization')}/v1/namespaces/${ns}/roles`, role('r1'))).status).to.equal(201);
    const r2 = await admin().post(`/apis/${vendorGroup('rbac.authorization')}/v1/namespaces/${ns}/roles`, role('r2'));
    expect(r2.status).to.equal(403);
    expect(r2.body.message).to.equal(`roles.${vendorGroup('rbac.authorization')} "r2" is forbidden: exceeded quota: objects, requested: ${roles}=1, used: ${roles}=1, limited: ${roles}=1`);
    const cm = await admin().get(`/api/v1/namespaces/${ns}/configmaps/a`);
    expect((await admin().put(`/api/v1/namespaces/${ns}/configmaps/a`, { ...cm.body, data: { k: 'v' } })).status, 'updates of counted objects are not charged').to.equal(200);
    expect((await admin().delete(`/api/v1/namespaces/${ns}/secrets/s`)).status).to.equal(200);
    await eventually('count/secrets lowered by the resync', async () => (await used(ns, 'objects'))?.['count/secrets'] === '0');
  });

  it('checks dry-run requests without charging them', async () => {
    const ns = await namespace();
    await withQuota(ns, quota('q', { pods: '1' }));
    expect((await create(ns, 'pods', pod('dry'), '?dryRun=All')).status).to.equal(201);
    expect(await used(ns, 'q')).to.deep.equal({ pods: '0' });
    expect((await create(ns, 'pods', pod('real'))).status).to.equal(201);
    const dry = await create(ns, 'pods', pod('dry2'), '?dryRun=All');
    expect(dry.status).to.equal(403);
    expect(dry.body.message).to.match(/exceeded quota: q/);
    expect(await used(ns, 'q')).to.deep.equal({ pods: '1' });
  });

  it('sets status.hard to a changed spec.hard and recounts', async () => {
    const ns = await namespace();
    await withQuota(ns, quota('q', { pods: '1' }));
    expect((await create(ns, 'pods', pod('a'))).status).to.equal(201);
    const q = (await admin().get(quotaPath(ns, 'q'))).body;
    expect((await admin().put(quotaPath(ns, 'q'), { ...q, spec: { hard: { pods: '3', 'count/configmaps': '2' } } })).status).to.equal(200);
    await eventually('status follows spec', async () => (await admin().get(quotaPath(ns, 'q'))).body.status.hard.pods === '3');
    expect((await admin().get(quotaPath(ns, 'q'))).body.status).to.deep.equal({ hard: { 'count/configmaps': '2', pods: '3' }, used: { 'count/configmaps': '0', pods: '1' } });
  });
});

describe('ResourceQuota admission without the quota controller', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'ResourceQuota'] } });
  const ns = 'rq-nocontroller';

  before(async () => {
    await server().admin.post('/api/v1/namespaces', { metadata: { name: ns } });
  });

  it('admits objects a quota without status does not track yet, and rejects while a tracked amount has no usage', async () => {
    const res = await server().admin.post(`/api/v1/namespaces/${ns}/resourcequotas`, quota('q', { pods: '1' }));
    expect(res.status).to.equal(201);
    await sleep(200);
    expect((await server().admin.post(`/api/v1/namespaces/${ns}/pods`, pod('a'))).status, 'no status.hard yet: not tracked').to.equal(201);
    const st = await server().admin.put(`/api/v1/namespaces/${ns}/resourcequotas/q/status`, { ...res.body, status: { hard: { pods: '1' } } });
    expect(st.status, st.text).to.equal(200);
    await sleep(200);
    const b = await server().admin.post(`/api/v1/namespaces/${ns}/pods`, pod('b'));
    expect(b.status).to.equal(403);
    expect(b.body.message).to.equal('pods "b" is forbidden: status unknown for quota: q, resources: pods');
  });
});

describe('ResourceQuota limitedResources from --admission-control-config-file', () => {
  let configFile = '';
  let dir = '';
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rq-config-'));
    configFile = path.join(dir, 'admission.yaml');
    const configuration = { apiVersion: `${RESOURCE_QUOTA_CONFIG_GROUP}/v1`, kind: 'Configuration', limitedResources: [{ resource: 'pods', matchContains: ['cpu'] }] };
    await writeFile(configFile, JSON.stringify({ apiVersion: `${APISERVER_CONFIG_GROUP}/v1`, kind: 'AdmissionConfiguration', plugins: [{ name: 'ResourceQuota', configuration }] }));
  });
  const server = useTestServer({
    admission: {
      plugins: ['NamespaceLifecycle', 'ResourceQuota'],
      get configFile() {
        return configFile;
      },
    },
    controllers: ['resourcequota'],
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('forbids consuming a limited resource in a namespace no quota covers it in', async () => {
    const admin = server().admin;
    await admin.post('/api/v1/namespaces', { metadata: { name: 'rq-limited' } });
    const res = await admin.post('/api/v1/namespaces/rq-limited/pods', pod('cpu', { resources: { requests: { cpu: '100m' } } }));
    expect(res.status, res.text).to.equal(403);
    expect(res.body.message).to.equal('pods "cpu" is forbidden: insufficient quota to consume: cpu,requests.cpu');
    expect((await admin.post('/api/v1/namespaces/rq-limited/pods', pod('nocpu'))).status).to.equal(201);
    await admin.post('/api/v1/namespaces/rq-limited/resourcequotas', quota('compute', { cpu: '1', 'requests.cpu': '1' }));
    await eventually('quota synced', async () => (await admin.get('/api/v1/namespaces/rq-limited/resourcequotas/compute')).body.status?.used !== undefined);
    await sleep(200);
    expect((await admin.post('/api/v1/namespaces/rq-limited/pods', pod('cpu', { resources: { requests: { cpu: '100m' } } }))).status).to.equal(201);
  });
});
