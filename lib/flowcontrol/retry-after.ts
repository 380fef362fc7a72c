/**
 * The `Retry-After` of rejected requests (upstream v1.30 `util/flowcontrol/dropped_requests_tracker.go`):
 * per priority level, starting at 1 second; when a new second sees rejections, the rejections of
 * the previous `retryAfter` seconds are counted: at least 3 × retryAfter doubles it (at most 32,
 * and not again within retryAfter seconds of the last raise), fewer than retryAfter lowers it by one.
 */

/** Upstream's `maxRetryAfter` (seconds). */
export const MAX_RETRY_AFTER = 32;

class LevelStats {
  /** Rejections per past second (unix seconds), oldest first. */
  private history: Array<{ unix: number; count: number }> = [];
  private currentUnix = 0;
  private currentCount = 0;
  retryAfter = 1;
  private raisedAt = 0;

  record(unix: number): void {
    if (unix === this.currentUnix) {
      this.currentCount++;
      return;
    }
    this.history.push({ unix: this.currentUnix, count: this.currentCount });
    const keep = Math.min(2 * this.retryAfter, MAX_RETRY_AFTER);
    this.history = this.history.filter((h) => this.currentUnix - h.unix <= keep);
    this.currentUnix = unix;
    this.currentCount = 1;
    this.update(unix);
  }

  private update(unix: number): void {
    let dropped = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const h = this.history[i]!;
      if (unix - h.unix > this.retryAfter) break;
      if (h.unix < unix) dropped += h.count;
    }
    if (unix - this.raisedAt >= this.retryAfter && dropped >= 3 * this.retryAfter) {
      this.retryAfter = Math.min(2 * this.retryAfter, MAX_RETRY_AFTER);
      this.raisedAt = unix;
    } else if (dropped < this.retryAfter && this.retryAfter > 1) {
      this.retryAfter--;
    }
  }
}

/** Tracks rejections per priority level and suggests the Retry-After (seconds). */
export class DroppedRequests {
  private readonly levels = new Map<string, LevelStats>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  /** Notes one rejected request of `level`. */
  record(level: string): void {
    let s = this.levels.get(level);
    if (!s) this.levels.set(level, (s = new LevelStats()));
    s.record(Math.floor(this.nowMs() / 1000));
  }

  /** The current Retry-After of `level`, in seconds (1 before any rejection). */
  retryAfter(level: string): number {
    return this.levels.get(level)?.retryAfter ?? 1;
  }
}
