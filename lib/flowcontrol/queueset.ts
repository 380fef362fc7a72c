/**
 * Fair queuing of one priority level (upstream v1.30 `util/flowcontrol/fairqueuing/queueset`,
 * simplified): requests take seats out of the level's current concurrency limit; when they do
 * not fit, each waits in one of the level's queues, chosen by shuffle sharding from its flow's
 * hand (the shortest of the hand, by seats). Queues are served in virtual-time order: every queue
 * carries the virtual time at which its next request may start, advanced by seats × estimated
 * service time on dispatch and corrected by the real service time on completion; the queue with
 * the earliest such time goes next, and a queue that was idle starts from the current virtual
 * time (that of the last dispatch), so an idle flow gains no credit and a flooding flow cannot
 * crowd out another (self-clocked fair queuing, KEP-1040 § Fair queuing for server requests).
 *
 * A level without queuing (`limitResponse.type: Reject`) rejects what does not fit at once. A
 * request that needs more seats than the limit runs alone. Queued requests are rejected after
 * their wait limit (`time-out`) or when the client goes away (`cancelled`); a full queue
 * rejects at once (`queue-full`).
 */
import { Dealer } from './shuffle-sharding.js';

/** Why a request was not run (upstream's `reason` label values). */
export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** `limitResponse.queuing` of a level (defaults applied). */
export interface QueuingConfig {
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

/** Upstream's estimated service duration of a request, in seconds of one seat. */
const ESTIMATED_SERVICE_SECONDS = 0.003;

interface Waiting {
  hash: number;
  seats: number;
  queue: Queue;
  enqueuedAt: number;
  resolve: (r: Ticket | RejectReason) => void;
  timer?: NodeJS.Timeout;
  signal?: AbortSignal;
  onAbort?: () => void;
  ticket?: Ticket;
}

class Queue {
  readonly waiting: Waiting[] = [];
  /** Virtual time (seat-seconds) at which this queue's next request may start. */
  nextDispatchR = 0;
  seatsInUse = 0;
  waitingSeats = 0;
}

/** A dispatched request: hold it while the request executes, then `finish()` once. */
export class Ticket {
  private done = false;

  /** @internal */
  constructor(
    private readonly qs: QueueSet,
    readonly queue: Queue | undefined,
    readonly seats: number,
    /** Milliseconds spent waiting in a queue (0 when dispatched at once). */
    readonly waitedMs: number,
    /** The queue set's clock at dispatch (ms). */
    readonly dispatchedAt: number,
  ) {}

  /** Releases the seats (idempotent) and lets waiting requests in. */
  finish(): void {
    if (this.done) return;
    this.done = true;
    this.qs.release(this);
  }
}

/** The queues and seats of one priority level. */
export class QueueSet {
  private cfg: QueuingConfig | undefined;
  private dealer: Dealer | undefined;
  private queues: Queue[] = [];
  private readonly active = new Set<Queue>();
  private readonly hand: number[] = [];
  private limit: number;
  private virtualTime = 0;
  private enqueues = 0;
  /** Seats held by executing requests. */
  seatsInUse = 0;
  /** Requests executing. */
  executing = 0;
  /** Requests waiting in the queues. */
  waitingCount = 0;
  private waitingSeats = 0;
  /** Highest seats in use plus seats waiting since the last {@link takeDemand}. */
  private demandHighWatermark = 0;

  /**
   * `cfg` absent: the level rejects instead of queuing. `limit`: the current concurrency limit,
   * in seats. `now`: the clock of service times, in milliseconds.
   */
  constructor(cfg: QueuingConfig | undefined, limit: number, private readonly now: () => number = () => performance.now()) {
    this.limit = limit;
    this.configure(cfg, limit);
  }

  /** The current concurrency limit, in seats. */
  get concurrencyLimit(): number {
    return this.limit;
  }

  /**
   * Applies a new configuration: a changed number of queues or hand size re-deals the waiting
   * requests (in their order) into the new queues; a level turned to Reject keeps serving what
   * already waits. A higher limit lets waiting requests in at once.
   */
  configure(cfg: QueuingConfig | undefined, limit: number): void {
    this.limit = limit;
    const same = cfg && this.cfg && cfg.queues === this.cfg.queues && cfg.handSize === this.cfg.handSize;
    if (cfg && !same) {
      const waiting = [...this.active].flatMap((q) => q.waiting).sort((a, b) => a.enqueuedAt - b.enqueuedAt);
      this.dealer = new Dealer(cfg.queues, cfg.handSize);
      this.queues = Array.from({ length: cfg.queues }, () => new Queue());
      this.active.clear();
      this.waitingCount = 0;
      this.waitingSeats = 0;
      this.cfg = cfg;
      for (const w of waiting) {
        w.queue = this.choose(w.hash);
        this.push(w);
      }
    }
    this.cfg = cfg;
    this.dispatchAsMuchAsPossible();
  }

