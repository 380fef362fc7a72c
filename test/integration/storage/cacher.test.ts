import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Cacher } from '../../../lib/storage/cacher/cacher.js';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { describeStorageContract, eventually } from '../../framework/storage-contract.js';
import { EVERYTHING, type WatchEvent } from '../../../lib/storage/interface.js';
import { cachedJSONBody, carryJSONBody, memoizedJSONBody } from '../../../lib/apimachinery/serializers/json-cache.js';

/**
 * The test etcd's storage under a fresh prefix (`/<uuid>/registry/`). `release` stops `cacher`
 * (if given), deletes the prefix's keys and closes the etcd client.
 */
async function freshStorage() {
  const { endpoint } = await useEtcd();
  const client = newEtcdClient([endpoint]);
  const delegate = new Etcd3Storage(client);
  const prefix = `/${randomUUID()}/registry/`;
  const release = async (cacher?: Cacher): Promise<void> => {
    cacher?.stop();
    await etcdctl(['del', '--prefix', prefix]);
    client.close();
  };
  return { delegate, prefix, release };
}

/**
 * The watch cache must honour the same storage contract as etcd itself (ARCHITECTURE.md § Tests:
 * contract suites run against every implementation of an interface).
 */
describeStorageContract('watch cache over etcd3', async () => {
  const { delegate, prefix, release } = await freshStorage();
  const cacher = new Cacher({ delegate, prefix, bookmarkIntervalMs: 1000 });
  return {
    storage: cacher,
    prefix,
    historyOutlivesCompaction: true,
    compact: (rev) => delegate.compact(rev),
    cleanup: () => release(cacher),
  };
});

describe('watch cache history (spec 001 § Limits: watch history retained)', function () {
  this.timeout(30_000);

  it('answers a watch from before the cache began with one ERROR event carrying 410 Expired', async () => {
    const { delegate, prefix, release } = await freshStorage();
    const before = await delegate.create(`${prefix}ns/early`, { metadata: { name: 'early', namespace: 'ns' } });
    await delegate.create(`${prefix}ns/later`, { metadata: { name: 'later', namespace: 'ns' } });
    const cacher = new Cacher({ delegate, prefix });
    try {
      const w = await cacher.watch(prefix, { predicate: EVERYTHING, resourceVersion: before.metadata!.resourceVersion as string });
      const events: WatchEvent[] = [];
      for await (const ev of w) events.push(ev);
      expect(events).to.have.length(1);
      expect(events[0]!.type).to.equal('ERROR');
      expect(events[0]!.object).to.include({ reason: 'Expired', code: 410 });
      expect(events[0]!.object.message).to.match(new RegExp(`^too old resource version: ${before.metadata!.resourceVersion as string} \\(\\d+\\)$`));
    } finally {
      await release(cacher);
    }
  });
});

describe('watch cache quorum gets (issue #17 item 1; spec 000 § Resource versions)', function () {
  this.timeout(30_000);

  it("answers a read-only quorum get with its own copy once etcd shows it current, and any other caller with a decoded object", async () => {
    const { delegate, prefix, release } = await freshStorage();
    const key = `${prefix}ns/cm`;
    const cacher = new Cacher({ delegate, prefix });
    try {
      const created = await cacher.create(key, { metadata: { name: 'cm', namespace: 'ns' }, data: { v: '1' } });
      const rv = created.metadata!.resourceVersion as string;
      const cached = await cacher.get(key, { resourceVersion: rv });
      const shared = await cacher.get(key, { readOnlyResult: true });
      expect(shared).to.equal(cached, 'the read-only caller gets the cache copy');
      const own = await cacher.get(key, {});
      expect(own).to.not.equal(cached, 'a caller that may mutate gets its own object');
      expect(own).to.deep.equal(cached);
      await delegate.guaranteedUpdate(key, {}, (cur) => ({ ...cur, data: { v: '2' } }));
      const fresh = await cacher.get(key, { readOnlyResult: true });
      expect(fresh!.data).to.deep.equal({ v: '2' }, 'the answer is current even before the cache has seen the write');
    } finally {
      await release(cacher);
    }
  });
});

describe('watch cache: objects superseded (issue #24 item 2)', function () {
  this.timeout(30_000);

  it('names each object an update or a delete superseded, and never a current one', async () => {
    const { delegate, prefix, release } = await freshStorage();
    const key = `${prefix}ns/cm`;
    const superseded: WatchEvent['object'][] = [];
    const cacher = new Cacher({ delegate, prefix, onSuperseded: (obj) => void superseded.push(obj) });
    try {
      const v1 = await cacher.create(key, { metadata: { name: 'cm', namespace: 'ns' }, data: { v: '1' } });
      const v2 = await cacher.guaranteedUpdate(key, {}, async (cur) => ({ ...cur, data: { v: '2' } }));
      await cacher.delete(key, {});
      const v3 = await cacher.create(key, { metadata: { name: 'cm', namespace: 'ns' }, data: { v: '3' } });
      await eventually(async () => cacher.cache.resourceVersion >= Number(v3.metadata!.resourceVersion), 10_000, 'the cache at the last write');
      expect(superseded.map((o) => o.metadata!.resourceVersion)).to.deep.equal([v1.metadata!.resourceVersion, v2.metadata!.resourceVersion]);
      expect(superseded.map((o) => o.data)).to.deep.equal([{ v: '1' }, { v: '2' }]);
    } finally {
      await release(cacher);
    }
  });
});

