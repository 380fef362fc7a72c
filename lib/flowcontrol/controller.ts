/**
 * The API Priority and Fairness controller (upstream v1.30 `util/flowcontrol/apf_controller.go`
 * and `apf_filter.go`): informers over FlowSchemas and PriorityLevelConfigurations feed a
 * digested configuration (config.ts); each level gets a QueueSet (the exempt one never limits)
 * whose concurrency limit starts at nominal − ⌊lendable / 2⌋ and is re-allocated at every
 * configuration change and every 10 s adjustment period by seat demand statistics (borrowing:
 * {@link APFController.adjust}, seat-demand.ts, concurrency.ts); `handle` classifies a request,
 * estimates its work (work-estimator.ts, from the object counts and the registered watches),
 * queues or rejects it, runs it and keeps the metrics. With event-loop pressure on
 * (loop-pressure.ts), the limits of the levels of the shedding list are further cut while the
 * loop is saturated, the least important first, down to dispatching nothing: their new requests
 * then wait in their queues (429 on a full queue or after the wait limit).
 */
import { newTooManyRequests } from '../apimachinery/errors.js';
import type { Obj } from '../apis/define.js';
import { FLOW_SCHEMA_CONDITION_DANGLING } from '../apis/flowcontrol/v1/index.js';
import type { Informer } from '../client/informer.js';
import type { RequestInfo } from '../request/request-info.js';
import type { UserInfo } from '../request/user.js';
import { classify, distinguisherOf, type DigestedFlowSchema } from './classifier.js';
import { type AllocationClass, computeConcurrencyAllocation, maxSeatsOf } from './concurrency.js';
import { type DigestedConfig, type DigestedLevel, digestConfig, MANDATORY } from './config.js';
import type { APFMetrics, FlowMetrics } from './metrics.js';
import { QueueSet, type RejectReason, Ticket } from './queueset.js';
import { type LoopDelaySampler, LoopPressure, PRESSURE_PERIOD_MS } from './loop-pressure.js';
import { DroppedRequests } from './retry-after.js';
import { SeatDemandStats } from './seat-demand.js';
import { hashFlow } from './shuffle-sharding.js';
import { WatchCounts } from './watch-tracker.js';
import { estimateWork, MAXIMUM_SEATS_LIMIT, maxSeatsOfWork, type ObjectCounts } from './work-estimator.js';

/** Upstream's message of a rejected request. */
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests, please try again later.';
/** Upstream's period of the borrowing adjustment. */
export const ADJUST_PERIOD_MS = 10_000;

/** A Dangling condition to write on a FlowSchema's status (upstream's apf config consumer). */
export interface DanglingCondition {
  type: typeof FLOW_SCHEMA_CONDITION_DANGLING;
  status: 'True' | 'False';
  reason: 'NotFound' | 'Found';
  message: string;
}

/** What the controller is built from. */
export interface APFControllerConfig {
  flowSchemas: Informer;
  priorityLevels: Informer;
  /** `--max-requests-inflight` + `--max-mutating-requests-inflight`. */
  serverConcurrencyLimit: number;
  metrics: APFMetrics;
  objectCounts: ObjectCounts;
  /** How long a request may wait in a queue (upstream: the request timeout / 4), ms. */
  requestWaitLimitMs: number;
  /** Borrowing adjustment period, ms (default {@link ADJUST_PERIOD_MS}). */
  adjustPeriodMs?: number;
  /** The clock of the queue sets and seat demand, ms (default performance.now). */
  now?: () => number;
  /** Runs `fn` after `ms` ms: the end of a request's additional latency (default setTimeout). */
  after?: (ms: number, fn: () => void) => void;
  /** Writes a FlowSchema's Dangling condition; absent: conditions are not written. */
  writeDangling?: (flowSchema: string, condition: DanglingCondition) => Promise<void>;
  /**
   * Event-loop pressure (loop-pressure.ts): the delay limit (ms, > 0), the names of the levels it
   * sheds, least important first (unknown and exempt names are skipped), the sampler's start
   * (called by {@link APFController.run}, which stops it) and its period (ms, default
   * {@link PRESSURE_PERIOD_MS}); absent: off.
   */
  loopPressure?: { limitMs: number; shedLevels: readonly string[]; startSampler: () => LoopDelaySampler; periodMs?: number };
  onError: (err: unknown) => void;
}

interface LevelState {
  level: DigestedLevel;
  qs: QueueSet;
  maxSeats: number;
  stats: SeatDemandStats;
  current: number;
}

/** What a request is, for APF. */
export interface APFRequest {
  user: UserInfo;
  info: RequestInfo;
  query: URLSearchParams;
  /** The request's signal, read only when the request has to wait (it may be a getter). */
  readonly signal: AbortSignal;
}

/** The classification, reported before the request is queued (the response headers). */
export interface APFClassification {
  flowSchemaUID: string;
  priorityLevelUID: string;
}

