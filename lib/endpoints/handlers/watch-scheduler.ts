/**
 * Turns of the watch responses that have something to write (issue #17 item 3: fan-out to many
 * watchers must not starve request handling). An event dispatched to N watchers makes N
 * responses ready; they are served in turns, one per pass of the event loop (started from its
 * check phase with setImmediate), so the requests and etcd answers that arrived meanwhile are
 * handled between two turns. A turn writes for {@link DEFAULT_TURN_MS}, but serves at least
 * {@link MIN_TURN_SHARE} of the responses waiting when it starts, and every response that has
 * waited {@link MAX_WAIT_MS} or more: the fan-out keeps up however much other work a pass of the
 * loop carries (or however little CPU the process gets), so a client that reads is not closed as
 * too slow because the server did not write to it. A
 * response writes one bounded slice per turn and asks for another if it has more (behind the
 * responses already waiting), so one watcher's backlog does not hold up the others. Every
 * response keeps its own events in order: only it takes from its watcher, and it is queued at
 * most once at a time.
 */
import { performance } from 'node:perf_hooks';

/** Writing time of one turn before the loop gets control back, ms. */
export const DEFAULT_TURN_MS = 1;
/** Smallest share of the waiting responses one turn serves, whatever the time it takes. */
export const MIN_TURN_SHARE = 1 / 4;
/** A response that has waited this long (ms) is served in the next turn, whatever the time it takes. */
export const MAX_WAIT_MS = 50;

/** A response served in turns. */
export interface Flushable {
  /** Set by the scheduler while the response waits for a turn. */
  queued: boolean;
  /** Writes what is ready (one slice); schedules itself again when more is left. */
  flush(): void;
}

/** Schedules flushes in time-bounded turns. */
export class FlushScheduler {
  private waiting: Flushable[] = [];
  /** When each waiting response was queued (the clock's ms), aligned with `waiting`. */
  private since: number[] = [];
  private head = 0;
  private armed = false;

  /** `turnMs`: the writing time of one turn; `now`: a clock in ms (tests pass a fake one). */
  constructor(
    private readonly turnMs = DEFAULT_TURN_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Number of responses waiting for a turn. */
  get pending(): number {
    return this.waiting.length - this.head;
  }

  /** Queues `f` for a turn (no-op while it is queued already). */
  schedule(f: Flushable): void {
    if (f.queued) return;
    f.queued = true;
    this.waiting.push(f);
    this.since.push(this.now());
    if (!this.armed) {
      this.armed = true;
      setImmediate(this.turn);
    }
  }

  /**
   * One turn: flushes the responses queued before it started, in order, until they are done or
   * the turn's time is up (checked after each flush: one flush is the unit of work), its minimum
   * share is served and no response left has waited {@link MAX_WAIT_MS}.
   */
  private readonly turn = (): void => {
    this.armed = false;
    const start = this.now();
    const end = start + this.turnMs;
    const overdue = start - MAX_WAIT_MS;
    let n = this.pending;
    let minimum = Math.ceil(n * MIN_TURN_SHARE);
    try {
      while (n-- > 0) {
        const f = this.waiting[this.head++]!;
        f.queued = false;
        f.flush();
        if (--minimum <= 0 && this.now() >= end && !(this.head < this.waiting.length && this.since[this.head]! <= overdue)) break;
      }
    } finally {
      this.compactAndRearm();
    }
  };

  private compactAndRearm(): void {
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.since = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.since = this.since.slice(this.head);
      this.head = 0;
    }
    if (this.pending > 0 && !this.armed) {
      this.armed = true;
      setImmediate(this.turn);
    }
  }
}

/** The scheduler of every watch response of this process. */
export const watchFlushes = new FlushScheduler();
