/**
 * The watch cache's ordered store (issue #17 items 1 and 2, issue #24's 150,000-Pod caches):
 * nanoseconds per insert of a random key once the store is ordered (after a first list), per
 * insert right after a snapshot (a paged list was served from the cache just before), and
 * microseconds per page of 500 served from a snapshot after a seek to a random continue key
 * (`SnapshotLister`, as a continue request is served). Pure in-process, no etcd; figures are
 * printed, never asserted. Run: `npx tsx hack/bench/ordered-store.ts`.
 */
import { OrderedStore } from '../../lib/storage/cacher/ordered-store.js';
import { SnapshotLister } from '../../lib/storage/cacher/snapshot-lists.js';
import { WatchCache } from '../../lib/storage/cacher/watch-cache.js';
import { encodeContinue } from '../../lib/storage/continue.js';
import { EVERYTHING, type ListResult, type StorageInterface, type StoredObject } from '../../lib/storage/interface.js';
import { printTable } from './stats.js';
import { seededRandom } from '../../test/framework/fuzz.js';

const SIZES = [10_000, 40_000, 150_000];
const PREFIX = '/registry/pods/';
const PAGE = 500;


/** `count` random Pod keys over 100 namespaces. */
function randomKeys(count: number, rand: () => number): string[] {
  return Array.from({ length: count }, () => `${PREFIX}ns-${Math.floor(rand() * 100)}/pod-${Math.floor(rand() * 1e12).toString(36)}`);
}

const objectOf = (key: string): StoredObject => ({ metadata: { name: key.slice(key.lastIndexOf('/') + 1), resourceVersion: '1' } });

/** An ordered store of `n` random keys (ordered by a first read, as a first list does). */
function storeOf(keys: string[]): OrderedStore {
  const s = new OrderedStore();
  s.reset(new Map(keys.map((k) => [k, objectOf(k)])));
  s.view();
  return s;
}

/** ns per insert of fresh random keys into a store of `n` keys; each batch is deleted again (untimed). */
function insertNs(s: OrderedStore, rand: () => number, afterSnapshot: boolean, n: number): number {
  const batch = afterSnapshot ? Math.max(20, Math.floor(2e8 / (n * 20))) : Math.floor(n / 20);
  const samples: number[] = [];
  for (let round = 0; round < 7; round++) {
    const keys = randomKeys(batch, rand);
    const objs = keys.map(objectOf);
    const t = process.hrtime.bigint();
    if (afterSnapshot) {
      for (let i = 0; i < keys.length; i++) {
        s.snapshot();
        s.set(keys[i]!, objs[i]!);
      }
    } else {
      for (let i = 0; i < keys.length; i++) s.set(keys[i]!, objs[i]!);
    }
    samples.push(Number(process.hrtime.bigint() - t) / keys.length);
    for (const k of keys) s.delete(k);
  }
  return median(samples);
}

/** µs per page of 500 served by a SnapshotLister from a snapshot, starting at a random key. */
async function pageUs(keys: string[], rand: () => number): Promise<number> {
  const cache = new WatchCache();
  const rv = 100;
  const items = keys.map((k, i) => ({ metadata: { name: k, uid: String(i), resourceVersion: '1' } }));
  cache.replace(items, rv, (o) => keys[Number(o.metadata!.uid)]!);
  const probe = async (): Promise<ListResult> => ({ items: [], resourceVersion: String(rv) });
  const lister = new SnapshotLister({ cache, delegate: { getList: probe } as unknown as StorageInterface, prefix: PREFIX });
  const sorted = [...keys].sort();
  const samples: number[] = [];
  // The first rounds warm the code up; the median of the rest is reported.
  for (let round = 0; round < 9; round++) {
    const t = process.hrtime.bigint();
    const pages = 300;
    for (let i = 0; i < pages; i++) {
      const start = sorted[Math.floor(rand() * (sorted.length - PAGE))]!;
      const res = await lister.listExact(PREFIX, { predicate: EVERYTHING, limit: PAGE, continue: encodeContinue(start, PREFIX, rv) });
      if (res?.items.length !== PAGE) throw new Error('page not served from the cache');
    }
    if (round >= 2) samples.push(Number(process.hrtime.bigint() - t) / pages / 1000);
  }
  return median(samples);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

async function main(): Promise<void> {
  const rows: (string | number)[][] = [];
  for (const n of SIZES) {
    const rand = seededRandom(n);
    const keys = randomKeys(n, rand);
    const s = storeOf(keys);
    const insert = insertNs(s, rand, false, n);
    const afterSnapshot = insertNs(s, rand, true, n);
    rows.push([String(n), Math.round(insert), Math.round(afterSnapshot), await pageUs(keys, rand)]);
  }
  printTable(['n (keys)', 'insert ns', 'insert after snapshot ns', `page of ${PAGE} after seek µs`], rows);
}

await main();
