import { expect } from 'chai';
import { AsyncQueue } from '../../../../lib/storage/async-queue.js';
import { Cacher } from '../../../../lib/storage/cacher/cacher.js';
import { OrderedStore, keyRange } from '../../../../lib/storage/cacher/ordered-store.js';
import { OrderedTree, OrderedView } from '../../../../lib/storage/cacher/ordered-tree.js';
import { Snapshots, rewind } from '../../../../lib/storage/cacher/snapshots.js';
import { type CacheEvent, WatchCache } from '../../../../lib/storage/cacher/watch-cache.js';
import { decodeContinue, encodeContinue } from '../../../../lib/storage/continue.js';
import { StorageError, compacted, compactedContinue } from '../../../../lib/storage/errors.js';
import {
  EVERYTHING,
  type ListOptions,
  type ListResult,
  type SelectionPredicate,
  type StorageInterface,
  type StoredObject,
  type WatchEvent,
  type Watcher,
} from '../../../../lib/storage/interface.js';

const P = '/r/core/configmaps/';
const obj = (ns: string, name: string, rv: number, labels: Record<string, string> = {}): StoredObject => ({
  metadata: { namespace: ns, name, resourceVersion: String(rv), labels },
});
const keyOf = (o: StoredObject) => `${P}${o.metadata!.namespace as string}/${o.metadata!.name as string}`;
const nameOf = (o: StoredObject) => o.metadata!.name as string;
const rvOf = (o: StoredObject) => Number(o.metadata!.resourceVersion);
/** The keys and the objects of a view, in order. */
const keysOf = (v: OrderedView) => {
  const out: string[] = [];
  for (const at = v.scan(''); at.key !== undefined; at.next()) out.push(at.key);
  return out;
};
const valuesOf = (v: OrderedView) => {
  const out: StoredObject[] = [];
  for (const at = v.scan(''); at.key !== undefined; at.next()) out.push(at.value!);
  return out;
};
/** The index range `[start, end)` of a prefix's keys in a view, from the view's counts. */
const indexRange = (v: OrderedView, prefix: string) => {
  const [from, to] = keyRange(prefix);
  return [v.count('', from), v.count('', to)];
};
const labelIs = (k: string, v: string): SelectionPredicate => ({
  empty: () => false,
  matches: (o) => (o.metadata?.labels as Record<string, string> | undefined)?.[k] === v,
  matchesSingleName: () => undefined,
  matchesSingleField: () => undefined,
});

describe('OrderedStore and snapshots of the watch cache (issue #17 item 2)', () => {
  it('keeps keys in order and hands out snapshots that later changes do not touch', () => {
    const s = new OrderedStore();
    s.reset(new Map([[`${P}a/b`, obj('a', 'b', 1)], [`${P}a/a`, obj('a', 'a', 1)]]));
    const snap = s.snapshot();
    s.set(`${P}a/c`, obj('a', 'c', 2));
    s.set(`${P}a/a`, obj('a', 'a', 3));
    s.delete(`${P}a/b`);
    expect(keysOf(snap)).to.deep.equal([`${P}a/a`, `${P}a/b`]);
    expect(valuesOf(snap).map(rvOf)).to.deep.equal([1, 1]);
    expect(keysOf(s.view())).to.deep.equal([`${P}a/a`, `${P}a/c`]);
    expect(valuesOf(s.view()).map(rvOf)).to.deep.equal([3, 2]);
    expect(s.get(`${P}a/a`)).to.deep.equal(obj('a', 'a', 3));
  });

  it('finds the range of a prefix and of a single key, not of keys it is a prefix of', () => {
    const s = new OrderedStore();
    s.reset(new Map(['a/x', 'b/x', 'b/xy', 'b0/x', 'c/x'].map((k) => [`${P}${k}`, obj('n', k, 1)])));
    expect(indexRange(s.view(), `${P}b/`)).to.deep.equal([1, 3]);
    expect(indexRange(s.view(), `${P}b/x`)).to.deep.equal([1, 2]);
    expect(indexRange(s.view(), `${P}b/q`)).to.deep.equal([1, 1]);
    expect(indexRange(s.view(), P)).to.deep.equal([0, 5]);
  });

  it('rewinds a state by undoing changes: re-adds deleted objects, restores modified ones, drops added ones', () => {
    const after = OrderedTree.fromSorted(['a', 'b', 'd'], [obj('n', 'a', 5), obj('n', 'b', 1), obj('n', 'd', 6)]).freeze();
    const before = rewind(after, [
      { key: 'a', prevObject: obj('n', 'a', 2) },
      { key: 'c', prevObject: obj('n', 'c', 3) },
      { key: 'd' },
      { key: 'a', prevObject: obj('n', 'a', 4) },
    ]);
    expect(keysOf(before)).to.deep.equal(['a', 'b', 'c']);
    expect(valuesOf(before).map(rvOf)).to.deep.equal([2, 1, 3]);
  });

  it('keeps at most its bound of snapshots, evicting the least recently used', () => {
    const s = new Snapshots(2);
    const v = new OrderedView();
    s.put(1, v);
    s.put(2, v);
    s.get(1);
    s.put(3, v);
    expect([s.get(1), s.get(2), s.get(3)].map((x) => x !== undefined)).to.deep.equal([true, false, true]);
    s.dropThrough(1);
    expect(s.size).to.equal(1);
  });
});

