/**
 * The cacher's watchers, held by scope (a key prefix ending in `/`, or one key) and — for a
 * resource with an index field (upstream's cacher trigger function: `spec.nodeName` for Pods;
 * issue #24 item 1) — by the value their field selector pins that field to. An event is offered
 * to the scope's unindexed watchers and to the indexed ones under the object's old and new value
 * only, so with one watcher per node the cost of an event does not grow with the number of nodes.
 */
import type { StoredObject } from '../interface.js';
import type { CacheWatcher } from './cache-watcher.js';
import type { CacheEvent } from './watch-cache.js';

/** The field watchers are indexed by, and how an object's value of it is read (a field-selector value). */
export interface IndexField {
  name: string;
  valueOf(obj: StoredObject): string;
}

/** The watchers of one cacher. */
export class WatcherIndex {
  private readonly unindexed = new Map<string, Set<CacheWatcher>>();
  /** scope → pinned value → watchers. */
  private readonly indexed = new Map<string, Map<string, Set<CacheWatcher>>>();
  private count = 0;

  constructor(private readonly field?: IndexField) {}

  /** Number of watchers. */
  get size(): number {
    return this.count;
  }

  /** The value `w` is indexed under, or undefined when it is held by scope only. */
  private valueOf(w: CacheWatcher): string | undefined {
    return this.field ? w.opts.predicate.matchesSingleField(this.field.name) : undefined;
  }

  /** Holds `w`. */
  add(w: CacheWatcher): void {
    const value = this.valueOf(w);
    let set: Set<CacheWatcher> | undefined;
    if (value === undefined) {
      set = this.unindexed.get(w.opts.scope);
      if (!set) this.unindexed.set(w.opts.scope, (set = new Set()));
    } else {
      let byValue = this.indexed.get(w.opts.scope);
      if (!byValue) this.indexed.set(w.opts.scope, (byValue = new Map()));
      set = byValue.get(value);
      if (!set) byValue.set(value, (set = new Set()));
    }
    set.add(w);
    this.count++;
  }

  /** Lets `w` go; false when it was not held. */
  delete(w: CacheWatcher): boolean {
    const scope = w.opts.scope;
    const value = this.valueOf(w);
    if (value === undefined) {
      const set = this.unindexed.get(scope);
      if (!set?.delete(w)) return false;
      if (set.size === 0) this.unindexed.delete(scope);
    } else {
      const byValue = this.indexed.get(scope);
      const set = byValue?.get(value);
      if (!set?.delete(w)) return false;
      if (set.size === 0) byValue!.delete(value);
      if (byValue!.size === 0) this.indexed.delete(scope);
    }
    this.count--;
    return true;
  }

  /** Every watcher (a copy: the callback may stop and so remove them). */
  all(): CacheWatcher[] {
    const out: CacheWatcher[] = [];
    for (const set of this.unindexed.values()) out.push(...set);
    for (const byValue of this.indexed.values()) for (const set of byValue.values()) out.push(...set);
    return out;
  }

  /**
   * Calls `visit` with each watcher `ev` may concern: those of each of `scopes` (the event key's
   * ancestors and the key itself) held unindexed, and those indexed under the value of the
   * object after and before the change.
   */
  forEvent(ev: CacheEvent, scopes: readonly string[], visit: (w: CacheWatcher) => void): void {
    let now: string | undefined;
    let before: string | undefined;
    for (const scope of scopes) {
      const set = this.unindexed.get(scope);
      if (set) for (const w of set) visit(w);
      const byValue = this.indexed.get(scope);
      if (!byValue) continue;
      if (now === undefined) {
        now = this.field!.valueOf(ev.object);
        before = ev.prevObject ? this.field!.valueOf(ev.prevObject) : now;
      }
      const a = byValue.get(now);
      if (a) for (const w of a) visit(w);
      if (before === now) continue;
      const b = byValue.get(before!);
      if (b) for (const w of b) visit(w);
    }
  }
}
