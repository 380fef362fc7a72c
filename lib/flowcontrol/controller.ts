/**
 * The API Priority and Fairness controller (upstream v1.30 `util/flowcontrol/apf_controller.go`
 * and `apf_filter.go`): informers over FlowSchemas and PriorityLevelConfigurations feed a
 * digested configuration (config.ts); each limited level gets a QueueSet whose concurrency
 * limit starts at its nominal limit and is re-allocated every adjustment period by seat demand
 * (borrowing, concurrency.ts); `handle` classifies a request, sets its seats, queues or rejects
 * it, runs it and keeps the metrics. Exempt levels run requests at once.
 */
import { newTooManyRequests } from '../apimachinery/errors.js';
import type { Obj } from '../apis/define.js';
import { FLOW_SCHEMA_CONDITION_DANGLING } from '../apis/flowcontrol/v1/index.js';
import type { Informer } from '../client/informer.js';
import type { RequestInfo } from '../request/request-info.js';
import type { UserInfo } from '../request/user.js';
import { classify, distinguisherOf, type DigestedFlowSchema } from './classifier.js';
import { allocateConcurrency, maxSeatsOf } from './concurrency.js';
import { type DigestedConfig, type DigestedLevel, digestConfig, MANDATORY } from './config.js';
import type { APFMetrics, FlowMetrics } from './metrics.js';
import { QueueSet, type RejectReason, Ticket } from './queueset.js';
import { DroppedRequests } from './retry-after.js';
import { hashFlow } from './shuffle-sharding.js';
import { estimateSeats, MAXIMUM_SEATS_LIMIT, type ObjectCounts } from './work-estimator.js';

/** Upstream's message of a rejected request. */
export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests, please try again later.';
/** Upstream's period of the borrowing adjustment. */
export const ADJUST_PERIOD_MS = 10_000;
/** Upstream's decay of the smoothed seat demand per adjustment period. */
const DEMAND_DECAY = 0.977;

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
  /** Writes a FlowSchema's Dangling condition; absent: conditions are not written. */
  writeDangling?: (flowSchema: string, condition: DanglingCondition) => Promise<void>;
  onError: (err: unknown) => void;
}

interface LevelState {
  level: DigestedLevel;
  qs?: QueueSet;
  maxSeats: number;
  smoothedDemand: number;
  current: number;
}

/** What a request is, for APF. */
export interface APFRequest {
  user: UserInfo;
  info: RequestInfo;
  query: URLSearchParams;
  signal: AbortSignal;
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

  constructor(private readonly cfg: APFControllerConfig) {
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
    await Promise.all([this.cfg.flowSchemas.waitForSync(), this.cfg.priorityLevels.waitForSync()]);
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
    if (!state.qs) {
      m.dispatched.inc();
      return this.execute(m, type, 1, execute);
    }
    const seats = estimateSeats(req.info, req.query, this.cfg.objectCounts, state.maxSeats);
    const hash = hashFlow(schema.name, distinguisherOf(schema, req.user, req.info));
    let admitted = state.qs.start(hash, seats, this.cfg.requestWaitLimitMs, req.signal);
    if (admitted instanceof Promise) {
      m.inqueue++;
      const started = performance.now();
      admitted = await admitted;
      m.inqueue--;
      if (!(admitted instanceof Ticket)) m.waitRejected.observe((performance.now() - started) / 1000);
    }
    if (!(admitted instanceof Ticket)) return this.reject(level.name, m, admitted);
    m.waitExecuted.observe(admitted.waitedMs / 1000);
    m.dispatched.inc();
    try {
      await this.execute(m, type, seats, execute);
    } finally {
      admitted.finish();
    }
  }

  private async execute(m: FlowMetrics, type: string, seats: number, execute: () => Promise<void>): Promise<void> {
    m.executing++;
    m.executingSeats += seats;
    const start = performance.now();
    try {
      await execute();
    } finally {
      m.executing--;
      m.executingSeats -= seats;
      m.execution(type).observe((performance.now() - start) / 1000);
    }
  }

  private reject(level: string, m: FlowMetrics, reason: RejectReason): never {
    m.rejected(reason).inc();
    this.dropped.record(level);
    throw newTooManyRequests(TOO_MANY_REQUESTS_MESSAGE, this.dropped.retryAfter(level));
  }

  private schedule(): void {
    if (this.pending) return;
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

  /** Creates, reconfigures or drops the levels' queue sets; a new or changed level starts at its nominal limit. */
  private apply(): void {
    for (const name of [...this.levels.keys()]) if (!this.config.levels.has(name)) this.levels.delete(name);
    for (const level of this.config.levels.values()) {
      const old = this.levels.get(level.name);
      const current = old && old.level.limits.nominal === level.limits.nominal ? old.current : level.limits.nominal;
      const maxSeats = maxSeatsOf(level.limits.nominal, level.queuing?.handSize, MAXIMUM_SEATS_LIMIT);
      let qs = old?.qs;
      if (level.exempt) qs = undefined;
      else if (qs) qs.configure(level.queuing, current);
      else qs = new QueueSet(level.queuing, current);
      this.levels.set(level.name, { level, qs, maxSeats, smoothedDemand: old?.smoothedDemand ?? 0, current });
      this.cfg.metrics.limits(level.name, level.limits.nominal, current);
    }
  }

  /**
   * The borrowing adjustment (upstream `updateBorrowingLocked`, simplified): each level's demand
   * is its seat high watermark of the period, smoothed as max(demand, previous × 0.977); the
   * levels' limits are re-allocated between their lower (nominal − lendable) and upper
   * (nominal + borrowing limit) bounds in proportion to that demand, summing to the server's
   * nominal total.
   */
  adjust(): void {
    const states = [...this.levels.values()];
    const classes = states.map((s) => {
      const demand = s.qs ? s.qs.takeDemand() : 0;
      s.smoothedDemand = Math.max(demand, s.smoothedDemand * DEMAND_DECAY);
      const lower = s.level.limits.min;
      return { lower, upper: s.level.limits.max, target: s.level.exempt ? lower : Math.max(lower, s.smoothedDemand) };
    });
    const total = states.reduce((sum, s) => sum + s.level.limits.nominal, 0);
    const alloc = allocateConcurrency(total, classes);
    states.forEach((s, i) => {
      s.current = alloc[i]!;
      s.qs?.configure(s.level.queuing, s.current);
      this.cfg.metrics.limits(s.level.name, s.level.limits.nominal, s.current);
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
