/**
 * The watch cache's index of its current objects by the kind's index field (upstream's cacher
 * indexers: `spec.nodeName` for Pods; issue #24 item 1): value → the keys of the objects holding
 * it. A list or a watch at `resourceVersion=0` (or a consistent one served by the cache) whose
 * field selector pins that field reads the few objects of that value instead of scanning every
 * object of the resource, so a kubelet's list of its Pods costs the same with 100 nodes as with
 * 5,000.
 */
import type { StoredObject } from '../interface.js';
import type { IndexField } from './watcher-index.js';

/** Keys of the current objects by their value of one field. */
export class FieldIndex {
  private byValue = new Map<string, Set<string>>();

  constructor(readonly field: IndexField) {}

  /** Rebuilds the index from every current `[key, object]`. */
  reset(entries: Iterable<[string, StoredObject]>): void {
    this.byValue = new Map();
    for (const [key, obj] of entries) this.add(this.field.valueOf(obj), key);
  }

  /** `key` changed from `prev` (absent: created) to `next` (absent: deleted). */
  update(key: string, prev: StoredObject | undefined, next: StoredObject | undefined): void {
    const before = prev && this.field.valueOf(prev);
    const after = next && this.field.valueOf(next);
    if (before === after) return;
    if (before !== undefined) {
      const keys = this.byValue.get(before);
      keys?.delete(key);
      if (keys?.size === 0) this.byValue.delete(before);
    }
    if (after !== undefined) this.add(after, key);
  }

  private add(value: string, key: string): void {
    let keys = this.byValue.get(value);
    if (!keys) this.byValue.set(value, (keys = new Set()));
    keys.add(key);
  }

  /**
   * The keys whose object holds `value`, under `prefix` (ending in `/`) or equal to it (one key),
   * in key order (JavaScript's string order, which the ordered store and the scans use too).
   */
  keys(value: string, prefix: string): string[] {
    const keys = this.byValue.get(value);
    if (!keys) return [];
    const scoped = prefix.endsWith('/') ? [...keys].filter((k) => k.startsWith(prefix)) : keys.has(prefix) ? [prefix] : [];
    return scoped.sort();
  }
}
