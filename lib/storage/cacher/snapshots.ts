/**
 * Snapshots of the watch cache's state by revision (upstream 1.33 `snapshotter`, feature
 * ListFromCacheSnapshot): the state a paged list was served from, kept so that its continue
 * pages, and lists with `resourceVersionMatch=Exact`, are served from memory at that revision
 * (spec 000 § Chunked list parameters, § Resource versions).
 *
 * Upstream keeps one snapshot per event of the cache's window. Here they are taken lazily: when a
 * paged list is served from the cache (its state now, O(1) with copy-on-write), or when a list
 * names a revision inside the event window (the state then is rebuilt by undoing the window's
 * later events). Memory stays bounded: a snapshot of revision R shares the cache's tree nodes
 * until they change (then it keeps the nodes changed since, O(B) entries each) and otherwise
 * only objects the event window already holds (the previous objects of the events after R);
 * snapshots older than the window are dropped with it, and at most `maxSnapshots` are kept per
 * resource (least recently used evicted first). Whether etcd still has the revision is
 * checked by the cacher before a snapshot is used (compaction must still end continue tokens).
 */
import type { StoredObject } from '../interface.js';
import { OrderedTree, type OrderedView } from './ordered-tree.js';

/** Default bound on the snapshots kept by one resource's cache. */
export const DEFAULT_MAX_SNAPSHOTS = 32;

/** Snapshots of one cache, by revision. */
export class Snapshots {
  /** In least-recently-used-first order (a use moves an entry to the end). */
  private readonly byRV = new Map<number, OrderedView>();

  constructor(private readonly maxSnapshots = DEFAULT_MAX_SNAPSHOTS) {}

  /** Number of snapshots held. */
  get size(): number {
    return this.byRV.size;
  }

  /** The snapshot of revision `rv`, marked as just used. */
  get(rv: number): OrderedView | undefined {
    const snap = this.byRV.get(rv);
    if (snap) {
      this.byRV.delete(rv);
      this.byRV.set(rv, snap);
    }
    return snap;
  }

  /** Keeps `snap` as the state at `rv`, evicting the least recently used beyond the bound. */
  put(rv: number, snap: OrderedView): void {
    this.byRV.delete(rv);
    this.byRV.set(rv, snap);
    while (this.byRV.size > this.maxSnapshots) this.byRV.delete(this.byRV.keys().next().value!);
  }

  /** Drops the snapshots of revisions below `rv` (the event window moved past them). */
  dropBefore(rv: number): void {
    for (const r of this.byRV.keys()) if (r < rv) this.byRV.delete(r);
  }

  /** Drops the snapshots of revisions up to and including `rv` (etcd compacted them). */
  dropThrough(rv: number): void {
    this.dropBefore(rv + 1);
  }

  /** Drops every snapshot. */
  clear(): void {
    this.byRV.clear();
  }
}

/** What `rewind` needs of one change after the target revision. */
export interface UndoableChange {
  key: string;
  /** The object before the change; undefined when the key did not exist. */
  prevObject?: StoredObject;
}

/**
 * The state before `changes` (in the order they were applied) given the state after them:
 * for each key, the object before its first change, or no object. The undo is applied to a
 * copy-on-write copy of `after` (which is left as it is): O(k · (log n + B)) for k changes.
 */
export function rewind(after: OrderedView, changes: readonly UndoableChange[]): OrderedView {
  const before = new Map<string, StoredObject | null>();
  for (const c of changes) if (!before.has(c.key)) before.set(c.key, c.prevObject ?? null);
  const tree = new OrderedTree(after);
  for (const [key, obj] of before) {
    if (obj) tree.set(key, obj);
    else tree.delete(key);
  }
  return tree.freeze();
}
