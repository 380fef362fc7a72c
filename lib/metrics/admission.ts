/**
 * Admission metrics (upstream apiserver/pkg/admission/metrics, v1.30): the latency of each
 * admission step (the whole mutating or validating phase; also as a summary of its quantiles over
 * the last five hours), of each admission controller and of each webhook call, by operation and
 * whether it rejected; the webhook rejections by error type and rejection code, and the webhook
 * requests by HTTP code. Webhook time also goes to the
 * request's latency tracker (left out of `apiserver_request_sli_duration_seconds`).
 */
import type { Counter, Histogram } from 'prom-client';
import type { LatencyTrackers } from './latency-trackers.js';
import type { HistogramDeclaration, MetricDeclaration, StabilityRegistry, SummaryDeclaration } from './registry.js';
import type { WindowedSummary } from './windowed-summary.js';

/** Upstream's step and controller latency buckets (seconds). */
export const ADMISSION_DURATION_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
/** Upstream's webhook latency buckets (seconds). */
export const WEBHOOK_DURATION_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];
/** The step summary's quantiles (component-base's default objectives 0.5, 0.9, 0.99). */
export const STEP_SUMMARY_QUANTILES = [0.5, 0.9, 0.99];
/** The step summary's sliding window: upstream's latencySummaryMaxAge, 5 hours (seconds). */
export const STEP_SUMMARY_MAX_AGE_SECONDS = 5 * 60 * 60;
/** The window's buckets: client_golang's DefAgeBuckets. */
const STEP_SUMMARY_AGE_BUCKETS = 5;
/** Codes above this are reported as it (upstream: bounded cardinality). */
const MAX_CODE = 600;

const STEP = {
  name: 'apiserver_admission_step_admission_duration_seconds',
  help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
  labelNames: ['type', 'operation', 'rejected'],
  buckets: ADMISSION_DURATION_BUCKETS,
  stabilityLevel: 'STABLE',
} as const satisfies HistogramDeclaration<string>;
const STEP_SUMMARY = {
  name: 'apiserver_admission_step_admission_duration_seconds_summary',
  help: 'Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
  labelNames: STEP.labelNames,
  percentiles: STEP_SUMMARY_QUANTILES,
  maxAgeSeconds: STEP_SUMMARY_MAX_AGE_SECONDS,
  ageBuckets: STEP_SUMMARY_AGE_BUCKETS,
  stabilityLevel: 'ALPHA',
} as const satisfies SummaryDeclaration<string>;
const CONTROLLER = {
  name: 'apiserver_admission_controller_admission_duration_seconds',
  help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
  labelNames: ['name', 'type', 'operation', 'rejected'],
  buckets: ADMISSION_DURATION_BUCKETS,
  stabilityLevel: 'STABLE',
} as const satisfies HistogramDeclaration<string>;
const WEBHOOK = {
  name: 'apiserver_admission_webhook_admission_duration_seconds',
  help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
  labelNames: ['name', 'type', 'operation', 'rejected'],
  buckets: WEBHOOK_DURATION_BUCKETS,
  stabilityLevel: 'STABLE',
} as const satisfies HistogramDeclaration<string>;
const WEBHOOK_REJECTIONS = {
  name: 'apiserver_admission_webhook_rejection_count',
  help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
  labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const WEBHOOK_REQUESTS = {
  name: 'apiserver_admission_webhook_request_total',
  help: 'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
  labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;

/** An admission step: the mutating (`admit`) or validating (`validate`) phase. */
export type AdmissionStep = 'admit' | 'validate';
/** How a webhook call ended: allowed, rejected by the webhook (with its code), or failed. */
export type WebhookOutcome = { rejected: false } | { rejected: true; errorType: 'no_error'; code: number } | { rejected: true; errorType: 'calling_webhook_error' | 'apiserver_internal_error' };

/** The admission metrics of one server. */
export class AdmissionMetrics {
  private readonly step: Histogram<(typeof STEP.labelNames)[number]>;
  private readonly stepSummary: WindowedSummary<(typeof STEP.labelNames)[number]>;
  private readonly controller: Histogram<(typeof CONTROLLER.labelNames)[number]>;
  private readonly webhook: Histogram<(typeof WEBHOOK.labelNames)[number]>;
  private readonly webhookRejections: Counter<(typeof WEBHOOK_REJECTIONS.labelNames)[number]>;
  private readonly webhookRequests: Counter<(typeof WEBHOOK_REQUESTS.labelNames)[number]>;

  /** `trackers` receives each webhook call's time per request. */
  constructor(
    r: StabilityRegistry,
    private readonly trackers: LatencyTrackers,
  ) {
    this.step = r.histogram(STEP);
    this.stepSummary = r.summary(STEP_SUMMARY);
    this.controller = r.histogram(CONTROLLER);
    this.webhook = r.histogram(WEBHOOK);
    this.webhookRejections = r.counter(WEBHOOK_REJECTIONS);
    this.webhookRequests = r.counter(WEBHOOK_REQUESTS);
  }

  /** One admission phase of `operation` (CREATE, UPDATE, DELETE, CONNECT) that took `seconds`: the step histogram and summary. */
  observeStep(type: AdmissionStep, operation: string, rejected: boolean, seconds: number): void {
    const labels = { type, operation, rejected: String(rejected) };
    this.step.observe(labels, seconds);
    this.stepSummary.observe(labels, seconds);
  }

  /** One admission controller (plugin `name`) run in a phase. */
  observeController(name: string, type: AdmissionStep, operation: string, rejected: boolean, seconds: number): void {
    this.controller.observe({ name, type, operation, rejected: String(rejected) }, seconds);
  }

  /**
   * One call of webhook `name` (`type` `admit` for mutating, `validating` as upstream labels it)
   * for the request `ctx` (its context object), `httpCode` the webhook's HTTP answer (0: none).
   */
  observeWebhook(ctx: object, name: string, type: 'admit' | 'validating', operation: string, seconds: number, httpCode: number, outcome: WebhookOutcome): void {
    const rejected = String(outcome.rejected);
    this.webhook.observe({ name, type, operation, rejected }, seconds);
    this.webhookRequests.inc({ name, type, operation, code: String(Math.min(httpCode, MAX_CODE)), rejected });
    if (outcome.rejected) {
      const code = outcome.errorType === 'no_error' ? Math.min(outcome.code, MAX_CODE) : 0;
      this.webhookRejections.inc({ name, type, operation, error_type: outcome.errorType, rejection_code: String(code) });
    }
    this.trackers.add(ctx, seconds);
  }
}
