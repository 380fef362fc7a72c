/**
 * The watches registered in this server, for the mutating work estimator (upstream v1.30
 * `util/flowcontrol/watch_tracker.go`): the APF filter registers every watch it lets execute and
 * forgets it when the watch's response closes. Watches count by (group, resource, namespace,
 * name); selectors are ignored — except that a pods watch selecting one `spec.nodeName`
 * (upstream's one watch-cache index) is not counted, as it sees only its node's pods.
 */
import { parseFieldSelector } from '../apimachinery/fields/selector.js';
import type { RequestInfo } from '../request/request-info.js';

/** Upstream's `readOnlyVerbs`: requests that produce no watch event. */
const READ_ONLY_VERBS = new Set(['get', 'list', 'watch', 'proxy']);
/** Upstream `getBuiltinIndexes`: resource → the field its watch-cache index is built on. */
const INDEXES: ReadonlyMap<string, string> = new Map([['pods', 'spec.nodeName']]);

const keyOf = (group: string, resource: string, namespace: string, name: string) => `${group}\u0000${resource}\u0000${namespace}\u0000${name}`;

/** Whether a watch of an indexed resource selects one non-empty value of the index field (then it is not counted). */
function selectsIndexValue(query: URLSearchParams, field: string): boolean {
  const text = query.get('fieldSelector');
  if (!text) return false;
  try {
    return !!parseFieldSelector(text).requiresExactMatch(field);
  } catch {
    // Upstream: options that do not decode leave the index value unset.
    return false;
  }
}

/** Counts of registered watches (upstream `WatchTracker`). */
export class WatchCounts {
  private readonly counts = new Map<string, number>();

  /**
   * Registers a watch request (`info.verb` 'watch'; anything else is ignored and gives
   * undefined). Returns the function that forgets it (idempotent).
   */
  register(info: RequestInfo, query: URLSearchParams): (() => void) | undefined {
    if (info.verb !== 'watch') return undefined;
    const field = INDEXES.get(info.resource);
    if (field !== undefined && selectsIndexValue(query, field)) return () => undefined;
    const key = keyOf(info.apiGroup, info.resource, info.namespace, info.name);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const n = this.counts.get(key)! - 1;
      if (n === 0) this.counts.delete(key);
      else this.counts.set(key, n);
    };
  }

  /**
   * The watches possibly interested in a request's event (upstream `GetInterestedWatchCount`):
   * 0 for a read-only verb; else those of the whole resource, plus those of its namespace, plus
   * those of the named object.
   */
  interested(info: RequestInfo): number {
    if (READ_ONLY_VERBS.has(info.verb)) return 0;
    let n = this.counts.get(keyOf(info.apiGroup, info.resource, '', '')) ?? 0;
    if (info.namespace !== '') n += this.counts.get(keyOf(info.apiGroup, info.resource, info.namespace, '')) ?? 0;
    if (info.name !== '') n += this.counts.get(keyOf(info.apiGroup, info.resource, info.namespace, info.name)) ?? 0;
    return n;
  }
}
