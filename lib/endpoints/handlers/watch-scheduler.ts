/**
 * Turns of the watch responses that have something to write (issue #17 item 3: fan-out to many
 * watchers must not starve request handling). An event dispatched to N watchers makes N
 * responses ready; they are served in rounds, and a round in turns, one per pass of the event
 * loop (started from its check phase with setImmediate), so the requests and etcd answers that
 * arrived meanwhile are handled between two turns. A turn writes for {@link DEFAULT_TURN_MS}, but
 * serves at least {@link MIN_TURN_SHARE} of the responses waiting when it starts, and every
 * response that has waited {@link MAX_WAIT_MS} or more: the fan-out keeps up however much other
 * work a pass of the loop carries (or however little CPU the process gets), so a client that
 * reads is not closed as too slow because the server did not write to it.
 *
 * A round serves the responses that were waiting when it started, each once; a response that
 * gets more to write meanwhile waits for the next round, which starts after a pause as long as the
 * round was busy writing (capped at {@link MAX_PAUSE_MS}). So the fan-out takes at most about
 * half of the loop's time, and under load each response writes the events that queued up for it
 * in one socket write instead of one write per event: a socket write costs 10–15 µs whatever its
 * size on these machines (TLS record and system call), an event in a larger write about 1.5 µs.
 * A response writes one bounded slice per turn and asks for another if it has more, so one
 * watcher's backlog does not hold up the others. Every response keeps its own events in order:
 * only it takes from its watcher, and it is queued at most once at a time.
 */
import { performance } from 'node:perf_hooks';

/** Writing time of one turn before the loop gets control back, ms. */
export const DEFAULT_TURN_MS = 1;
/** Smallest share of the waiting responses one turn serves, whatever the time it takes. */
export const MIN_TURN_SHARE = 1 / 4;
/** A response that has waited this long (ms) is served in the next turn, whatever the time it takes. */
export const MAX_WAIT_MS = 50;
/** Longest pause between two rounds, ms (a round busy for longer is followed by this pause). */
export const MAX_PAUSE_MS = 20;

/** A response served in turns. */
export interface Flushable {
  /** Set by the scheduler while the response waits for a turn. */
  queued: boolean;
  /** Writes what is ready (one slice); schedules itself again when more is left. */
  flush(): void;
}

/** Schedules flushes in rounds of time-bounded turns. */
export class FlushScheduler {
  /** The responses of the current round (from `head`), and when each was queued (the clock's ms). */
  private waiting: Flushable[] = [];
  private since: number[] = [];
  private head = 0;
  /** Responses queued for the next round, and when. */
  private next: Flushable[] = [];
  private nextSince: number[] = [];
  /** A turn or the start of a round is armed. */
  private armed = false;
  /** Time the current round has spent in its turns, ms. */
  private busy = 0;
  /** When the next round may start (the clock's ms). */
  private nextRoundAt = 0;

  /**
   * `turnMs`: the writing time of one turn; `now`: a clock in ms; `delay`: runs a function after
   * some ms (tests pass fake ones).
   */
  constructor(
    private readonly turnMs = DEFAULT_TURN_MS,
    private readonly now: () => number = () => performance.now(),
    private readonly delay: (fn: () => void, ms: number) => void = (fn, ms) => setTimeout(fn, ms),
  ) {}

  /** Number of responses waiting for a turn (this round's and the next). */
  get pending(): number {
    return this.waiting.length - this.head + this.next.length;
  }

  /** Queues `f` for the next round (no-op while it is queued already). */
  schedule(f: Flushable): void {
    if (f.queued) return;
    f.queued = true;
    this.next.push(f);
    this.nextSince.push(this.now());
    this.arm();
  }

  /** Arms the next turn, or the start of the next round once the current one is done and its pause is over. */
  private arm(): void {
    if (this.armed) return;
    if (this.head < this.waiting.length) {
      this.armed = true;
      setImmediate(this.turn);
      return;
    }
    if (this.next.length === 0) return;
    this.armed = true;
    const wait = this.nextRoundAt - this.now();
    if (wait < 0.5) setImmediate(this.startRound);
    else this.delay(this.startRound, Math.ceil(wait));
  }

  /** Starts a round with the responses queued for it. */
  private readonly startRound = (): void => {
    this.waiting = this.next;
    this.since = this.nextSince;
    this.head = 0;
    this.next = [];
    this.nextSince = [];
    this.busy = 0;
    this.turn();
  };

  /**
   * One turn: flushes the responses of the round, in order, until they are done or the turn's
   * time is up (checked after each flush: one flush is the unit of work), its minimum share is
   * served and no response left has waited {@link MAX_WAIT_MS}.
   */
  private readonly turn = (): void => {
    // Still armed while it runs: a response queued by a flush waits for the end of the turn.
    const start = this.now();
    const end = start + this.turnMs;
    const overdue = start - MAX_WAIT_MS;
    let n = this.waiting.length - this.head;
    let minimum = Math.ceil(n * MIN_TURN_SHARE);
    try {
      while (n-- > 0) {
        const f = this.waiting[this.head++]!;
        f.queued = false;
        f.flush();
        if (--minimum <= 0 && this.now() >= end && !(this.head < this.waiting.length && this.since[this.head]! <= overdue)) break;
      }
    } finally {
      const t = this.now();
      this.busy += t - start;
      if (this.head === this.waiting.length) {
        this.waiting = [];
        this.since = [];
        this.head = 0;
        this.nextRoundAt = t + Math.min(MAX_PAUSE_MS, this.busy);
      }
      this.armed = false;
      this.arm();
    }
  };
}

/** The scheduler of every watch response of this process. */
export const watchFlushes = new FlushScheduler();
