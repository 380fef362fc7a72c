import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const PODS = '/api/v1/namespaces/default/pods';
const CMS = '/api/v1/namespaces/default/configmaps';
const pod = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } });

describe('delete options and response shapes (issue #5 item 6; spec 000 § Object deletion lifecycle)', () => {
  const server = useTestServer();

  it('a Pod bound to a node is deleted gracefully: kept with deletionTimestamp and its grace period, answered as the Pod', async () => {
    await server().admin.post(PODS, pod('graceful', { nodeName: 'node-1' }));
    const before = Date.now();
    const res = await server().admin.delete(`${PODS}/graceful`);
    expect(res.status).to.equal(200);
    expect(res.body.kind).to.equal('Pod');
    expect(res.body.metadata.deletionGracePeriodSeconds).to.equal(30);
    const at = Date.parse(res.body.metadata.deletionTimestamp);
    expect(at).to.be.within(before + 28_000, before + 32_000);
    expect((await server().admin.get(`${PODS}/graceful`)).status).to.equal(200);
  });

  it('gracePeriodSeconds in the body overrides the Pod spec; 0 removes it at once', async () => {
    await server().admin.post(PODS, pod('short', { nodeName: 'node-1', terminationGracePeriodSeconds: 60 }));
    const res = await server().admin.request('DELETE', `${PODS}/short`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 5 } });
    expect(res.body.metadata.deletionGracePeriodSeconds).to.equal(5);
    const now = await server().admin.delete(`${PODS}/short?gracePeriodSeconds=0`);
    expect(now.status).to.equal(200);
    expect((await server().admin.get(`${PODS}/short`)).status).to.equal(404);
  });

  it('a second DELETE of a terminating Pod without a shorter grace period changes nothing: same resourceVersion, timestamp and finalizers', async () => {
    await server().admin.post(PODS, pod('twice', { nodeName: 'node-1' }));
    const first = (await server().admin.delete(`${PODS}/twice`)).body;
    for (const query of ['', '?gracePeriodSeconds=30', '?gracePeriodSeconds=60&propagationPolicy=Orphan']) {
      const again = await server().admin.delete(`${PODS}/twice${query}`);
      expect(again.status, query).to.equal(200);
      expect(again.body.metadata, query).to.deep.include({
        resourceVersion: first.metadata.resourceVersion,
        deletionTimestamp: first.metadata.deletionTimestamp,
        deletionGracePeriodSeconds: 30,
      });
      expect(again.body.metadata.finalizers, query).to.equal(undefined);
    }
  });

  it('a shorter grace period on a terminating Pod moves its deletionTimestamp back by the difference', async () => {
    await server().admin.post(PODS, pod('shorter', { nodeName: 'node-1', terminationGracePeriodSeconds: 120 }));
    const first = (await server().admin.delete(`${PODS}/shorter`)).body;
    const res = await server().admin.delete(`${PODS}/shorter?gracePeriodSeconds=100`);
    expect(res.status).to.equal(200);
    expect(res.body.metadata.deletionGracePeriodSeconds).to.equal(100);
    expect(Date.parse(first.metadata.deletionTimestamp) - Date.parse(res.body.metadata.deletionTimestamp)).to.equal(20_000);
    expect(Number(res.body.metadata.resourceVersion)).to.be.greaterThan(Number(first.metadata.resourceVersion));
    expect((await server().admin.get(`${PODS}/shorter`)).body.metadata.deletionGracePeriodSeconds).to.equal(100);
  });

  it('an unscheduled Pod is removed at once and answered as the Pod', async () => {
    await server().admin.post(PODS, pod('pending'));
    const res = await server().admin.delete(`${PODS}/pending`);
    expect(res.body.kind).to.equal('Pod');
    expect((await server().admin.get(`${PODS}/pending`)).status).to.equal(404);
  });

  it('preconditions.resourceVersion that does not match is 409 and nothing is deleted', async () => {
    const cm = (await server().admin.post(CMS, { metadata: { name: 'pre-rv' } })).body;
    await server().admin.patch(`${CMS}/pre-rv`, { data: { a: '1' } }, 'application/merge-patch+json');
    const res = await server().admin.request('DELETE', `${CMS}/pre-rv`, { body: { preconditions: { resourceVersion: cm.metadata.resourceVersion } } });
    expect(res.status).to.equal(409);
    expect(res.body.message).to.include('Precondition failed: ResourceVersion in precondition');
    const ok = await server().admin.request('DELETE', `${CMS}/pre-rv`, { body: { preconditions: { uid: cm.metadata.uid } } });
    expect(ok.status).to.equal(200);
  });

  it('propagationPolicy Orphan adds the orphan finalizer and keeps the object terminating', async () => {
    await server().admin.post(CMS, { metadata: { name: 'orphaned' } });
    const res = await server().admin.delete(`${CMS}/orphaned?propagationPolicy=Orphan`);
    expect(res.status).to.equal(200);
    expect(res.body.kind).to.equal('ConfigMap');
    expect(res.body.metadata.finalizers).to.deep.equal(['orphan']);
    expect(res.body.metadata.deletionTimestamp).to.be.a('string');
  });

  it('propagationPolicy Foreground adds foregroundDeletion; an unknown policy is 422 Invalid of DeleteOptions', async () => {
    await server().admin.post(CMS, { metadata: { name: 'fg' } });
    const res = await server().admin.request('DELETE', `${CMS}/fg`, { body: { propagationPolicy: 'Foreground' } });
    expect(res.body.metadata.finalizers).to.deep.equal(['foregroundDeletion']);
    const bad = await server().admin.delete(`${CMS}/fg?propagationPolicy=Sometimes`);
    expect(bad.status).to.equal(422);
    expect(bad.body.message).to.equal(
      'DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
    const both = await server().admin.delete(`${CMS}/fg?propagationPolicy=Orphan&orphanDependents=true`);
    expect(both.status).to.equal(422);
    expect(both.body.message).to.equal('DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set');
  });

  it('a DELETE of an object waiting for its finalizers applies the new propagation policy (Foreground to Background removes it)', async () => {
    await server().admin.post(CMS, { metadata: { name: 'switch', finalizers: ['example.com/hold'] } });
    const first = (await server().admin.delete(`${CMS}/switch?propagationPolicy=Foreground`)).body;
    expect(first.metadata.finalizers).to.deep.equal(['example.com/hold', 'foregroundDeletion']);
    const orphan = (await server().admin.delete(`${CMS}/switch?propagationPolicy=Orphan`)).body;
    expect(orphan.metadata.finalizers).to.deep.equal(['example.com/hold', 'orphan']);
    expect(orphan.metadata.deletionTimestamp).to.equal(first.metadata.deletionTimestamp);
    await server().admin.post(CMS, { metadata: { name: 'switch-2' } });
    await server().admin.delete(`${CMS}/switch-2?propagationPolicy=Foreground`);
    const background = await server().admin.delete(`${CMS}/switch-2?propagationPolicy=Background`);
    expect(background.status).to.equal(200);
    expect(background.body).to.deep.include({ kind: 'Status', status: 'Success' });
    expect((await server().admin.get(`${CMS}/switch-2`)).status).to.equal(404);
  });

  it('the first deletion of an object that tracks its generation increments it; a later one does not', async () => {
    const deploy = {
      metadata: { name: 'gen' },
      spec: { selector: { matchLabels: { app: 'gen' } }, template: { metadata: { labels: { app: 'gen' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    };
    const created = (await server().admin.post('/apis/apps/v1/namespaces/default/deployments', deploy)).body;
    expect(created.metadata.generation).to.equal(1);
    const res = await server().admin.delete('/apis/apps/v1/namespaces/default/deployments/gen?propagationPolicy=Orphan');
    expect(res.body.metadata.generation).to.equal(2);
    const again = await server().admin.delete('/apis/apps/v1/namespaces/default/deployments/gen?propagationPolicy=Foreground');
    expect(again.body.metadata.generation).to.equal(2);
    expect(again.body.metadata.finalizers).to.deep.equal(['foregroundDeletion']);
  });
});
