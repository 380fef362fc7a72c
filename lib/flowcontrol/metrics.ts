/**
 * The `apiserver_flowcontrol_*` metrics (upstream v1.30 `util/flowcontrol/metrics`: names, HELP,
 * labels, buckets and stability levels), recorded by the APF filter and config controller.
 * Per (priority level, flow schema), the gauges are plain numbers read at scrape time and the
 * other instruments' children are cached, so the request path does little label hashing.
 */
import type { Counter, Gauge, Histogram } from 'prom-client';
import type { HistogramDeclaration, MetricDeclaration, StabilityRegistry } from '../metrics/registry.js';

const PL_FS = ['priority_level', 'flow_schema'] as const;
const PL = ['priority_level'] as const;
/** Upstream's `requestDurationSecondsBuckets`. */
const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

const REJECTED = {
  name: 'apiserver_flowcontrol_rejected_requests_total',
  help: 'Number of requests rejected by API Priority and Fairness subsystem',
  labelNames: ['priority_level', 'flow_schema', 'reason'],
  stabilityLevel: 'BETA',
} as const satisfies MetricDeclaration<string>;
const DISPATCHED = {
  name: 'apiserver_flowcontrol_dispatched_requests_total',
  help: 'Number of requests executed by API Priority and Fairness subsystem',
  labelNames: PL_FS,
  stabilityLevel: 'BETA',
} as const satisfies MetricDeclaration<string>;
const INQUEUE = {
  name: 'apiserver_flowcontrol_current_inqueue_requests',
  help: 'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
  labelNames: PL_FS,
  stabilityLevel: 'BETA',
} as const satisfies MetricDeclaration<string>;
const EXECUTING = {
  name: 'apiserver_flowcontrol_current_executing_requests',
  help: 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
  labelNames: PL_FS,
  stabilityLevel: 'BETA',
} as const satisfies MetricDeclaration<string>;
const EXECUTING_SEATS = {
  name: 'apiserver_flowcontrol_current_executing_seats',
  help: 'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
  labelNames: PL_FS,
  stabilityLevel: 'BETA',
} as const satisfies MetricDeclaration<string>;
const WAIT = {
  name: 'apiserver_flowcontrol_request_wait_duration_seconds',
  help: 'Length of time a request spent waiting in its queue',
  labelNames: ['priority_level', 'flow_schema', 'execute'],
  buckets: DURATION_BUCKETS,
  stabilityLevel: 'BETA',
} as const satisfies HistogramDeclaration<string>;
const EXECUTION = {
  name: 'apiserver_flowcontrol_request_execution_seconds',
  help: 'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
  labelNames: ['priority_level', 'flow_schema', 'type'],
  buckets: DURATION_BUCKETS,
  stabilityLevel: 'ALPHA',
} as const satisfies HistogramDeclaration<string>;
const NOMINAL = {
  name: 'apiserver_flowcontrol_nominal_limit_seats',
  help: 'Nominal number of execution seats configured for each priority level',
  labelNames: PL,
  stabilityLevel: 'BETA',
} as const satisfies MetricDeclaration<string>;
const CURRENT = {
  name: 'apiserver_flowcontrol_current_limit_seats',
  help: 'current derived number of execution seats available to each priority level',
  labelNames: PL,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const LOWER = {
  name: 'apiserver_flowcontrol_lower_limit_seats',
  help: 'Configured lower bound on number of execution seats available to each priority level',
  labelNames: PL,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const UPPER = {
  name: 'apiserver_flowcontrol_upper_limit_seats',
  help: 'Configured upper bound on number of execution seats available to each priority level',
  labelNames: PL,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const DEMAND_HIGH_WATERMARK = {
  name: 'apiserver_flowcontrol_demand_seats_high_watermark',
  help: 'High watermark, over last adjustment period, of demand_seats',
  labelNames: PL,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const DEMAND_AVERAGE = {
  name: 'apiserver_flowcontrol_demand_seats_average',
  help: 'Time-weighted average, over last adjustment period, of demand_seats',
  labelNames: PL,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const DEMAND_STDEV = {
  name: 'apiserver_flowcontrol_demand_seats_stdev',
  help: 'Time-weighted standard deviation, over last adjustment period, of demand_seats',
  labelNames: PL,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const DEMAND_SMOOTHED = {
  name: 'apiserver_flowcontrol_demand_seats_smoothed',
  help: 'Smoothed seat demands',
  labelNames: PL,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const TARGET = {
  name: 'apiserver_flowcontrol_target_seats',
  help: 'Seat allocation targets',
  labelNames: PL,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const FAIR_FRAC = {
  name: 'apiserver_flowcontrol_seat_fair_frac',
  help: "Fair fraction of server's concurrency to allocate to each priority level that can use it",
  labelNames: [],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const LOOP_PRESSURE = {
  name: 'apiserver_flowcontrol_event_loop_pressure',
  help: "Pressure of the event loop's delay on flow control, in priority levels shed (least important first)",
  labelNames: [],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const WATCH_COUNT = {
  name: 'apiserver_flowcontrol_watch_count_samples',
  help: 'count of watchers for mutating requests in API Priority and Fairness',
  labelNames: PL_FS,
  buckets: [0, 1, 10, 100, 1000, 10000],
  stabilityLevel: 'ALPHA',
} as const satisfies HistogramDeclaration<string>;
const WORK_ESTIMATED_SEATS = {
  name: 'apiserver_flowcontrol_work_estimated_seats',
  help: 'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness',
  labelNames: PL_FS,
  buckets: [1, 2, 4, 10],
  stabilityLevel: 'ALPHA',
} as const satisfies HistogramDeclaration<string>;
const CONCURRENCY_LIMIT = {
  name: 'apiserver_flowcontrol_request_concurrency_limit',
  help: 'Nominal number of execution seats configured for each priority level',
  labelNames: PL,
  stabilityLevel: 'ALPHA',
  deprecatedVersion: '1.30.0',
} as const satisfies MetricDeclaration<string>;

/** The instruments of one (priority level, flow schema) pair; the gauges are counts the caller updates. */
export interface FlowMetrics {
  /** Requests waiting in queues. */
  inqueue: number;
  /** Requests executing (a watch: while it is set up). */
  executing: number;
  /** Seats held by executing requests (and by finished ones during their additional latency). */
  executingSeats: number;
  /** Subtracts `seats` from {@link executingSeats} (a request's seats were released). */
  releaseSeats: (seats: number) => void;
  dispatched: Counter.Internal;
  /** Wait durations of requests that then executed. */
  waitExecuted: Histogram.Internal<string>;
  /** Wait durations of requests that were then rejected. */
  waitRejected: Histogram.Internal<string>;
  /** Execution durations; `type` is the request kind (regular or watch's initial stage). */
  execution(type: string): Histogram.Internal<string>;
  rejected(reason: string): Counter.Internal;
  /** Watch counts mutating requests were estimated by. */
  watchCount: Histogram.Internal<string>;
  /** Estimated seats (max of initial and final) of requests. */
  workSeats: Histogram.Internal<string>;
}

/** A level's seat demand statistics at an adjustment (seat-demand.ts SeatDemandStats). */
export interface DemandFigures {
  highWatermark: number;
  avg: number;
  stdDev: number;
  smoothed: number;
}

/** The APF metrics of one server. */
export class APFMetrics {
  private readonly rejected: Counter<string>;
  private readonly dispatched: Counter<string>;
  /** Kept referenced: they report through their collect functions. */
  readonly inqueue: Gauge<string>;
  readonly executing: Gauge<string>;
  readonly executingSeats: Gauge<string>;
  private readonly wait: Histogram<string>;
  private readonly execution: Histogram<string>;
  private readonly nominal: Gauge<string>;
  private readonly current: Gauge<string>;
  private readonly concurrencyLimit: Gauge<string>;
  private readonly lower: Gauge<string>;
  private readonly upper: Gauge<string>;
  private readonly demandHighWatermark: Gauge<string>;
  private readonly demandAverage: Gauge<string>;
  private readonly demandStdev: Gauge<string>;
  private readonly demandSmoothed: Gauge<string>;
  private readonly target: Gauge<string>;
  private readonly fairFraction: Gauge<string>;
  private readonly loopPressure: Gauge<string>;
  private readonly watchCount: Histogram<string>;
  private readonly workSeats: Histogram<string>;
  private readonly flows = new Map<string, FlowMetrics>();

  /** Declares the metrics in `r`. */
  constructor(r: StabilityRegistry) {
    this.rejected = r.counter(REJECTED);
    this.dispatched = r.counter(DISPATCHED);
    const flows = this.flows;
    const collect = (pick: (f: FlowMetrics) => number) =>
      function (this: Gauge<string>) {
        for (const [key, f] of flows) {
          const [priorityLevel, flowSchema] = key.split('\u0000');
          this.set({ priority_level: priorityLevel!, flow_schema: flowSchema! }, pick(f));
        }
      };
    this.inqueue = r.gauge(INQUEUE, collect((f) => f.inqueue));
    this.executing = r.gauge(EXECUTING, collect((f) => f.executing));
    this.executingSeats = r.gauge(EXECUTING_SEATS, collect((f) => f.executingSeats));
    this.wait = r.histogram(WAIT);
    this.execution = r.histogram(EXECUTION);
    this.nominal = r.gauge(NOMINAL);
    this.current = r.gauge(CURRENT);
    this.concurrencyLimit = r.gauge(CONCURRENCY_LIMIT);
    this.lower = r.gauge(LOWER);
    this.upper = r.gauge(UPPER);
    this.demandHighWatermark = r.gauge(DEMAND_HIGH_WATERMARK);
    this.demandAverage = r.gauge(DEMAND_AVERAGE);
    this.demandStdev = r.gauge(DEMAND_STDEV);
    this.demandSmoothed = r.gauge(DEMAND_SMOOTHED);
    this.target = r.gauge(TARGET);
    this.fairFraction = r.gauge(FAIR_FRAC);
    this.loopPressure = r.gauge(LOOP_PRESSURE);
    this.watchCount = r.histogram(WATCH_COUNT);
    this.workSeats = r.histogram(WORK_ESTIMATED_SEATS);
  }

  /** The cached instruments of `priorityLevel` × `flowSchema`. */
  flow(priorityLevel: string, flowSchema: string): FlowMetrics {
    const key = `${priorityLevel}\u0000${flowSchema}`;
    const cached = this.flows.get(key);
    if (cached) return cached;
    const pf = { priority_level: priorityLevel, flow_schema: flowSchema };
    const executions = new Map<string, Histogram.Internal<string>>();
    const rejections = new Map<string, Counter.Internal>();
    const flow: FlowMetrics = {
      inqueue: 0,
      executing: 0,
      executingSeats: 0,
      releaseSeats: (seats) => void (flow.executingSeats -= seats),
      dispatched: this.dispatched.labels(pf),
      waitExecuted: this.wait.labels({ ...pf, execute: 'true' }),
      waitRejected: this.wait.labels({ ...pf, execute: 'false' }),
      execution: (type) => {
        let h = executions.get(type);
        if (!h) executions.set(type, (h = this.execution.labels({ ...pf, type })));
        return h;
      },
      rejected: (reason) => {
        let c = rejections.get(reason);
        if (!c) rejections.set(reason, (c = this.rejected.labels({ ...pf, reason })));
        return c;
      },
      watchCount: this.watchCount.labels(pf),
      workSeats: this.workSeats.labels(pf),
    };
    this.flows.set(key, flow);
    return flow;
  }

  /** Records a level's configured limits, in seats (upstream `SetPriorityLevelConfiguration`). */
  configuration(priorityLevel: string, nominal: number, lower: number, upper: number): void {
    const pl = { priority_level: priorityLevel };
    this.concurrencyLimit.set(pl, nominal);
    this.nominal.set(pl, nominal);
    this.lower.set(pl, lower);
    this.upper.set(pl, upper);
  }

  /** Records a level's borrowing adjustment (upstream `NotePriorityLevelConcurrencyAdjustment`): its demand figures, target and current limit (seats). */
  adjustment(priorityLevel: string, demand: DemandFigures, target: number, current: number): void {
    const pl = { priority_level: priorityLevel };
    this.demandHighWatermark.set(pl, demand.highWatermark);
    this.demandAverage.set(pl, demand.avg);
    this.demandStdev.set(pl, demand.stdDev);
    this.demandSmoothed.set(pl, demand.smoothed);
    this.target.set(pl, target);
    this.currentLimit(priorityLevel, current);
  }

  /** Records the seats a level may use now: its borrowing allocation, cut by event-loop pressure (0: shed). */
  currentLimit(priorityLevel: string, seats: number): void {
    this.current.set({ priority_level: priorityLevel }, seats);
  }

  /** Records the event-loop pressure, in levels (loop-pressure.ts). */
  pressure(levels: number): void {
    this.loopPressure.set(levels);
  }

  /** Records the fair fraction of the last allocation (upstream `SetFairFrac`). */
  fairFrac(f: number): void {
    this.fairFraction.set(f);
  }
}
