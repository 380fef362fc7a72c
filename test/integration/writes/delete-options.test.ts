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
});