  /**
   * Admits a request of `seats` seats of the flow hashed `hash`: a Ticket when it may execute
   * now, a reason when rejected at once, else a promise of either, settled when it is
   * dispatched or rejected (`time-out` after `waitLimitMs`, `cancelled` when `signal` aborts).
   */
  start(hash: number, seats: number, waitLimitMs: number, signal?: AbortSignal): Ticket | RejectReason | Promise<Ticket | RejectReason> {
    if (!this.cfg) {
      if (!this.canAccommodate(seats)) return 'concurrency-limit';
      return this.dispatchNow(undefined, seats, 0);
    }
    const queue = this.choose(hash);
    if (queue.waiting.length >= this.cfg.queueLengthLimit) return 'queue-full';
    if (this.waitingCount === 0 && this.canAccommodate(seats)) {
      this.activate(queue);
      return this.dispatchNow(queue, seats, 0);
    }
    if (signal?.aborted) return 'cancelled';
    const w: Waiting = { hash, seats, queue, enqueuedAt: this.now(), resolve: () => undefined };
    this.push(w);
    this.dispatchAsMuchAsPossible();
    if (w.ticket) return w.ticket;
    return new Promise((resolve) => {
      w.resolve = resolve;
      w.timer = setTimeout(() => this.abandon(w, 'time-out'), waitLimitMs);
      if (signal) {
        w.signal = signal;
        w.onAbort = () => this.abandon(w, 'cancelled');
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
    });
  }

  /** The seat demand (in use plus waiting) high watermark since the last call; resets it to the current demand. */
  takeDemand(): number {
    const d = this.demandHighWatermark;
    this.demandHighWatermark = this.seatsInUse + this.waitingSeats;
    return d;
  }

  /** @internal Called by Ticket.finish. */
  release(t: Ticket): void {
    this.seatsInUse -= t.seats;
    this.executing--;
    if (t.queue) {
      t.queue.seatsInUse -= t.seats;
      const actual = (this.now() - t.dispatchedAt) / 1000;
      t.queue.nextDispatchR += t.seats * (actual - ESTIMATED_SERVICE_SECONDS);
    }
    this.dispatchAsMuchAsPossible();
  }

  private canAccommodate(seats: number): boolean {
    return this.executing === 0 || this.seatsInUse + seats <= this.limit;
  }

  /** The least loaded queue (waiting plus executing seats) of the flow's hand; ties from a rotating start. */
  private choose(hash: number): Queue {
    const cfg = this.cfg!;
    const hand = this.dealer!.deal(hash, this.hand);
    const offset = this.enqueues++ % cfg.handSize;
    let best: Queue | undefined;
    let bestLoad = Infinity;
    for (let i = 0; i < cfg.handSize; i++) {
      const q = this.queues[hand[(offset + i) % cfg.handSize]!]!;
      const load = q.waitingSeats + q.seatsInUse;
      if (load < bestLoad) {
        best = q;
        bestLoad = load;
      }
    }
    return best!;
  }

  private activate(q: Queue): void {
    if (q.waiting.length === 0 && q.nextDispatchR < this.virtualTime) q.nextDispatchR = this.virtualTime;
  }

  private push(w: Waiting): void {
    this.activate(w.queue);
    w.queue.waiting.push(w);
    w.queue.waitingSeats += w.seats;
    this.active.add(w.queue);
    this.waitingCount++;
    this.waitingSeats += w.seats;
    this.noteDemand();
  }

  private dispatchNow(queue: Queue | undefined, seats: number, waitedMs: number): Ticket {
    const now = this.now();
    if (queue) {
      this.virtualTime = queue.nextDispatchR;
      queue.nextDispatchR += seats * ESTIMATED_SERVICE_SECONDS;
      queue.seatsInUse += seats;
    }
    this.seatsInUse += seats;
    this.executing++;
    this.noteDemand();
    return new Ticket(this, queue, seats, waitedMs, now);
  }

  private dispatchAsMuchAsPossible(): void {
    while (this.waitingCount > 0) {
      let next: Queue | undefined;
      for (const q of this.active) if (!next || q.nextDispatchR < next.nextDispatchR) next = q;
      const w = next!.waiting[0]!;
      if (!this.canAccommodate(w.seats)) return;
      this.unqueue(w);
      w.ticket = this.dispatchNow(w.queue, w.seats, this.now() - w.enqueuedAt);
      w.resolve(w.ticket);
    }
  }

  private unqueue(w: Waiting): void {
    const q = w.queue;
    const i = q.waiting.indexOf(w);
    if (i < 0) return;
    q.waiting.splice(i, 1);
    q.waitingSeats -= w.seats;
    if (q.waiting.length === 0) this.active.delete(q);
    this.waitingCount--;
    this.waitingSeats -= w.seats;
    if (w.timer) clearTimeout(w.timer);
    if (w.onAbort) w.signal!.removeEventListener('abort', w.onAbort);
  }

  private abandon(w: Waiting, reason: RejectReason): void {
    if (w.ticket || !w.queue.waiting.includes(w)) return;
    this.unqueue(w);
    w.resolve(reason);
  }

  private noteDemand(): void {
    const d = this.seatsInUse + this.waitingSeats;
    if (d > this.demandHighWatermark) this.demandHighWatermark = d;
  }
}
