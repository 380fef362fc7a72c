import { expect } from 'chai';
import { AsyncQueue } from '../../../../lib/storage/async-queue.js';
import { Cacher } from '../../../../lib/storage/cacher/cacher.js';
import { CacheWatcher, type CacheWatcherOptions, watchChannelSize } from '../../../../lib/storage/cacher/cache-watcher.js';
import { TimeBudget } from '../../../../lib/storage/cacher/time-budget.js';
import type { CacheEvent } from '../../../../lib/storage/cacher/watch-cache.js';
import { EVERYTHING, type ListResult, type StorageInterface, type StoredObject, type WatchEvent, type Watcher } from '../../../../lib/storage/interface.js';
import type { CacherMetrics } from '../../../../lib/metrics/watch-cache.js';

const P = '/r/core/configmaps/';
const change = (rv: number): CacheEvent => {
  const object: StoredObject = { metadata: { namespace: 'a', name: 'x', resourceVersion: String(rv) } };
  return { type: 'MODIFIED', key: `${P}a/x`, object, prevObject: object, rv, seq: rv, at: 0 };
};

function watcher(capacity: number, extra: Partial<CacheWatcherOptions> = {}): CacheWatcher {
  return new CacheWatcher({ scope: P, predicate: EVERYTHING, allowBookmarks: false, onStop: () => undefined, currentRV: () => 0, capacity, ...extra });
}

describe('slow watchers: bounded watcher buffers (issue #19 item 1)', () => {
  it('sizes buffers as upstream: about one second of the cache window, between 10 and 100', () => {
    expect(watchChannelSize(100_000)).to.equal(100);
    expect(watchChannelSize(1_500)).to.equal(20);
    expect(watchChannelSize(300)).to.equal(10);
    expect(watchChannelSize(0)).to.equal(10);
  });

  it('reports blocked once the buffer is over capacity, and unblocked when the client catches up', async () => {
    const unblocked: CacheWatcher[] = [];
    const w = watcher(3, { onUnblocked: (x) => unblocked.push(x) });
    expect([1, 2, 3].map((rv) => w.offer(change(rv)))).to.deep.equal([true, true, true]);
    expect(w.offer(change(4))).to.equal(false);
    expect(w.isBlocked).to.equal(true);
    expect(w.buffered).to.equal(4);
    const it = w[Symbol.asyncIterator]();
    await it.next();
    expect(w.isBlocked).to.equal(false);
    expect(unblocked).to.deep.equal([w]);
    expect(w.isStopped).to.equal(false);
  });

  it('does not count the initial state of a watch against its buffer', async () => {
    const w = watcher(2);
    for (let i = 0; i < 50; i++) w.pushInitial({ type: 'ADDED', object: { metadata: { name: `o${i}` } } }, 0);
    expect(w.offer(change(100))).to.equal(true);
    expect(w.offer(change(101))).to.equal(true);
    expect(w.offer(change(102))).to.equal(false);
    const it = w[Symbol.asyncIterator]();
    for (let i = 0; i < 50; i++) await it.next();
    expect(w.isBlocked).to.equal(true);
    await it.next();
    expect(w.isBlocked).to.equal(false);
  });

  it('is terminated at once past twice its capacity, dropping what it buffered', async () => {
    const dropped: number[] = [];
    let stopped = 0;
    const w = watcher(2, { onTerminated: (n) => dropped.push(n), onStop: () => stopped++ });
    for (let rv = 1; rv <= 5; rv++) w.offer(change(rv));
    expect(w.isStopped).to.equal(true);
    expect([dropped, stopped]).to.deep.equal([[5], 1]);
    await w.done;
    expect(await w[Symbol.asyncIterator]().next()).to.deep.equal({ value: undefined, done: true });
  });

  it('terminate() ends the stream without the buffered events and resolves done; a graceful stop keeps them', async () => {
    let terminated = 0;
    const w = watcher(10, { onTerminated: () => terminated++ });
    w.offer(change(1));
    w.terminate();
    w.terminate();
    expect(terminated).to.equal(1);
    await w.done;
    const out = [];
    for await (const e of w) out.push(e);
    expect(out).to.deep.equal([]);

    const g = watcher(10, { onTerminated: () => terminated++ });
    g.offer(change(1));
    g.stop(true);
    await g.done;
    const kept = [];
    for await (const e of g) kept.push(e.object.metadata!.resourceVersion);
    expect(kept).to.deep.equal(['1']);
    expect(terminated).to.equal(1);
  });
});

describe('slow watchers: the dispatch budget (upstream time_budget.go)', () => {
  it('starts empty, refills 50 ms per second up to 100 ms, and takes everything at once', () => {
    let now = 0;
    const b = new TimeBudget(() => now);
    expect(b.takeAvailable()).to.equal(0);
    now = 1_000;
    expect(b.takeAvailable()).to.equal(50);
    expect(b.takeAvailable()).to.equal(0);
    now = 10_000;
    expect(b.takeAvailable()).to.equal(100);
  });

  it('takes back unused time, capped at 100 ms, and ignores overdrafts', () => {
    let now = 0;
    const b = new TimeBudget(() => now);
    now = 1_000;
    const t = b.takeAvailable();
    b.returnUnused(t - 20);
    b.returnUnused(-5);
    expect(b.takeAvailable()).to.equal(30);
    b.returnUnused(500);
    expect(b.takeAvailable()).to.equal(100);
  });
});

