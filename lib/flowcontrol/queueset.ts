/**
 * Fair queuing of one priority level (upstream v1.30 `util/flowcontrol/fairqueuing/queueset`;
 * the virtual clock advances per dispatch rather than being integrated continuously): requests
 * take seats out of the level's current concurrency limit; when they do not fit, each waits in
 * one of the level's queues, chosen by shuffle sharding from its flow's hand (the shortest of the
 * hand, by seats). Queues are served in virtual-time order: every queue
 * carries the virtual time at which its next request may start, advanced by seats × estimated
 * service time on dispatch and corrected by the real service time on completion; the queue with
 * the earliest such time goes next, and a queue that was idle starts from the current virtual
 * time (that of the last dispatch), so an idle flow gains no credit and a flooding flow cannot
 * crowd out another (self-clocked fair queuing, KEP-1040 § Fair queuing for server requests).
 *
 * A level without queuing (`limitResponse.type: Reject`) rejects what does not fit at once; the
 * exempt level dispatches everything at once, its seats counted all the same (they are its
 * demand, for borrowing). A request that needs more seats than the limit runs alone. Queued
 * requests are rejected after their wait limit (`time-out`) or when the client goes away
 * (`cancelled`); a full queue rejects at once (`queue-full`) while no seat is free.
 *
 * A request holds max(initial, final) seats while it executes and, when its work estimate has an
 * additional latency, keeps them that long after it finished (upstream `finishRequestLocked`); a
 * queued request whose final seats exceed the limit is reshaped at dispatch to the limit's seats
 * for proportionally longer. Every change of seats in use or waiting is fed to the level's
 * {@link SeatDemandIntegrator} (the borrowing adjustment's input).
 *
 * A shed level (event-loop pressure, loop-pressure.ts) dispatches nothing: a queuing level queues
 * its new requests (a full queue rejects them, `queue-full`) until the pressure gives it seats
 * again or their wait limit passes (`time-out`), as a level whose limit is cut to zero would; a
 * Reject level rejects them at once (`concurrency-limit`). Executing requests finish.
 */
import { SeatDemandIntegrator } from './seat-demand.js';
import { Dealer } from './shuffle-sharding.js';
import { maxSeatsOfWork, type WorkEstimate } from './work-estimator.js';

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
  work: WorkEstimate;
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
  /** Seats held throughout: max(initial, final seats). */
  readonly seats: number;

  /** @internal */
  constructor(
    private readonly qs: QueueSet,
    readonly queue: Queue | undefined,
    /** The work estimate as dispatched (final seats possibly reshaped to the limit). */
    readonly work: WorkEstimate,
    /** Milliseconds spent waiting in a queue (0 when dispatched at once). */
    readonly waitedMs: number,
    /** The queue set's clock at dispatch (ms). */
    readonly dispatchedAt: number,
  ) {
    this.seats = maxSeatsOfWork(work);
  }

  /**
   * Ends the execution (idempotent): the seats are released now, or after the work's additional
   * latency; `onReleased` receives their number once they are.
   */
  finish(onReleased?: (seats: number) => void): void {
    if (this.done) return;
    this.done = true;
    this.qs.release(this, onReleased);
  }
}

/** Options of a {@link QueueSet}. */
export interface QueueSetOptions {
  /** The exempt level: never limits, never queues. */
  exempt?: boolean;
  /** Runs `fn` after `ms` milliseconds (default setTimeout); the end of an additional latency. */
  after?: (ms: number, fn: () => void) => void;
}

const afterTimeout = (ms: number, fn: () => void) => void setTimeout(fn, ms);
const ONE_SEAT: WorkEstimate = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };

/** The queues and seats of one priority level. */
export class QueueSet {
  private cfg: QueuingConfig | undefined;
  private dealer: Dealer | undefined;
  private queues: Queue[] = [];
  private readonly active = new Set<Queue>();
  private readonly hand: number[] = [];
  private limit: number;
  private shed = false;
  private virtualTime = 0;
  private enqueues = 0;
  /** Seats held by executing requests. */
  seatsInUse = 0;
  /** Requests executing. */
  executing = 0;
  /** Requests waiting in the queues. */
  waitingCount = 0;
  private waitingSeats = 0;
  /** Seats in use plus seats waiting, integrated over time (read and reset by the borrowing adjustment). */
  readonly demand: SeatDemandIntegrator;
  private readonly exempt: boolean;
  private readonly after: (ms: number, fn: () => void) => void;

  /**
   * `cfg` absent: the level rejects instead of queuing (or is exempt, per `opts`). `limit`: the
   * current concurrency limit, in seats. `now`: the clock of service times and of the seat
   * demand, in milliseconds.
   */
  constructor(cfg: QueuingConfig | undefined, limit: number, private readonly now: () => number = () => performance.now(), opts: QueueSetOptions = {}) {
    this.limit = limit;
    this.exempt = opts.exempt ?? false;
    this.after = opts.after ?? afterTimeout;
    this.demand = new SeatDemandIntegrator(now);
    this.configure(cfg, limit);
  }

  /** The current concurrency limit, in seats. */
  get concurrencyLimit(): number {
    return this.limit;
  }

