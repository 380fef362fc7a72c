/**
 * How many seats a request occupies (upstream v1.30 `util/flowcontrol/request`, the list work
 * estimator): one for most requests; a LIST one per 100 objects it is expected to process, from
 * the resource's stored object count — all of them when served from the watch cache, limit plus
 * all with a selector, twice the limit otherwise — at least 1 and at most the level's maximum;
 * a WATCH one seat, or, with `sendInitialEvents=true`, as a list from the cache. A create,
 * update, patch or delete (upstream `mutating_work_estimator.go`) executes on one seat and then,
 * when at least 10 watchers may be interested in its event (watch-tracker.ts), holds
 * ceil(watchers / 10) seats — at most the level's maximum, the 5 ms per seat stretched to keep the
 * work — for that additional latency after it finished.
 */
import type { RequestInfo } from '../request/request-info.js';
import type { WatchCounts } from './watch-tracker.js';

/** Upstream's `objectsPerSeat`. */
export const OBJECTS_PER_SEAT = 100;
/** Upstream's `minimumSeats`. */
export const MINIMUM_SEATS = 1;
/** Upstream's `maximumSeatsLimit` (lists and mutating requests alike). */
export const MAXIMUM_SEATS_LIMIT = 10;
/** Upstream's `watchesPerSeat`. */
export const WATCHES_PER_SEAT = 10;
/** Upstream's `eventAdditionalDuration`, ms. */
export const EVENT_ADDITIONAL_DURATION_MS = 5;

/** The work of one request (upstream `WorkEstimate`). */
export interface WorkEstimate {
  /** Seats occupied while the request executes. */
  initialSeats: number;
  /** Seats occupied during the additional latency after it finished (0: none). */
  finalSeats: number;
  /** How long the final seats stay occupied after the request finished, ms; the client does not wait for it. */
  additionalLatencyMs: number;
}

/** The seats a request holds throughout (upstream `MaxSeats`): the larger of its initial and final seats. */
export function maxSeatsOfWork(w: WorkEstimate): number {
  return Math.max(w.initialSeats, w.finalSeats);
}

const MUTATING = new Set(['create', 'update', 'patch', 'delete']);

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

/** Where the watch count of a mutating request's estimate goes (upstream's `apiserver_flowcontrol_watch_count_samples`). */
export interface WatchCountSink {
  observe(count: number): void;
}

/** The estimate of most requests (shared: estimates are never mutated). */
const ONE_SEAT: WorkEstimate = Object.freeze({ initialSeats: MINIMUM_SEATS, finalSeats: 0, additionalLatencyMs: 0 });

/**
 * The work of one request (upstream `workEstimator.estimate`): a LIST or WATCH by
 * {@link estimateSeats}, a create/update/patch/delete by {@link estimateMutatingWork}, one seat
 * otherwise. The result is read-only (often shared).
 */
export function estimateWork(info: RequestInfo, query: URLSearchParams, counts: ObjectCounts, watches: WatchCounts, maxSeats: number, watchCounts?: WatchCountSink): WorkEstimate {
  if (info.isResourceRequest && MUTATING.has(info.verb)) return estimateMutatingWork(info, watches, maxSeats, watchCounts);
  const seats = estimateSeats(info, query, counts, maxSeats);
  return seats === MINIMUM_SEATS ? ONE_SEAT : { initialSeats: seats, finalSeats: 0, additionalLatencyMs: 0 };
}

/**
 * Upstream `mutatingWorkEstimator.estimate`: one initial seat; with W ≥ 10 interested watchers,
 * F = ceil(W / 10) final seats for 5 ms, reshaped when F exceeds `maxSeats` (the level's maximum,
 * at most 10) to `maxSeats` seats for F × 5 ms / maxSeats (whole nanoseconds, truncated). A
 * ServiceAccount token request produces no event and takes one seat only.
 */
export function estimateMutatingWork(info: RequestInfo, watches: WatchCounts, maxSeats: number, watchCounts?: WatchCountSink): WorkEstimate {
  if (info.resource === 'serviceaccounts' && info.subresource === 'token') return ONE_SEAT;
  const cap = maxSeats <= 0 || maxSeats > MAXIMUM_SEATS_LIMIT ? MAXIMUM_SEATS_LIMIT : maxSeats;
  const watchCount = watches.interested(info);
  watchCounts?.observe(watchCount);
  if (watchCount < WATCHES_PER_SEAT) return ONE_SEAT;
  const wanted = Math.ceil(watchCount / WATCHES_PER_SEAT);
  const finalSeats = Math.min(wanted, cap);
  const finalWorkNs = wanted * EVENT_ADDITIONAL_DURATION_MS * 1e6;
  return { initialSeats: 1, finalSeats, additionalLatencyMs: Math.trunc(finalWorkNs / finalSeats) / 1e6 };
}

/**
 * The seats of a LIST or WATCH (one for any other request). `query`: its URL query;
 * `maxSeats`: the level's maximum (concurrency.ts maxSeatsOf).
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
