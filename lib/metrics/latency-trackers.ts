/**
 * Per-request latency trackers (upstream endpoints/request `LatencyTrackers`): the time a
 * request spent in admission webhooks and waiting in a priority-and-fairness queue, which
 * `apiserver_request_sli_duration_seconds` leaves out. Keyed by the request's context object, so
 * a tracker dies with its request.
 */

/** Accumulates tracked latencies per request. */
export class LatencyTrackers {
  private readonly byRequest = new WeakMap<object, number>();

  /** Adds `seconds` spent in a webhook or an APF queue to the request `ctx` (the request's context object). */
  add(ctx: object, seconds: number): void {
    this.byRequest.set(ctx, (this.byRequest.get(ctx) ?? 0) + seconds);
  }

  /** The seconds tracked for `ctx` (0 when none). */
  excluded(ctx: object): number {
    return this.byRequest.get(ctx) ?? 0;
  }
}
