/**
 * What one DELETE does to an object's deletion state, decided on the object's current metadata
 * (upstream `rest.BeforeDelete` and the store's `markAsDeleting`; spec 000 § Object deletion
 * lifecycle). The store applies the plan inside its read-decide-write loop.
 */
import { formatTime } from '../../apimachinery/schema/decode.js';

/** The deletion fields of an object's metadata that decide a DELETE. */
export interface DeletionMeta {
  /** RFC 3339, second precision; set once a deletion has begun. */
  deletionTimestamp?: string;
  /** Seconds; 0 or absent once the object waits only for its finalizers. */
  deletionGracePeriodSeconds?: number;
}

/**
 * The outcome of a DELETE for one state of the object:
 * - `pending`: a graceful deletion is under way and the request does not shorten it; nothing
 *   changes (not even the finalizers, whatever the DeleteOptions say).
 * - otherwise the object gets these deletion fields; `immediate` says it is removed at once when
 *   no finalizer is left (no grace period to wait for), else it is kept, terminating.
 *   `graceful` says the kind's graceful deletion decided them (upstream BeforeDelete's
 *   `graceful`): the store then writes them even when the object goes at once, so that watchers
 *   see the object terminating (MODIFIED) before it is gone (DELETED), as upstream's do.
 */
export type DeletionPlan =
  | { pending: true }
  | { pending: false; deletionTimestamp: string; deletionGracePeriodSeconds: number; immediate: boolean; graceful: boolean };

const PENDING: DeletionPlan = { pending: true };

/**
 * Plans a DELETE of an object whose metadata is `meta`.
 *
 * - Not yet terminating: `graceOf()` is the kind's grace period for this deletion in seconds
 *   (the strategy's `checkGracefulDelete`), or undefined when the kind does not delete
 *   gracefully. A grace period G sets `deletionTimestamp` to now + G and
 *   `deletionGracePeriodSeconds` to G; none (or 0) marks the object as deleting now. Graceful
 *   whenever `graceOf()` gives a period, 0 included.
 * - Terminating with a grace period P > 0: only a shorter `requested` period changes anything.
 *   It moves `deletionTimestamp` back by P − requested, never before now; a grace period cut
 *   short by the clock becomes 1 s (the node agent still completes the deletion), 0 stays 0.
 *   Graceful.
 * - Terminating with no grace period (waiting for finalizers): marked as deleting now again,
 *   `deletionTimestamp` kept unless it lies in the future. Not graceful.
 *
 * `requested` is DeleteOptions.gracePeriodSeconds (seconds), `nowMs` the clock (ms since the
 * epoch). Pure; throws nothing.
 */
export function planDeletion(meta: DeletionMeta, requested: number | undefined, graceOf: () => number | undefined, nowMs: number): DeletionPlan {
  if (meta.deletionTimestamp === undefined) {
    const grace = graceOf();
    if (grace === undefined || grace === 0) return markedNow(meta, nowMs, grace !== undefined);
    return { pending: false, deletionTimestamp: formatTime(new Date(nowMs + grace * 1000)), deletionGracePeriodSeconds: grace, immediate: false, graceful: true };
  }
  const pendingGrace = meta.deletionGracePeriodSeconds ?? 0;
  if (pendingGrace === 0) return markedNow(meta, nowMs, false);
  if (requested === undefined || requested >= pendingGrace) return PENDING;
  let at = Date.parse(meta.deletionTimestamp) - (pendingGrace - requested) * 1000;
  let period = requested;
  if (at < nowMs) {
    at = nowMs;
    if (period !== 0) period = 1;
  }
  return { pending: false, deletionTimestamp: formatTime(new Date(at)), deletionGracePeriodSeconds: period, immediate: requested === 0, graceful: true };
}

/** Deleting now: grace 0, the timestamp kept unless absent or in the future (upstream `markAsDeleting`). */
function markedNow(meta: DeletionMeta, nowMs: number, graceful: boolean): DeletionPlan {
  const existing = meta.deletionTimestamp;
  const keep = existing !== undefined && !(Date.parse(existing) > nowMs);
  return { pending: false, deletionTimestamp: keep ? existing : formatTime(new Date(nowMs)), deletionGracePeriodSeconds: 0, immediate: true, graceful };
}
