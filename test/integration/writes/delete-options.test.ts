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

  describe('a Pod deleted with no grace period is written terminating, then removed (upstream Store.Delete after updateForGracefulDeletionAndFinalizers)', () => {
    /** Creates the Pod, watches it from its creation, deletes it with `query`; returns the answer and the next two events. */
    async function deleteWatched(name: string, spec: Record<string, unknown>, query: string, body?: Record<string, unknown>) {
      const created = (await server().admin.post(PODS, pod(name, spec))).body;
      const w = await server().admin.watch(`${PODS}?watch=1&fieldSelector=metadata.name%3D${name}&resourceVersion=${created.metadata.resourceVersion}`);
      const res = await server().admin.request('DELETE', `${PODS}/${name}${query}`, body ? { body } : {});
      const events = [await w.next(), await w.next()];
      w.close();
      return { created, res, events };
    }

    for (const [what, spec, query] of [
      ['an unscheduled Pod', {}, ''],
      ['a bound Pod with gracePeriodSeconds=0', { nodeName: 'node-1' }, '?gracePeriodSeconds=0'],
    ] as const) {
      it(`${what}: MODIFIED with deletionTimestamp and deletionGracePeriodSeconds 0, then DELETED; the answer is that state`, async () => {
        const name = `zero-${what.length}-${query.length}`;
        const before = Date.now() - 1000;
        const { created, res, events } = await deleteWatched(name, spec, query);
        expect(res.status).to.equal(200);
        expect(events.map((e) => e?.type)).to.deep.equal(['MODIFIED', 'DELETED']);
        const [modified, deleted] = events.map((e) => e!.object);
        expect(modified.metadata.deletionGracePeriodSeconds).to.equal(0);
        expect(Date.parse(modified.metadata.deletionTimestamp)).to.be.within(before, Date.now() + 1000);
        expect(Number(modified.metadata.resourceVersion)).to.be.above(Number(created.metadata.resourceVersion));
        expect(deleted.metadata).to.deep.include({ deletionTimestamp: modified.metadata.deletionTimestamp, deletionGracePeriodSeconds: 0 });
        expect(res.body.kind).to.equal('Pod');
        expect(res.body.metadata).to.deep.include({ deletionTimestamp: modified.metadata.deletionTimestamp, deletionGracePeriodSeconds: 0, resourceVersion: modified.metadata.resourceVersion });
        expect((await server().admin.get(`${PODS}/${name}`)).status).to.equal(404);
      });
    }

    it('a terminating Pod whose grace period is cut to 0: MODIFIED, then DELETED', async () => {
      await server().admin.post(PODS, pod('cut-to-zero', { nodeName: 'node-1' }));
      const terminating = (await server().admin.delete(`${PODS}/cut-to-zero`)).body;
      const w = await server().admin.watch(`${PODS}?watch=1&fieldSelector=metadata.name%3Dcut-to-zero&resourceVersion=${terminating.metadata.resourceVersion}`);
      expect((await server().admin.delete(`${PODS}/cut-to-zero?gracePeriodSeconds=0`)).status).to.equal(200);
      const events = [await w.next(), await w.next()];
      w.close();
      expect(events.map((e) => [e?.type, e?.object.metadata.deletionGracePeriodSeconds])).to.deep.equal([
        ['MODIFIED', 0],
        ['DELETED', 0],
      ]);
    });

    it('a resourceVersion precondition is checked against the Pod as it was, and carried to the state written', async () => {
      const created = (await server().admin.post(PODS, pod('zero-pre'))).body;
      const stale = await server().admin.request('DELETE', `${PODS}/zero-pre`, { body: { preconditions: { resourceVersion: '1' } } });
      expect(stale.status).to.equal(409);
      expect((await server().admin.get(`${PODS}/zero-pre`)).body.metadata.resourceVersion).to.equal(created.metadata.resourceVersion);
      const res = await server().admin.request('DELETE', `${PODS}/zero-pre`, { body: { preconditions: { resourceVersion: created.metadata.resourceVersion, uid: created.metadata.uid } } });
      expect(res.status).to.equal(200);
      expect((await server().admin.get(`${PODS}/zero-pre`)).status).to.equal(404);
    });

    it('a dry run answers the terminating state it would write and changes nothing', async () => {
      const created = (await server().admin.post(PODS, pod('zero-dry'))).body;
      const res = await server().admin.delete(`${PODS}/zero-dry?dryRun=All`);
      expect(res.status).to.equal(200);
      expect(res.body.metadata.deletionGracePeriodSeconds).to.equal(0);
      expect(res.body.metadata.deletionTimestamp).to.be.a('string');
      const now = (await server().admin.get(`${PODS}/zero-dry`)).body;
      expect(now.metadata.resourceVersion).to.equal(created.metadata.resourceVersion);
      expect(now.metadata.deletionTimestamp).to.equal(undefined);
    });

    it('a kind without graceful deletion (a ConfigMap) is removed in one write: DELETED only', async () => {
      const created = (await server().admin.post(CMS, { metadata: { name: 'one-write' } })).body;
      const w = await server().admin.watch(`${CMS}?watch=1&fieldSelector=metadata.name%3Done-write&resourceVersion=${created.metadata.resourceVersion}`);
      expect((await server().admin.delete(`${CMS}/one-write`)).status).to.equal(200);
      const ev = await w.next();
      w.close();
      expect(ev?.type).to.equal('DELETED');
      expect(ev?.object.metadata.resourceVersion).to.not.equal(undefined);
      expect(ev?.object.metadata.deletionTimestamp).to.equal(undefined);
    });
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
