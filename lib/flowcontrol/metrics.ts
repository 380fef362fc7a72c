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
  /** Seats held by executing requests. */
  executingSeats: number;
  dispatched: Counter.Internal;
  /** Wait durations of requests that then executed. */
  waitExecuted: Histogram.Internal<string>;
  /** Wait durations of requests that were then rejected. */
  waitRejected: Histogram.Internal<string>;
  /** Execution durations; `type` is the request kind (regular or watch's initial stage). */
  execution(type: string): Histogram.Internal<string>;
  rejected(reason: string): Counter.Internal;
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
  }

  /** The cached instruments of `priorityLevel` × `flowSchema`. */
  flow(priorityLevel: string, flowSchema: string): FlowMetrics {
    const key = `${priorityLevel}\u0000${flowSchema}`;
    let f = this.flows.get(key);
    if (f) return f;
    const pf = { priority_level: priorityLevel, flow_schema: flowSchema };
    const executions = new Map<string, Histogram.Internal<string>>();
    const rejections = new Map<string, Counter.Internal>();
    f = {
      inqueue: 0,
      executing: 0,
      executingSeats: 0,
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
    };
    this.flows.set(key, f);
    return f;
  }

  /** Records a level's nominal and current limits (seats). */
  limits(priorityLevel: string, nominal: number, current: number): void {
    this.nominal.set({ priority_level: priorityLevel }, nominal);
    this.concurrencyLimit.set({ priority_level: priorityLevel }, nominal);
    this.current.set({ priority_level: priorityLevel }, current);
  }
}