describe('watch cache: JSON bodies carried to the next version (issue #24)', function () {
  this.timeout(30_000);

  it("gives a served object's next version its JSON body from the stored bytes, for its own writes and another process's; an unserved one none", async () => {
    const { delegate, prefix, release } = await freshStorage();
    const other = await freshStorage();
    const served = `${prefix}ns/served`;
    const unserved = `${prefix}ns/unserved`;
    const cacher = new Cacher({ delegate, prefix, onReplacing: carryJSONBody });
    const settled = (rv: unknown) => eventually(async () => cacher.cache.resourceVersion >= Number(rv), 10_000, 'the cache at the last write');
    try {
      await cacher.create(unserved, { metadata: { name: 'unserved', namespace: 'ns' }, data: { v: '1' } });
      const v1 = await cacher.create(served, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'served', namespace: 'ns', labels: { a: 'é' } }, data: { v: '1' } });
      await settled(v1.metadata!.resourceVersion);
      cachedJSONBody(cacher.cache.get(served)!);
      // Another process's write (decoded from its event), then this storage's own (its object taken back).
      const v2 = await other.delegate.guaranteedUpdate(served, {}, async (cur) => ({ ...cur, data: { v: '2' } }));
      await settled(v2.metadata!.resourceVersion);
      const second = cacher.cache.get(served)!;
      expect(second.data).to.deep.equal({ v: '2' });
      expect(memoizedJSONBody(second)?.toString('utf8')).to.equal(`${JSON.stringify(second)}\n`);
      const v3 = await cacher.guaranteedUpdate(served, {}, async (cur) => ({ ...cur, data: { v: '3' } }));
      const w = await cacher.guaranteedUpdate(unserved, {}, async (cur) => ({ ...cur, data: { v: '2' } }));
      await settled(w.metadata!.resourceVersion);
      const third = cacher.cache.get(served)!;
      expect(third.metadata!.resourceVersion).to.equal(v3.metadata!.resourceVersion);
      expect(memoizedJSONBody(third)?.toString('utf8')).to.equal(`${JSON.stringify(third)}\n`);
      expect(memoizedJSONBody(cacher.cache.get(unserved)!), 'an object never served as JSON gets none').to.equal(undefined);
    } finally {
      await release(cacher);
      await other.release();
    }
  });
});

/**
 * A cacher over `<base>pods/` holding four objects, whose etcd storage counts its progress checks
 * (`changesSince`, which reads every key of the prefix), with writers that keep its events
 * flowing until stopped.
 */
const FLOWING_MS = 1_000;

async function spiedCacher(bookmarkIntervalMs?: number) {
  const { delegate, prefix: base, release } = await freshStorage();
  const prefix = `${base}pods/`;
  const spy = { checks: 0 };
  const changesSince = delegate.changesSince.bind(delegate);
  delegate.changesSince = (p, since) => (spy.checks++, changesSince(p, since));
  // Events count as flowing for a second, not the default 100 ms: a loaded machine (CI runs two
  // test processes) can pause the writers' flow longer than that, and the cache would then check.
  const cacher = new Cacher({ delegate, prefix, eventsFlowingMs: FLOWING_MS, ...(bookmarkIntervalMs !== undefined && { bookmarkIntervalMs }) });
  const keys = ['p0', 'p1', 'p2', 'p3'];
  for (const name of keys) await cacher.create(`${prefix}ns/${name}`, { metadata: { name, namespace: 'ns' }, data: { v: '0' } });
  let writing = false;
  let writers: Promise<void>[] = [];
  return {
    cacher,
    delegate,
    prefix,
    spy,
    /** Another resource's key: a write there moves etcd's revision past the cache's. */
    other: `${base}leases/ns/l`,
    /** Four writers, one per object, so that a slow write does not pause the flow. */
    startWriting() {
      writing = true;
      writers = keys.map(async (name) => {
        for (let v = 1; writing; v++) {
          await delegate.guaranteedUpdate(`${prefix}ns/${name}`, {}, (cur) => ({ ...cur, data: { v: String(v) } }));
          await new Promise((r) => setTimeout(r, 5));
        }
      });
    },
    async stopWriting() {
      writing = false;
      await Promise.all(writers);
    },
    async stop() {
      writing = false;
      await Promise.all(writers);
      await release(cacher);
    },
  };
}