describe('WatchCache.snapshotAt (issue #17 item 2)', () => {
  const mk = () => {
    const c = new WatchCache({ historyMs: 60_000, maxEvents: 4 });
    c.replace([obj('a', 'x', 1), obj('a', 'y', 2)], 10, keyOf);
    return c;
  };
  const change = (type: CacheEvent['type'], o: StoredObject, prev?: StoredObject): CacheEvent => ({ type, key: keyOf(o), object: o, prevObject: prev, rv: rvOf(o), at: Date.now() });

  it('gives the state at any revision of its event window, and nothing outside it', () => {
    const c = mk();
    c.apply(change('ADDED', obj('a', 'z', 11)));
    c.apply(change('MODIFIED', obj('a', 'x', 12), obj('a', 'x', 1)));
    c.apply(change('DELETED', obj('a', 'y', 13), obj('a', 'y', 2)));
    const names = (rv: number) => {
      const snap = c.snapshotAt(rv);
      return snap && valuesOf(snap).map((o) => `${nameOf(o)}@${rvOf(o)}`);
    };
    expect(names(10)).to.deep.equal(['x@1', 'y@2']);
    expect(names(11)).to.deep.equal(['x@1', 'y@2', 'z@11']);
    expect(names(12)).to.deep.equal(['x@12', 'y@2', 'z@11']);
    expect(names(13)).to.deep.equal(['x@12', 'z@11']);
    expect(c.snapshotAt(9)).to.equal(undefined);
    expect(c.snapshotAt(14)).to.equal(undefined);
  });

  it('keeps a snapshot unchanged by later events, and drops it once the window moves past its revision', () => {
    const c = mk();
    const at10 = c.snapshotAt(10)!;
    for (let rv = 11; rv <= 14; rv++) c.apply(change('ADDED', obj('b', `o${rv}`, rv)));
    expect(keysOf(at10)).to.have.length(2);
    expect(c.snapshotAt(10)).to.equal(at10);
    c.apply(change('ADDED', obj('b', 'o15', 15)));
    expect(c.oldestResourceVersion).to.equal(11);
    expect(c.snapshotAt(10)).to.equal(undefined);
  });
});

/** A stand-in for etcd: records the lists it serves, compacts, and feeds the cache through one watch. */
class FakeEtcd implements Partial<StorageInterface> {
  readonly stream = new AsyncQueue<WatchEvent>();
  /** Lists served (the probes of an empty range excluded). */
  readonly served: ListOptions[] = [];
  probes = 0;
  compactedBelow = 0;
  rev = 10;
  private listed = false;

  async getList(prefix: string, opts: ListOptions): Promise<ListResult> {
    if (!this.listed) {
      this.listed = true;
      return { items: [obj('a', 'p1', 2), obj('a', 'p2', 3), obj('a', 'p3', 4), obj('a', 'p4', 5), obj('a', 'p5', 6)], resourceVersion: '10' };
    }
    const rv = opts.continue ? decodeContinue(opts.continue, prefix).rv : Number(opts.resourceVersion || 0);
    if (prefix.includes('\x00')) {
      this.probes++;
      if (rv < this.compactedBelow) throw compacted(prefix, String(rv), String(this.compactedBelow));
      return { items: [], resourceVersion: String(rv) };
    }
    this.served.push(opts);
    if (opts.continue && rv > 0 && rv < this.compactedBelow) throw compactedContinue(prefix, encodeContinue(`${prefix}x`, prefix, -1));
    return { items: [], resourceVersion: 'from-etcd' };
  }
  async watch(): Promise<Watcher> {
    return Object.assign(this.stream, { stop: () => this.stream.close() });
  }
  async currentRevision(): Promise<string> {
    return String(this.rev);
  }
  /** A write: the change arrives through the watch. */
  write(type: WatchEvent['type'], o: StoredObject): void {
    this.rev = rvOf(o);
    this.stream.push({ type, object: o, key: keyOf(o) });
  }
}

