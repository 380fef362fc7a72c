import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { type TestServer, startTestServer, useTestServer } from '../../framework/test-server.js';

const OPTS = { admission: { plugins: ['NamespaceLifecycle', 'ResourceQuota'] }, controllers: ['resourcequota'] };
const NS = 'rq-contention';

describe('ResourceQuota under contention across two server replicas (issue #13 quality bar)', () => {
  const a = useTestServer(OPTS);
  let b: TestServer | undefined;

  before(async function () {
    this.timeout(60_000);
    b = await startTestServer({ ...OPTS, prefix: a().prefix });
  });
  after(async () => {
    await b?.stop();
  });

  it('admits exactly 10 of 64 concurrent pod creates against `pods: 10`, the rest 403 with the quota message', async function () {
    this.timeout(60_000);
    expect((await a().admin.post('/api/v1/namespaces', { metadata: { name: NS } })).status).to.equal(201);
    const q = await a().admin.post(`/api/v1/namespaces/${NS}/resourcequotas`, { metadata: { name: 'q' }, spec: { hard: { pods: '10' } } });
    expect(q.status, q.text).to.equal(201);
    for (let i = 0; i < 200 && (await b!.admin.get(`/api/v1/namespaces/${NS}/resourcequotas/q`)).body.status?.used === undefined; i++) await sleep(50);
    // Both replicas' quota informers must hold the quota with its status.
    await sleep(500);

    const results = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        (i % 2 === 0 ? a() : b!).admin.post(`/api/v1/namespaces/${NS}/pods`, { metadata: { name: `p-${i}` }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    const rejected = results.filter((r) => r.status === 403);
    expect(created.length, results.filter((r) => r.status !== 201 && r.status !== 403).map((r) => r.text).join('\n')).to.equal(10);
    expect(rejected.length).to.equal(54);
    for (const r of rejected) {
      expect(r.body.reason).to.equal('Forbidden');
      expect(r.body.message).to.equal(`pods "${r.body.details.name}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=10, limited: pods=10`);
    }
    const pods = await a().admin.get(`/api/v1/namespaces/${NS}/pods`);
    expect(pods.body.items).to.have.length(10);
    expect((await a().admin.get(`/api/v1/namespaces/${NS}/resourcequotas/q`)).body.status.used).to.deep.equal({ pods: '10' });
  });
});