  /**
   * Applies a new configuration: a changed number of queues or hand size re-deals the waiting
   * requests (in their order) into the new queues; a level turned to Reject keeps serving what
   * already waits. A higher limit lets waiting requests in at once. `shed`: nothing is dispatched
   * until a configuration without it (new requests queue, or are rejected on a Reject level).
   */
  configure(cfg: QueuingConfig | undefined, limit: number, shed = false): void {
    this.limit = limit;
    this.shed = shed;
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
   * Admits a request of the flow hashed `hash` doing `work` (a number: that many seats, no final
   * phase): a Ticket when it may execute now, a reason when rejected at once, else a promise of
   * either, settled when it is dispatched or rejected (`time-out` after `waitLimitMs`,
   * `cancelled` when `cancel.signal` aborts). `cancel.signal` is read only when the request has to
   * wait (a request's signal is made on demand: filters/request-info.ts). A shed level queues
   * (a Reject level answers `concurrency-limit`).
   */
  start(hash: number, work: number | WorkEstimate, waitLimitMs: number, cancel?: { readonly signal: AbortSignal }): Ticket | RejectReason | Promise<Ticket | RejectReason> {
    const w0 = typeof work === 'number' ? { ...ONE_SEAT, initialSeats: work } : work;
    const seats = maxSeatsOfWork(w0);
    if (this.exempt) return this.dispatchNow(undefined, w0, 0);
    if (!this.cfg) {
      if (this.shed || !this.canAccommodate(seats)) return 'concurrency-limit';
      return this.dispatchNow(undefined, w0, 0);
    }
    const queue = this.choose(hash);
    if (queue.waiting.length >= this.cfg.queueLengthLimit && (this.shed || this.seatsInUse >= this.limit)) return 'queue-full';
    if (!this.shed && this.waitingCount === 0 && this.seatsInUse < this.limit && this.canAccommodate(seats)) {
      this.activate(queue);
      return this.dispatchNow(queue, this.reshape(w0), 0);
    }
    const signal = cancel?.signal;
    if (signal?.aborted) return 'cancelled';
    const w: Waiting = { hash, work: w0, seats, queue, enqueuedAt: this.now(), resolve: () => undefined };
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

  /** @internal Called by Ticket.finish: the execution ended; the seats go now or after the additional latency. */
  release(t: Ticket, onReleased?: (seats: number) => void): void {
    this.executing--;
    if (t.queue) {
      const actual = (this.now() - t.dispatchedAt) / 1000;
      t.queue.nextDispatchR += t.work.initialSeats * (actual - ESTIMATED_SERVICE_SECONDS);
    }
    if (t.work.additionalLatencyMs > 0) this.after(t.work.additionalLatencyMs, () => this.releaseSeats(t, onReleased));
    else this.releaseSeats(t, onReleased);
  }

  private releaseSeats(t: Ticket, onReleased: ((seats: number) => void) | undefined): void {
    this.seatsInUse -= t.seats;
    if (t.queue) t.queue.seatsInUse -= t.seats;
    this.noteDemand();
    onReleased?.(t.seats);
    this.dispatchAsMuchAsPossible();
  }

  /** Upstream `canAccommodateSeatsLocked`: a request wider than the limit runs once no request executes; any other must fit. */
  private canAccommodate(seats: number): boolean {
    if (seats > this.limit) return this.executing === 0;
    return this.seatsInUse + seats <= this.limit;
  }

  /** Upstream's dispatch-time reshaping: final seats above the limit become the limit's, for proportionally longer. */
  private reshape(work: WorkEstimate): WorkEstimate {
    if (work.finalSeats <= this.limit) return work;
    const finalWork = work.finalSeats * work.additionalLatencyMs;
    return { ...work, finalSeats: this.limit, additionalLatencyMs: this.limit > 0 ? finalWork / this.limit : 0 };
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

  private dispatchNow(queue: Queue | undefined, work: WorkEstimate, waitedMs: number): Ticket {
    const now = this.now();
    const t = new Ticket(this, queue, work, waitedMs, now);
    if (queue) {
      this.virtualTime = queue.nextDispatchR;
      // Upstream's totalWork: the initial seats for the estimated service time plus the final work.
      queue.nextDispatchR += work.initialSeats * ESTIMATED_SERVICE_SECONDS + (work.finalSeats * work.additionalLatencyMs) / 1000;
      queue.seatsInUse += t.seats;
    }
    this.seatsInUse += t.seats;
    this.executing++;
    this.noteDemand();
    return t;
  }

  private dispatchAsMuchAsPossible(): void {
    while (!this.shed && this.waitingCount > 0 && this.seatsInUse < this.limit) {
      let next: Queue | undefined;
      for (const q of this.active) if (!next || q.nextDispatchR < next.nextDispatchR) next = q;
      const w = next!.waiting[0]!;
      if (!this.canAccommodate(w.seats)) return;
      this.unqueue(w);
      w.ticket = this.dispatchNow(w.queue, this.reshape(w.work), this.now() - w.enqueuedAt);
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
    this.noteDemand();
    if (w.timer) clearTimeout(w.timer);
    if (w.onAbort) w.signal!.removeEventListener('abort', w.onAbort);
  }

  private abandon(w: Waiting, reason: RejectReason): void {
    if (w.ticket || !w.queue.waiting.includes(w)) return;
    this.unqueue(w);
    w.resolve(reason);
  }

  private noteDemand(): void {
    this.demand.set(this.seatsInUse + this.waitingSeats);
  }
}
