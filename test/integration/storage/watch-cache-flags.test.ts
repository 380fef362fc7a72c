import { expect } from 'chai';
import { EVENTS_GROUP } from '../../../lib/apis/events/v1/event.js';
import { etcdctl } from '../../framework/etcd.js';
import { eventually } from '../../framework/storage-contract.js';
import { type TestServer, useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

/** The 410 message of upstream's etcd3 watcher (uncached resources). */
const ETCD_EXPIRED = 'The resourceVersion for the provided watch is too old.';
const NS = '/api/v1/namespaces';

let n = 0;
/** A fresh namespace; returns its path. */
async function freshNamespace(s: TestServer): Promise<string> {
  const name = `wcf${++n}-${Date.now() % 100000}`;
  expect((await s.admin.post(NS, { metadata: { name } })).status).to.equal(201);
  return `${NS}/${name}`;
}

function event(ns: string, name: string, involved: string): Record<string, unknown> {
  return {
    metadata: { name },
    involvedObject: { kind: 'Pod', name: involved, namespace: ns.slice(ns.lastIndexOf('/') + 1) },
    reason: 'Tested',
    message: `about ${involved}`,
    type: 'Normal',
  };
}

/** Compacts etcd at the revision of a fresh write (another test compacting further is fine). */
async function compactNow(s: TestServer, ns: string): Promise<void> {
  const marker = await s.admin.post(`${NS}/${ns.slice(ns.lastIndexOf('/') + 1)}/configmaps`, { metadata: { generateName: 'marker-' } });
  expect(marker.status).to.equal(201);
  await etcdctl(['compaction', marker.body.metadata.resourceVersion]).catch((err: Error) => {
    if (!/compacted/.test(err.message)) throw err;
  });
}

/**
 * Writes an object of `collection` (ConfigMap-shaped unless `body` is given), modifies it, compacts
 * etcd, then watches from the first revision: returns the first event.
 */
async function watchAcrossCompaction(s: TestServer, ns: string, collection: string, body: Record<string, unknown>): Promise<{ type: string; object: Record<string, unknown> }> {
  const created = await s.admin.post(`${ns}/${collection}`, body);
  expect(created.status).to.equal(201);
  const rv = created.body.metadata.resourceVersion as string;
  const name = created.body.metadata.name as string;
  const patched = await s.admin.patch(`${ns}/${collection}/${name}`, { metadata: { labels: { step: '2' } } }, 'application/merge-patch+json');
  expect(patched.status).to.equal(200);
  await compactNow(s, ns);
  const w = await s.admin.watch(`${ns}/${collection}?watch=1&resourceVersion=${rv}`);
  expect(w.status).to.equal(200);
  const ev = await w.next();
  w.close();
  return ev;
}

describe('watch cache flags (issue #16 item 6: --watch-cache, --watch-cache-sizes)', function () {
  this.timeout(60_000);

  describe('defaults: events are not cached, configmaps are', () => {
    const server = useTestServer();

    it(`a watch of events from a compacted revision answers one ERROR event: 410 Expired, upstream etcd wording${covers('001 § Limits › Watch history retained', '001 § Errors › 410 Gone')}`, async () => {
      const ns = await freshNamespace(server());
      const ev = await watchAcrossCompaction(server(), ns, 'events', event(ns, 'e1', 'p1'));
      expect(ev.type).to.equal('ERROR');
      expect(ev.object).to.include({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410, message: ETCD_EXPIRED });
    });

    it('the same for events of the events group', async () => {
      const ns = await freshNamespace(server());
      const nsName = ns.slice(ns.lastIndexOf('/') + 1);
      const body = { metadata: { name: 'ev1' }, eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'test/ctl', reportingInstance: 'i1', action: 'Act', reason: 'Tested', type: 'Normal', regarding: { kind: 'Pod', name: 'p', namespace: nsName } };
      const ev = await watchAcrossCompaction(server(), `/apis/${EVENTS_GROUP}/v1/namespaces/${nsName}`, 'events', body);
      expect(ev.type).to.equal('ERROR');
      expect(ev.object).to.include({ reason: 'Expired', code: 410, message: ETCD_EXPIRED });
    });

    it('configmaps stay cached: their watch history outlives the compaction', async () => {
      const ns = await freshNamespace(server());
      const ev = await watchAcrossCompaction(server(), ns, 'configmaps', { metadata: { name: 'kept' } });
      expect([ev.type, (ev.object.metadata as { name: string }).name]).to.deep.equal(['MODIFIED', 'kept']);
    });

    it('uncached events still list in chunks, filter by field selector and watch from a list', async () => {
      const ns = await freshNamespace(server());
      for (const [name, involved] of [['a', 'p1'], ['b', 'p2'], ['c', 'p1']] as const) {
        expect((await server().admin.post(`${ns}/events`, event(ns, name, involved))).status).to.equal(201);
      }
      const first = await server().admin.get(`${ns}/events?limit=2`);
      expect(first.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['a', 'b']);
      expect(first.body.metadata.remainingItemCount).to.equal(1);
      const rest = await server().admin.get(`${ns}/events?limit=2&continue=${encodeURIComponent(first.body.metadata.continue as string)}`);
      expect(rest.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['c']);
      expect(rest.body.metadata.resourceVersion).to.equal(first.body.metadata.resourceVersion);
      const selected = await server().admin.get(`${ns}/events?fieldSelector=involvedObject.name%3Dp1`);
      expect(selected.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['a', 'c']);

      const initial = await server().admin.watch(`${ns}/events?watch=1&resourceVersion=0&fieldSelector=involvedObject.name%3Dp2`);
      const added = await initial.next();
      expect([added.type, added.object.metadata.name]).to.deep.equal(['ADDED', 'b']);
      initial.close();

      const w = await server().admin.watch(`${ns}/events?watch=1&resourceVersion=${first.body.metadata.resourceVersion as string}`);
      expect((await server().admin.post(`${ns}/events`, event(ns, 'd', 'p3'))).status).to.equal(201);
      const ev = await w.next();
      expect([ev.type, ev.object.metadata.name]).to.deep.equal(['ADDED', 'd']);
      expect(Number(ev.object.metadata.resourceVersion)).to.be.greaterThan(Number(first.body.metadata.resourceVersion));
      w.close();
    });

    it('a get of an event at a future resourceVersion is 504 Too large resource version', async () => {
      const ns = await freshNamespace(server());
      expect((await server().admin.post(`${ns}/events`, event(ns, 'f', 'p'))).status).to.equal(201);
      const res = await server().admin.get(`${ns}/events/f?resourceVersion=999999999`);
      expect(res.status).to.equal(504);
      expect(res.body).to.include({ reason: 'Timeout', code: 504 });
      expect(res.body.message).to.match(/^Timeout: Too large resource version: 999999999, current: \d+$/);
    });
  });

  describe('--watch-cache-sizes=configmaps#0', () => {
    const server = useTestServer({ watchCache: { enabled: true, sizes: ['configmaps#0'] } });

    it('configmaps are read from etcd: a watch from a compacted revision answers 410', async () => {
      const ns = await freshNamespace(server());
      const ev = await watchAcrossCompaction(server(), ns, 'configmaps', { metadata: { name: 'gone' } });
      expect(ev.type).to.equal('ERROR');
      expect(ev.object).to.include({ reason: 'Expired', code: 410, message: ETCD_EXPIRED });
    });
  });

  describe('--watch-cache=false', () => {
    const server = useTestServer({ watchCache: { enabled: false, sizes: ['configmaps#100'] } });

    it('every resource is read from etcd, whatever the sizes say', async () => {
      const ns = await freshNamespace(server());
      for (const collection of ['configmaps', 'secrets']) {
        const ev = await watchAcrossCompaction(server(), ns, collection, { metadata: { name: `x-${collection}` } });
        expect(ev.type, collection).to.equal('ERROR');
        expect(ev.object, collection).to.include({ reason: 'Expired', code: 410, message: ETCD_EXPIRED });
      }
    });

    it('informers inside the server follow uncached storage (NamespaceLifecycle sees a namespace terminate)', async () => {
      const ns = await freshNamespace(server());
      const name = ns.slice(ns.lastIndexOf('/') + 1);
      expect((await server().admin.delete(ns)).status).to.equal(200);
      let last = { status: 0, body: {} as Record<string, unknown> };
      await eventually(async () => {
        last = await server().admin.post(`${ns}/configmaps`, { metadata: { generateName: 'late-' } });
        return last.status === 403;
      }, 10_000, 'creation refused in the terminating namespace');
      expect(last.body.message).to.equal(`configmaps is forbidden: unable to create new content in namespace ${name} because it is being terminated`);
    });
  });
});
