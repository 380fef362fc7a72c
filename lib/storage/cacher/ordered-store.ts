/**
 * The watch cache's current objects by key, kept in key order (etcd's byte order, as a range read
 * returns them) with O(1) immutable snapshots: the ordered structure behind the cache's lists and
 * the continue pages served from a snapshot (upstream 1.33 `store_btree.go` + `snapshotter`, where
 * a copy-on-write B-tree plays this part).
 *
 * Layout: a Map for point reads, and two parallel sorted arrays (keys, objects) for ordered
 * reads, built at the first ordered read. `snapshot()` hands out the arrays themselves and marks them shared; the next change
 * copies them before writing (copy-on-write), so a snapshot costs nothing until the cache
 * changes, then one copy of n pointers, however many lists use it. Inserts and deletes move
 * array elements (O(n) memmove, as the cache's sorted key array did before); replacing an
 * existing object is O(log n).
 */
import type { StoredObject } from '../interface.js';

/** An immutable view of the objects in key order (a snapshot, or the live arrays during one synchronous read). */
export interface OrderedView {
  readonly keys: readonly string[];
  readonly values: readonly StoredObject[];
}

/** Current objects: point reads by key, ordered reads, snapshots. */
export class OrderedStore {
  private byKey = new Map<string, StoredObject>();
  /**
   * The sorted arrays, built at the first ordered read and kept in order from then on; absent
   * while nothing reads in order, so a cache that only serves gets and watches pays no O(n)
   * insert or delete.
   */
  private ordered: { keys: string[]; values: StoredObject[] } | null = null;
  /** The arrays are referenced by a snapshot: copy before the next write. */
  private shared = false;

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
    this.ordered = null;
    this.shared = false;
  }

  /** Sets `key` to `obj` (insert or replace). */
  set(key: string, obj: StoredObject): void {
    const had = this.byKey.has(key);
    this.byKey.set(key, obj);
    const o = this.writable();
    if (!o) return;
    const i = lowerBound(o.keys, key);
    if (had) {
      o.values[i] = obj;
      return;
    }
    o.keys.splice(i, 0, key);
    o.values.splice(i, 0, obj);
  }

  /** Removes `key` (no-op when absent). */
  delete(key: string): void {
    if (!this.byKey.delete(key)) return;
    const o = this.writable();
    if (!o) return;
    const i = lowerBound(o.keys, key);
    o.keys.splice(i, 1);
    o.values.splice(i, 1);
  }

  /** An immutable view of the current state, valid for as long as it is held (copy-on-write). */
  snapshot(): OrderedView {
    const o = this.sorted();
    this.shared = true;
    return { keys: o.keys, values: o.values };
  }

  /** The live arrays, for a read that finishes before the next change (no copy is ever forced). */
  view(): OrderedView {
    const o = this.sorted();
    return { keys: o.keys, values: o.values };
  }

  /** The sorted arrays, built from the map when absent (O(n log n), once). */
  private sorted(): { keys: string[]; values: StoredObject[] } {
    if (this.ordered) return this.ordered;
    const keys = [...this.byKey.keys()];
    if (!isSorted(keys)) keys.sort(compareKeys);
    this.ordered = { keys, values: keys.map((k) => this.byKey.get(k)!) };
    this.shared = false;
    return this.ordered;
  }

  /** The sorted arrays to change in place (copied first when a snapshot holds them); null while none are kept. */
  private writable(): { keys: string[]; values: StoredObject[] } | null {
    const o = this.ordered;
    if (!o || !this.shared) return o;
    this.ordered = { keys: o.keys.slice(), values: o.values.slice() };
    this.shared = false;
    return this.ordered;
  }
}

/** Byte-order comparison of keys (etcd orders keys by bytes). */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/** Index of the first key ≥ `key` in the sorted `keys`. */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The index range `[start, end)` of `view` holding the keys under `prefix` (a prefix ends in
 * `/`) or, for a single key, that key. O(log n).
 */
export function rangeOf(view: OrderedView, prefix: string): [number, number] {
  const start = lowerBound(view.keys, prefix);
  if (!prefix.endsWith('/')) return [start, view.keys[start] === prefix ? start + 1 : start];
  // Every key k with prefix ≤ k < (prefix with its last character incremented) starts with prefix.
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return [start, lowerBound(view.keys, end)];
}