/** Dispatches requests by the current FlowSchemas and PriorityLevelConfigurations. */
export class APFController {
  private config: DigestedConfig;
  private readonly levels = new Map<string, LevelState>();
  private readonly dropped = new DroppedRequests();
  private pending = false;
  /** Both informers have listed: events are digested from then on (upstream waits for its caches too). */
  private synced = false;
  private readonly pressure: LoopPressure | undefined;
  /** Each sheddable level's index in the shedding list. */
  private shedIndex = new Map<string, number>();
  /** The watches executing through this controller (the mutating work estimator reads them). */
  readonly watches = new WatchCounts();

  constructor(private readonly cfg: APFControllerConfig) {
    if (cfg.loopPressure) this.pressure = new LoopPressure(cfg.loopPressure.limitMs, 0);
    this.config = digestConfig([], [], cfg.serverConcurrencyLimit);
    this.apply();
  }

  /** Runs the informers and the borrowing adjustment until `signal` aborts; resolves once the first lists are digested. */
  async run(signal: AbortSignal): Promise<void> {
    const changed = () => this.schedule();
    this.cfg.flowSchemas.addHandler(changed);
    this.cfg.priorityLevels.addHandler(changed);
    void this.cfg.flowSchemas.run(signal);
    void this.cfg.priorityLevels.run(signal);
    const timer = setInterval(() => this.adjust(), this.cfg.adjustPeriodMs ?? ADJUST_PERIOD_MS);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
    const lp = this.cfg.loopPressure;
    if (lp) {
      const sampler = lp.startSampler();
      const sampling = setInterval(() => this.notePressure(sampler.sample()), lp.periodMs ?? PRESSURE_PERIOD_MS);
      sampling.unref();
      signal.addEventListener('abort', () => (clearInterval(sampling), sampler.stop()), { once: true });
    }
    await Promise.all([this.cfg.flowSchemas.waitForSync(), this.cfg.priorityLevels.waitForSync()]);
    this.synced = true;
    this.reload();
  }

  /** The schema and level of a request (the catch-all when no schema matches). */
  classify(user: UserInfo, info: RequestInfo): { schema: DigestedFlowSchema; level: DigestedLevel } {
    const schema = classify(this.config.schemas, user, info) ?? this.config.schemas.find((s) => s.name === MANDATORY.catchAll)!;
    return { schema, level: this.levels.get(schema.priorityLevel)!.level };
  }

  /**
   * Classifies `req`, reports it through `note`, then runs `execute` once admitted (at once for
   * an exempt level), holding its seats until `execute` settles.
   * @throws StatusError 429 TooManyRequests (`Too many requests, please try again later.`,
   *   Retry-After per retry-after.ts) when rejected; whatever `execute` throws.
   */
  async handle(req: APFRequest, note: (c: APFClassification) => void, execute: () => Promise<void>): Promise<void> {
    const { schema, level } = this.classify(req.user, req.info);
    note({ flowSchemaUID: schema.uid, priorityLevelUID: level.uid });
    const m = this.cfg.metrics.flow(level.name, schema.name);
    const state = this.levels.get(level.name)!;
    const type = req.info.verb === 'watch' ? 'watch' : 'regular';
    const work = estimateWork(req.info, req.query, this.cfg.objectCounts, this.watches, state.maxSeats, m.watchCount);
    m.workSeats.observe(maxSeatsOfWork(work));
    const hash = level.exempt ? 0 : hashFlow(schema.name, distinguisherOf(schema, req.user, req.info));
    let admitted = state.qs.start(hash, work, this.cfg.requestWaitLimitMs, req);
    if (admitted instanceof Promise) {
      m.inqueue++;
      const started = performance.now();
      admitted = await admitted;
      m.inqueue--;
      if (!(admitted instanceof Ticket)) m.waitRejected.observe((performance.now() - started) / 1000);
    }
    if (!(admitted instanceof Ticket)) return this.reject(level.name, m, admitted);
    const ticket = admitted;
    if (!level.exempt) m.waitExecuted.observe(ticket.waitedMs / 1000);
    m.dispatched.inc();
    m.executing++;
    m.executingSeats += ticket.seats;
    const start = performance.now();
    try {
      await execute();
    } finally {
      m.executing--;
      m.execution(type).observe((performance.now() - start) / 1000);
      ticket.finish(m.releaseSeats);
    }
  }

  /** The pressure in levels, 0 without event-loop pressure. */
  get loopPressure(): number {
    return this.pressure?.value ?? 0;
  }

  /** Takes a period's event-loop delay (ms): a changed pressure re-applies every level's limit. */
  notePressure(delayMs: number): void {
    const p = this.pressure!;
    const before = p.value;
    if (p.update(delayMs) === before) return;
    this.cfg.metrics.pressure(p.value);
    for (const s of this.levels.values()) this.configure(s);
  }

  /**
   * Applies a level's limit now: its allocation, cut by the pressure (at least one seat of a
   * non-zero one; fraction 0 sheds it).
   */
  private configure(s: LevelState): void {
    const i = this.shedIndex.get(s.level.name);
    const fraction = this.pressure && i !== undefined ? this.pressure.fraction(i) : 1;
    const limit = fraction === 1 ? s.current : Math.min(s.current, Math.max(1, Math.round(s.current * fraction)));
    s.qs.configure(s.level.queuing, limit, fraction === 0);
    this.cfg.metrics.currentLimit(s.level.name, fraction === 0 ? 0 : limit);
  }

