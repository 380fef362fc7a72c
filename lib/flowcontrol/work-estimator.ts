/**
 * How many seats a request occupies (upstream v1.30 `util/flowcontrol/request`, the list work
 * estimator): one for most requests; a LIST one per 100 objects it is expected to process, from
 * the resource's stored object count — all of them when served from the watch cache, limit plus
 * all with a selector, twice the limit otherwise — at least 1 and at most the level's maximum;
 * a WATCH one seat, or, with `sendInitialEvents=true`, as a list from the cache. Mutating
 * requests take one seat (upstream's extra seats for watchers notified are not estimated).
 */
import type { RequestInfo } from '../request/request-info.js';

/** Upstream's `objectsPerSeat`. */
export const OBJECTS_PER_SEAT = 100;
/** Upstream's `minimumSeats`. */
export const MINIMUM_SEATS = 1;
/** Upstream's `maximumSeatsLimit`. */
export const MAXIMUM_SEATS_LIMIT = 10;

/**
 * The stored object count of each resource (upstream's object count tracker, fed by the
 * storage layer): keys are `<resource>` for the core group, `<resource>.<group>` otherwise.
 */
export class ObjectCounts {
  private readonly counts = new Map<string, number>();

  /** Records `count` objects of `resource` in `group` ('' for core). */
  set(group: string, resource: string, count: number): void {
    this.counts.set(group ? `${resource}.${group}` : resource, count);
  }

  /** The count of `resource` in `group`, undefined when unknown. */
  get(group: string, resource: string): number | undefined {
    return this.counts.get(group ? `${resource}.${group}` : resource);
  }
}

/** Go's strconv.ParseInt of a query value, undefined when not an integer. */
function queryInt(v: string | null): number | undefined {
  if (v === null || !/^[+-]?\d+$/.test(v)) return undefined;
  return Number(v);
}

/**
 * The seats of one request. `query`: its URL query; `maxSeats`: the level's maximum
 * (concurrency.ts maxSeatsOf).
 */
export function estimateSeats(info: RequestInfo, query: URLSearchParams, counts: ObjectCounts, maxSeats: number): number {
  if (!info.isResourceRequest || (info.verb !== 'list' && info.verb !== 'watch')) return MINIMUM_SEATS;
  if (info.verb === 'watch') {
    const initial = query.get('sendInitialEvents');
    if (initial === null || initial.toLowerCase() === 'false' || initial === '0') return MINIMUM_SEATS;
  }
  const limitText = query.get('limit');
  const limit = limitText === null ? 0 : queryInt(limitText);
  if (limit === undefined) return maxSeats;
  const stored = counts.get(info.apiGroup, info.resource);
  if (stored === undefined) return MINIMUM_SEATS;
  // Upstream's shouldListFromStorage (v1.30, ConsistentListFromCache off): a consistent read, a continue token, a paged list not at "0" or a match other than NotOlderThan go to etcd.
  const rv = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  const fromStorage = info.verb === 'list' && (rv === '' || !!query.get('continue') || (limit > 0 && rv !== '0') || (match !== '' && match !== 'NotOlderThan'));
  const bounded = limit > 0 && limit < stored ? limit : stored;
  let objects: number;
  if (!fromStorage) objects = stored;
  else if (query.get('fieldSelector') || query.get('labelSelector')) objects = stored + bounded;
  else objects = 2 * bounded;
  return Math.min(maxSeats, Math.max(MINIMUM_SEATS, Math.ceil(objects / OBJECTS_PER_SEAT)));
}
