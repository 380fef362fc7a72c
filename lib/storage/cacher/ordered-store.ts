/**
 * The watch cache's current objects by key, kept in key order (etcd's byte order, as a range read
 * returns them) with O(1) immutable snapshots: the ordered structure behind the cache's lists and
 * the continue pages served from a snapshot (upstream 1.33 `store_btree.go` + `snapshotter`, where
 * a copy-on-write B-tree plays this part).
 *
 * Layout: a Map for point reads, and a copy-on-write B+tree (ordered-tree.ts) for ordered reads,
 * built at the first ordered read. Inserts and deletes cost O(log n + B) (issue #17 item 1);
 * `snapshot()` is O(1) and the first change after it copies only the tree nodes it touches
 * (O(B · log_B n)), however many lists hold snapshots (issue #17 item 2).
 */
import type { StoredObject } from '../interface.js';
import { DEFAULT_NODE_SIZE, OrderedTree, type OrderedView } from './ordered-tree.js';

export { Cursor, OrderedView } from './ordered-tree.js';

/** Current objects: point reads by key, ordered reads, snapshots. */
export class OrderedStore {
  private byKey = new Map<string, StoredObject>();
  /**
   * The ordered tree, built at the first ordered read and kept in order from then on; absent
   * while nothing reads in order, so a cache that only serves gets and watches pays a Map write
   * per change and nothing more.
   */
  private tree: OrderedTree | null = null;

  /** @param nodeSize the B+tree's node size (entries per node, ≥ 4); small only in tests. */
  constructor(private readonly nodeSize = DEFAULT_NODE_SIZE) {}

  /** Number of objects. */
  get size(): number {
    return this.byKey.size;
  }

  /** The object at `key`. */
  get(key: string): StoredObject | undefined {
    return this.byKey.get(key);
  }

  /** Every `[key, object]` pair (insertion order of the map; callers needing key order use `view()`). */
  entries(): IterableIterator<[string, StoredObject]> {
    return this.byKey.entries();
  }

  /** Replaces the whole content with `entries` (any order; the map is adopted, not copied). */
  reset(entries: Map<string, StoredObject>): void {
    this.byKey = entries;
    this.tree = null;
  }

  /** Sets `key` to `obj` (insert or replace). */
  set(key: string, obj: StoredObject): void {
    this.byKey.set(key, obj);
    this.tree?.set(key, obj);
  }

  /** Removes `key` (no-op when absent). */
  delete(key: string): void {
    if (this.byKey.delete(key)) this.tree?.delete(key);
  }

  /** An immutable view of the current state, valid for as long as it is held (copy-on-write, O(1)). */
  snapshot(): OrderedView {
    return this.ordered().freeze();
  }

  /** The live tree, for a read that finishes before the next change (no copy is ever forced). */
  view(): OrderedView {
    return this.ordered().view();
  }

  /** The ordered tree, built from the map when absent (O(n log n), once). */
  private ordered(): OrderedTree {
    if (this.tree) return this.tree;
    const keys = [...this.byKey.keys()];
    if (!isSorted(keys)) keys.sort(compareKeys);
    this.tree = OrderedTree.fromSorted(
      keys,
      keys.map((k) => this.byKey.get(k)!),
      this.nodeSize,
    );
    return this.tree;
  }
}

/** Byte-order comparison of keys (etcd orders keys by bytes). */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/**
 * The key range `[from, to)` holding the keys under `prefix` (a prefix ends in `/`) or, for a
 * single key, that key alone: the bounds to pass to `OrderedView.scan` and `count`.
 */
export function keyRange(prefix: string): [from: string, to: string] {
  // A key is followed by key + NUL, the smallest string above it.
  if (!prefix.endsWith('/')) return [prefix, `${prefix}\x00`];
  // Every key k with prefix ≤ k < (prefix with its last character incremented) starts with prefix.
  return [prefix, prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)];
}