  private reject(level: string, m: FlowMetrics, reason: RejectReason): never {
    m.rejected(reason).inc();
    this.dropped.record(level);
    throw newTooManyRequests(TOO_MANY_REQUESTS_MESSAGE, this.dropped.retryAfter(level));
  }

  private schedule(): void {
    if (this.pending || !this.synced) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.reload();
    });
  }

  private reload(): void {
    try {
      this.config = digestConfig(this.cfg.flowSchemas.list(), this.cfg.priorityLevels.list(), this.cfg.serverConcurrencyLimit);
      this.apply();
      this.writeConditions();
    } catch (err) {
      this.cfg.onError(err);
    }
  }

  /**
   * Creates, reconfigures or drops the levels' queue sets (upstream `finishQueueSetReconfigsLocked`):
   * a new level starts at nominal − ⌊lendable / 2⌋ with fresh demand statistics, an existing one
   * keeps its limit, queue set and statistics; then the limits are re-allocated ({@link adjust}).
   */
  private apply(): void {
    const shed = (this.cfg.loopPressure?.shedLevels ?? []).filter((name) => this.config.levels.get(name)?.exempt === false);
    this.shedIndex = new Map(shed.map((name, i) => [name, i]));
    this.pressure?.setMaxLevels(this.shedIndex.size);
    for (const name of [...this.levels.keys()]) if (!this.config.levels.has(name)) this.levels.delete(name);
    for (const level of this.config.levels.values()) {
      const { nominal, lendable, min, max } = level.limits;
      const old = this.levels.get(level.name);
      const maxSeats = maxSeatsOf(nominal, level.queuing?.handSize, MAXIMUM_SEATS_LIMIT);
      this.cfg.metrics.configuration(level.name, nominal, min, max);
      if (old) {
        old.level = level;
        old.maxSeats = maxSeats;
        this.configure(old);
        continue;
      }
      const current = nominal - Math.floor(lendable / 2);
      const qs = new QueueSet(level.queuing, current, this.cfg.now, { exempt: level.exempt, ...(this.cfg.after && { after: this.cfg.after }) });
      this.levels.set(level.name, { level, qs, maxSeats, stats: new SeatDemandStats(), current });
    }
    this.adjust();
  }

  /**
   * The borrowing adjustment (upstream v1.30 `updateBorrowingLocked`): each level's seat demand
   * integrator is read and restarted and its statistics updated (seat-demand.ts); its lower
   * bound is max(nominal − lendable, min(nominal, demand high watermark)), its upper bound
   * nominal + borrowing limit, its target max(lower bound, smoothed demand); the allocation
   * (concurrency.ts) of the sum of the nominal limits, rounded, becomes each level's current
   * limit. An impossible allocation keeps the current limits (and is reported to `onError`).
   */
  adjust(): void {
    const states = [...this.levels.values()];
    const classes: AllocationClass[] = states.map((s) => {
      s.stats.update(s.qs.demand.reset());
      const { nominal, min, max } = s.level.limits;
      const lower = Math.max(min, Math.min(nominal, s.stats.highWatermark));
      return { lower, upper: max, target: Math.max(lower, s.stats.smoothed) };
    });
    const total = states.reduce((sum, s) => sum + s.level.limits.nominal, 0);
    let allocs: number[];
    try {
      const a = computeConcurrencyAllocation(total, classes);
      allocs = a.allocs;
      this.cfg.metrics.fairFrac(a.fairFrac);
    } catch (err) {
      this.cfg.onError(err);
      this.cfg.metrics.fairFrac(0);
      allocs = states.map((s) => s.current);
    }
    states.forEach((s, i) => {
      s.current = Math.round(allocs[i]!);
      this.cfg.metrics.adjustment(s.level.name, s.stats, classes[i]!.target, s.current);
      this.configure(s);
    });
  }

  private writeConditions(): void {
    const write = this.cfg.writeDangling;
    if (!write) return;
    for (const fs of this.cfg.flowSchemas.list()) {
      const name = (fs.metadata as Obj).name as string;
      const ref = this.config.references.get(name);
      if (!ref) continue;
      const want: DanglingCondition = ref.found
        ? { type: FLOW_SCHEMA_CONDITION_DANGLING, status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(ref.level)} and it exists` }
        : { type: FLOW_SCHEMA_CONDITION_DANGLING, status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(ref.level)} but there is no such object` };
      const conds = ((fs.status as Obj | undefined)?.conditions ?? []) as Obj[];
      const have = conds.find((c) => c.type === FLOW_SCHEMA_CONDITION_DANGLING);
      if (have && have.status === want.status && have.reason === want.reason && have.message === want.message) continue;
      write(name, want).catch(this.cfg.onError);
    }
  }
}
