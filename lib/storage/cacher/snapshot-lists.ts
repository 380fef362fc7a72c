/**
 * Lists served from the watch cache (spec 000 § Resource versions, List semantics; § Chunked list
 * parameters), including the ones upstream 1.33 serves from its snapshottable cache
 * (`delegator.go` ShouldDelegateContinue / ShouldDelegateExactRV, feature ListFromCacheSnapshot):
 *
 * - a list of the cache's current state (resourceVersion `0`, NotOlderThan, or a consistent read
 *   once the cache has caught up, as the cacher decides): with a limit, its first page; the
 *   state it was read from is kept as a snapshot of that revision for the continue token;
 * - a continue page, served from the snapshot of the token's revision: the same resourceVersion
 *   on every page, `remainingItemCount` counting the keys after the page when nothing is
 *   filtered (as etcd does), the token format of `lib/storage/continue.ts`;
 * - an Exact list (`resourceVersionMatch=Exact`, or a resourceVersion with a limit and no match),
 *   served from the snapshot of that revision (kept, or rebuilt from the event window).
 *
 * A page costs O(log n + the keys it scans): the snapshot is an ordered tree, the start key is
 * found by a descent and `remainingItemCount` counted from its subtree sizes. Before a snapshot of
 * a past revision is used, etcd is asked whether it still has that revision: once etcd compacted
 * it, the cache drops the snapshot and the request goes to etcd, which answers 410 Expired (with
 * its inconsistent-continue token) exactly as before. When the cache has no snapshot (too old
 * for its window, newer than the cache, or a token of the newest state, rv -1) the request goes
 * to etcd as well, so nothing is served worse than before.
 */
import type { CacherMetrics } from '../../metrics/watch-cache.js';
import { decodeContinue, encodeContinue } from '../continue.js';
import { isStorageError } from '../errors.js';
import { parseResourceVersion } from '../etcd3/store.js';
import { EVERYTHING, type ListOptions, type ListResult, type SelectionPredicate, type StorageInterface, type StoredObject } from '../interface.js';
import { type Cursor, keyRange, type OrderedView } from './ordered-store.js';
import type { WatchCache } from './watch-cache.js';

/** What a SnapshotLister serves from and falls back to. */
export interface SnapshotListerConfig {
  cache: WatchCache;
  /** The storage the cache is fed from (etcd); asked whether a past revision is still readable. */
  delegate: StorageInterface;
  /** Key prefix of the resource (ending in `/`). */
  prefix: string;
  metrics?: CacherMetrics;
}

/** Serves lists and list pages from one resource's watch cache and its snapshots. */
export class SnapshotLister {
  /** A key range of the resource that holds no object (no name or namespace starts with NUL). */
  private readonly emptyRange: string;

  constructor(private readonly cfg: SnapshotListerConfig) {
    this.emptyRange = `${cfg.prefix}\x00/`;
  }

  /**
   * Lists `prefix` (a prefix ending in `/`, or one key) from the cache's current state at the
   * cache's revision. With a limit and more to come, the state is kept as the snapshot its
   * continue token is served from. Synchronous: the state cannot change while it runs.
   */
  listCurrent(prefix: string, opts: ListOptions): ListResult {
    const cache = this.cfg.cache;
    const rv = cache.resourceVersion;
    const field = cache.indexField;
    const value = field && opts.predicate.matchesSingleField(field.name);
    const indexed = value === undefined ? undefined : cache.indexedSnapshot(value, prefix);
    const result = indexed ? this.indexedPage(indexed, rv, prefix, opts) : this.page(cache.view(), rv, prefix, prefix, opts);
    if (result.continue) cache.snapshotAt(rv);
    return result;
  }