/** A store whose single watch stream the test drives. */
class OneWatchStore implements Partial<StorageInterface> {
  readonly stream = new AsyncQueue<WatchEvent>();
  watching = false;
  async getList(): Promise<ListResult> {
    return { items: [], resourceVersion: '1' };
  }
  async watch(): Promise<Watcher> {
    this.watching = true;
    return Object.assign(this.stream, { stop: () => this.stream.close() });
  }
  async currentRevision(): Promise<string> {
    return '1';
  }
}

describe('slow watchers: the cacher closes a watcher that stays full (upstream cacher.dispatchEvent)', () => {
  it('terminates the stuck watcher once the budget is spent, counts it, and keeps feeding the fast one', async () => {
    const store = new OneWatchStore();
    let terminated = 0;
    const metrics: CacherMetrics = { events: () => undefined, initialized: () => undefined, initEvents: () => undefined, listed: () => undefined, terminated: () => terminated++ };
    const closed: Array<{ key: string; buffered: number }> = [];
    // A window of 750 events gives watchers a buffer of 10.
    const cacher = new Cacher({ delegate: store as unknown as StorageInterface, prefix: P, window: { historyMs: 60_000, maxEvents: 750 }, metrics, onWatcherTerminated: (w) => closed.push(w) });
    try {
      const stuck = await cacher.watch(P, { predicate: EVERYTHING, resourceVersion: '1' });
      const fast = await cacher.watch(P, { predicate: EVERYTHING, resourceVersion: '1' });
      const seen: string[] = [];
      const reading = (async () => {
        for await (const e of fast) seen.push(e.object.metadata!.resourceVersion as string);
      })();
      while (!store.watching) await new Promise((r) => setTimeout(r, 1));
      for (let rv = 2; rv <= 16; rv++) {
        const object: StoredObject = { metadata: { namespace: 'a', name: 'x', resourceVersion: String(rv) } };
        store.stream.push({ type: rv === 2 ? 'ADDED' : 'MODIFIED', object, key: `${P}a/x` });
      }
      await stuck.done;
      expect(terminated).to.equal(1);
      expect(closed).to.have.length(1);
      expect(closed[0]!.key).to.equal(P);
      expect(closed[0]!.buffered).to.be.within(11, 20);
      expect(await stuck[Symbol.asyncIterator]().next()).to.deep.equal({ value: undefined, done: true });
      while (seen.length < 15) await new Promise((r) => setTimeout(r, 1));
      expect(seen).to.deep.equal(Array.from({ length: 15 }, (_, i) => String(i + 2)));
      fast.stop();
      await reading;
    } finally {
      cacher.stop();
    }
  });

  it('does not close a watcher whose client read while the server was busy past the budget (issue #17 item 3)', async () => {
    const store = new OneWatchStore();
    let terminated = 0;
    const metrics: CacherMetrics = { events: () => undefined, initialized: () => undefined, initEvents: () => undefined, listed: () => undefined, terminated: () => terminated++ };
    const cacher = new Cacher({ delegate: store as unknown as StorageInterface, prefix: P, window: { historyMs: 60_000, maxEvents: 750 }, metrics });
    try {
      await new Promise((r) => setTimeout(r, 500)); // ~25 ms of budget
      const w = (await cacher.watch(P, { predicate: EVERYTHING, resourceVersion: '1' })) as CacheWatcher;
      while (!store.watching) await new Promise((r) => setTimeout(r, 1));
      const it = w[Symbol.asyncIterator]();
      const read: string[] = [];
      // 15 events for a buffer of 10: blocked, not past the hard bound.
      for (let rv = 2; rv <= 16; rv++) {
        const object: StoredObject = { metadata: { namespace: 'a', name: 'x', resourceVersion: String(rv) } };
        store.stream.push({ type: rv === 2 ? 'ADDED' : 'MODIFIED', object, key: `${P}a/x` });
      }
      while (!w.isBlocked) await new Promise((r) => setImmediate(r));
      // The client's read is I/O the loop has yet to handle when the server's long synchronous
      // work ends, after the budget has run out.
      setImmediate(() => {
        for (let i = 0; i < 15; i++) void it.next().then((r) => read.push(r.value.object.metadata.resourceVersion));
      });
      const busyUntil = Date.now() + 150;
      while (Date.now() < busyUntil);
      await new Promise((r) => setTimeout(r, 20));
      expect(w.isStopped).to.equal(false);
      expect(terminated).to.equal(0);
      expect(read).to.deep.equal(Array.from({ length: 15 }, (_, i) => String(i + 2)));
      w.stop();
    } finally {
      cacher.stop();
    }
  });
});