describe('watch cache progress checks (issue #24 item 3)', function () {
  this.timeout(30_000);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("confirms a quiet cache against etcd for a consistent list, but lets a cache whose events are flowing reach the list's revision by them", async () => {
    const f = await spiedCacher();
    try {
      await f.delegate.create(f.other, { metadata: { name: 'l', namespace: 'ns' } });
      // Quiet: etcd's revision moved past the cache's by a write elsewhere; only a check can show the cache current.
      await sleep(FLOWING_MS + 200);
      f.spy.checks = 0;
      expect((await f.cacher.getList(f.prefix, { predicate: EVERYTHING })).items).to.have.length(4);
      expect(f.spy.checks, 'a quiet cache is confirmed').to.be.at.least(1);

      f.startWriting();
      await sleep(200);
      f.spy.checks = 0;
      for (let i = 0; i < 5; i++) {
        await f.delegate.guaranteedUpdate(f.other, {}, (cur) => ({ ...cur, metadata: { ...(cur.metadata as object), labels: { i: String(i) } } }));
        expect((await f.cacher.getList(f.prefix, { predicate: EVERYTHING })).items).to.have.length(4);
      }
      expect(f.spy.checks, 'no etcd check while events flow').to.equal(0);
    } finally {
      await f.stop();
    }
  });

  it('sends BOOKMARKs without a check while events flow, and confirms a quiet cache first', async () => {
    const f = await spiedCacher(100);
    const w = await f.cacher.watch(f.prefix, { predicate: EVERYTHING, resourceVersion: '0', allowWatchBookmarks: true });
    // Taken as they come, so that the watch never falls behind and is closed as a slow one.
    let bookmark = false;
    const reader = setInterval(() => {
      for (let ev = w.take(); ev; ev = w.take()) bookmark ||= ev.type === 'BOOKMARK';
    }, 5);
    try {
      f.startWriting();
      await sleep(300);
      f.spy.checks = 0;
      await sleep(600);
      expect(f.spy.checks, 'no etcd check while events flow').to.equal(0);
      await f.stopWriting();
      await eventually(async () => f.spy.checks >= 1, 5_000, 'a quiet cache is confirmed before its BOOKMARKs');
      expect(bookmark, 'BOOKMARKs were sent').to.equal(true);
    } finally {
      clearInterval(reader);
      w.stop();
      await f.stop();
    }
  });
});

describe('watch cache started on first use (issue #22 § Ready in under a second)', function () {
  this.timeout(30_000);

  /** A cacher with `startOnFirstUse` over a prefix holding two objects. */
  async function lazyCacher() {
    const { delegate, prefix, release } = await freshStorage();
    await delegate.create(`${prefix}ns/a`, { metadata: { name: 'a', namespace: 'ns' } });
    await delegate.create(`${prefix}ns/b`, { metadata: { name: 'b', namespace: 'ns' } });
    const cacher = new Cacher({ delegate, prefix, startOnFirstUse: true });
    const cleanup = () => release(cacher);
    return { cacher, prefix, cleanup };
  }

  it('lists nothing from etcd until a read served from the cache, which starts it and waits for its first list', async () => {
    const { cacher, prefix, cleanup } = await lazyCacher();
    try {
      await new Promise((r) => setTimeout(r, 200));
      expect(cacher.relists, 'no list before the first use').to.equal(0);
      const list = await cacher.getList(prefix, { predicate: EVERYTHING, resourceVersion: '0' });
      expect(list.items.map((o) => o.metadata?.name)).to.deep.equal(['a', 'b']);
      expect(cacher.relists).to.equal(1);
      expect((await cacher.get(`${prefix}ns/a`, { resourceVersion: '0' }))?.metadata?.name).to.equal('a');
      expect(cacher.relists, 'started once').to.equal(1);
    } finally {
      await cleanup();
    }
  });

  it('a watch starts it too, and start() resolves once the first list is in, the same promise each time', async () => {
    const { cacher, prefix, cleanup } = await lazyCacher();
    try {
      const started = cacher.start();
      expect(cacher.start()).to.equal(started);
      await started;
      expect(cacher.relists).to.equal(1);
      const w = await cacher.watch(prefix, { predicate: EVERYTHING, resourceVersion: '0' });
      const names: string[] = [];
      for await (const ev of w) {
        names.push(`${ev.type} ${ev.object.metadata?.name as string}`);
        if (names.length === 2) break;
      }
      w.stop();
      expect(names).to.deep.equal(['ADDED a', 'ADDED b']);
    } finally {
      await cleanup();
    }
  });

  it('a cacher stopped before it started never lists, and start() resolves at once', async () => {
    const { cacher, cleanup } = await lazyCacher();
    try {
      cacher.stop();
      await cacher.start();
      expect(cacher.relists).to.equal(0);
    } finally {
      await cleanup();
    }
  });
});