describe('Cacher: chunked and Exact lists from snapshots (issue #17 item 2; spec 000 § Chunked list parameters)', () => {
  let etcd: FakeEtcd;
  let cacher: Cacher;
  const ns = `${P}a/`;
  const list = (opts: Partial<ListOptions>) => cacher.getList(ns, { predicate: EVERYTHING, ...opts });
  /** Waits until the cache has applied revision `rv`. */
  const synced = async (rv: number) => {
    while (cacher.cache.resourceVersion < rv) await new Promise((r) => setTimeout(r, 1));
  };
  /** Lists with `limit` from rv=0, writing `between(page)` after each page; returns the pages. */
  async function pages(limit: number, between: (page: number) => Promise<void> = async () => undefined, predicate = EVERYTHING) {
    const out = [await list({ resourceVersion: '0', limit, predicate })];
    while (out.at(-1)!.continue) {
      await between(out.length);
      out.push(await list({ limit, predicate, continue: out.at(-1)!.continue }));
    }
    return out;
  }

  beforeEach(async () => {
    etcd = new FakeEtcd();
    cacher = new Cacher({ delegate: etcd as unknown as StorageInterface, prefix: P });
    await synced(10);
  });
  afterEach(() => cacher.stop());

  it('serves every page at the first page revision while writes happen between pages, with remainingItemCount', async () => {
    let rv = 10;
    const chunks = await pages(2, async (page) => {
      etcd.write('ADDED', obj('a', `p0-${page}`, ++rv));
      etcd.write('MODIFIED', obj('a', 'p5', ++rv));
      etcd.write('DELETED', obj('a', page === 1 ? 'p3' : 'p4', ++rv));
      await synced(rv);
    });
    expect(chunks.map((c) => c.resourceVersion)).to.deep.equal(['10', '10', '10']);
    expect(chunks.map((c) => c.items.map((o) => `${nameOf(o)}@${rvOf(o)}`))).to.deep.equal([['p1@2', 'p2@3'], ['p3@4', 'p4@5'], ['p5@6']]);
    expect(chunks.map((c) => c.remainingItemCount)).to.deep.equal([3, 1, undefined]);
    expect(etcd.served).to.deep.equal([]);
    expect(etcd.probes).to.equal(2);
    // The cache itself moved on.
    expect((await list({ resourceVersion: '0' })).items.map(nameOf)).to.deep.equal(['p0-1', 'p0-2', 'p1', 'p2', 'p5']);
  });

  it('with a selector: no remainingItemCount, and a continue token only while a later object matches', async () => {
    etcd.write('MODIFIED', { ...obj('a', 'p2', 11, { on: 'y' }) });
    etcd.write('MODIFIED', { ...obj('a', 'p4', 12, { on: 'y' }) });
    await synced(12);
    const chunks = await pages(1, async () => undefined, labelIs('on', 'y'));
    expect(chunks.map((c) => c.items.map(nameOf))).to.deep.equal([['p2'], ['p4']]);
    expect(chunks.map((c) => c.remainingItemCount)).to.deep.equal([undefined, undefined]);
    expect(chunks[1]).to.not.have.property('continue');
  });

  it('serves an Exact list, and a resourceVersion with a limit and no match, of a revision in its window from the cache', async () => {
    etcd.write('MODIFIED', obj('a', 'p1', 11));
    etcd.write('DELETED', obj('a', 'p2', 12));
    await synced(12);
    const exact = await list({ resourceVersion: '11', resourceVersionMatch: 'Exact' });
    expect(exact.resourceVersion).to.equal('11');
    expect(exact.items.map((o) => `${nameOf(o)}@${rvOf(o)}`)).to.deep.equal(['p1@11', 'p2@3', 'p3@4', 'p4@5', 'p5@6']);
    const legacy = await list({ resourceVersion: '10', limit: 4 });
    expect(legacy.items.map(rvOf)).to.deep.equal([2, 3, 4, 5]);
    expect(legacy.remainingItemCount).to.equal(1);
    const rest = await list({ limit: 4, continue: legacy.continue });
    expect(rest.items.map(nameOf)).to.deep.equal(['p5']);
    expect(etcd.served).to.deep.equal([]);
  });

  it('falls back to etcd for a revision older than its window, newer than the cache, or a token of the newest state', async () => {
    const old = { resourceVersion: '5', resourceVersionMatch: 'Exact' as const };
    expect((await list(old)).resourceVersion).to.equal('from-etcd');
    const future = { resourceVersion: '99', limit: 2 };
    expect((await list(future)).resourceVersion).to.equal('from-etcd');
    const newest = { limit: 2, continue: encodeContinue(`${ns}p2\x00`, ns, -1) };
    expect((await list(newest)).resourceVersion).to.equal('from-etcd');
    expect(etcd.served).to.have.length(3);
  });

  it('once etcd compacted a revision, drops its snapshot: the continue page is etcd\'s 410 with its inconsistent token', async () => {
    const first = await list({ resourceVersion: '0', limit: 2 });
    etcd.write('ADDED', obj('a', 'p6', 11));
    await synced(11);
    etcd.compactedBelow = 11;
    let caught: unknown;
    try {
      await list({ limit: 2, continue: first.continue });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(StorageError);
    expect((caught as StorageError).code).to.equal('Compacted');
    expect((caught as StorageError).info.continueToken).to.be.a('string');
    expect(etcd.served).to.have.length(1);
    // An Exact list of that revision is etcd's to answer too (its 410 in a real etcd).
    expect((await list({ resourceVersion: '10', resourceVersionMatch: 'Exact' })).resourceVersion).to.equal('from-etcd');
    expect(etcd.served).to.have.length(2);
    expect(etcd.probes).to.equal(2);
  });

  it('rejects a malformed continue token as etcd does, without asking etcd', async () => {
    let caught: unknown;
    try {
      await list({ limit: 1, continue: 'not a token' });
    } catch (err) {
      caught = err;
    }
    expect((caught as StorageError).code).to.equal('InvalidContinue');
    expect(etcd.served).to.deep.equal([]);
  });
});