  /**
   * The first page of a list whose field selector pins the cache's index field (issue #24 item
   * 1): `entries` are the objects of that value, from the index, in key order; the page, its
   * continue token and the later pages (served from the snapshot by `page`) are those a scan of
   * every object would give.
   */
  private indexedPage(entries: [string, StoredObject][], rv: number, prefix: string, opts: ListOptions): ListResult {
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const pred = opts.predicate;
    const items: StoredObject[] = [];
    let lastKey = '';
    let i = 0;
    for (; i < entries.length; i++) {
      if (limit > 0 && items.length === limit) break;
      const [key, obj] = entries[i]!;
      if (pred.matches(obj)) {
        items.push(obj);
        lastKey = key;
      }
    }
    this.cfg.metrics?.listed(i, items.length);
    const result: ListResult = { items, resourceVersion: String(rv) };
    if (entries.slice(i).some(([, obj]) => pred.matches(obj))) result.continue = encodeContinue(`${lastKey}\x00`, prefix, rv);
    return result;
  }

  /**
   * A continue page (`opts.continue`) or an Exact list (`opts.resourceVersion`) from the snapshot
   * of its revision; null when the cache cannot serve it and the caller must ask etcd.
   * Throws StorageError InvalidContinue / InvalidResourceVersion for a malformed token or
   * revision (as etcd would), and whatever the storage throws when asked about the revision.
   */
  async listExact(prefix: string, opts: ListOptions): Promise<ListResult | null> {
    let rv: number;
    let start = prefix;
    if (opts.continue) {
      const token = decodeContinue(opts.continue, prefix);
      // rv -1: continue at the newest state (after a compaction); etcd serves those.
      if (token.rv < 0) return null;
      rv = token.rv;
      start = token.startKey;
    } else {
      rv = parseResourceVersion(opts.resourceVersion);
    }
    const snap = this.cfg.cache.snapshotAt(rv);
    if (!snap) return null;
    if (!(await this.etcdHas(rv))) {
      this.cfg.cache.dropSnapshotsThrough(rv);
      return null;
    }
    return this.page(snap, rv, prefix, start, opts);
  }

  /**
   * Whether etcd can still read revision `rv`, i.e. has not compacted it: a read of an empty key
   * range at `rv` (O(1) in etcd, nothing decoded). A compaction is the one thing that ends a
   * revision's lists in etcd, so a snapshot is used only while etcd could serve the same list.
   */
  private async etcdHas(rv: number): Promise<boolean> {
    try {
      await this.cfg.delegate.getList(this.emptyRange, { predicate: EVERYTHING, resourceVersion: String(rv), resourceVersionMatch: 'Exact', limit: 1 });
      return true;
    } catch (err) {
      if (isStorageError(err, 'Compacted')) return false;
      throw err;
    }
  }

  /** One page of `prefix` from `view` at revision `rv`, starting at the first key ≥ `start`. */
  private page(view: OrderedView, rv: number, prefix: string, start: string, opts: ListOptions): ListResult {
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const pred = opts.predicate;
    const [first, end] = keyRange(prefix);
    const at = view.scan(start > first ? start : first, end);
    const items: StoredObject[] = [];
    let lastKey = '';
    let scanned = 0;
    for (; at.key !== undefined; at.next()) {
      if (limit > 0 && items.length === limit) break;
      scanned++;
      const obj = at.value!;
      if (pred.matches(obj)) {
        items.push(obj);
        lastKey = at.key;
      }
    }
    this.cfg.metrics?.listed(scanned, items.length);
    const result: ListResult = { items, resourceVersion: String(rv) };
    // The loop stops before the range's end only at the limit; a continue token is handed out
    // when a later object would be returned (with a selector, the first later match is looked for).
    const next = at.key;
    if (next !== undefined && (pred.empty() || anyMatch(at, pred))) {
      result.continue = encodeContinue(`${lastKey}\x00`, prefix, rv);
      if (pred.empty()) result.remainingItemCount = view.count(next, end);
    }
    return result;
  }
}

/** Whether an object from `at` to the end of its range matches (moves the cursor). */
function anyMatch(at: Cursor, pred: SelectionPredicate): boolean {
  for (; at.key !== undefined; at.next()) if (pred.matches(at.value!)) return true;
  return false;
}
