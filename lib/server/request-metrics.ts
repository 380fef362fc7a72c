/**
 * The request metrics (upstream apiserver/pkg/endpoints/metrics, v1.30): count, latency, SLI
 * latency and response size of every request, the long-running requests in progress, the
 * in-flight requests by kind, and the events and event sizes written to watch clients. Labels
 * come from lib/server/request-labels.ts (bounded whatever the URL).
 */
import { Readable, Transform, type TransformCallback, pipeline } from 'node:stream';
import type { Context, Next } from 'koa';
import type { Counter, Gauge, Histogram } from 'prom-client';
import type { BoundHistogram, HistogramChild } from '../metrics/bound-histogram.js';
import type { WatchEventRecorder } from '../endpoints/endpoint-metrics.js';
import type { RequestContext } from '../request/context.js';
import type { LatencyTrackers } from '../metrics/latency-trackers.js';
import type { HistogramDeclaration, MetricDeclaration, StabilityRegistry } from '../metrics/registry.js';
import { isLongRunning, requestKind, requestLabels, type RequestLabels, type ServesResource } from './request-labels.js';

const LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;
/** The labels without `dry_run` (SLI latency, response sizes, long-running requests). */
const LABELS_NO_DRY_RUN = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;
const GVK = ['group', 'version', 'kind'] as const;

/** Upstream's `apiserver_request_duration_seconds` buckets. */
export const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
/** Upstream's `apiserver_request_sli_duration_seconds` buckets. */
export const REQUEST_SLI_DURATION_BUCKETS = [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
/** Upstream's `apiserver_response_sizes` buckets: ExponentialBuckets(1000, 10, 7), 1 KB to 1 GB. */
export const RESPONSE_SIZE_BUCKETS = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];
/** Upstream's `apiserver_watch_events_sizes` buckets: ExponentialBuckets(1024, 2, 8), 1 KiB to 128 KiB. */
export const WATCH_EVENT_SIZE_BUCKETS = [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];

const REQUESTS = {
  name: 'apiserver_request_total',
  help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
  labelNames: [...LABELS, 'code'],
  stabilityLevel: 'STABLE',
} as const satisfies MetricDeclaration<string>;
const LATENCY = {
  name: 'apiserver_request_duration_seconds',
  help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
  labelNames: LABELS,
  buckets: REQUEST_DURATION_BUCKETS,
  stabilityLevel: 'STABLE',
} as const satisfies HistogramDeclaration<string>;
const SLI_HELP = 'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.';
const SLO_LATENCY = {
  name: 'apiserver_request_slo_duration_seconds',
  help: SLI_HELP,
  labelNames: LABELS_NO_DRY_RUN,
  buckets: REQUEST_SLI_DURATION_BUCKETS,
  stabilityLevel: 'ALPHA',
  deprecatedVersion: '1.27.0',
} as const satisfies HistogramDeclaration<string>;
const SLI_LATENCY = { name: 'apiserver_request_sli_duration_seconds', help: SLI_HELP, labelNames: LABELS_NO_DRY_RUN, buckets: REQUEST_SLI_DURATION_BUCKETS, stabilityLevel: 'ALPHA' } as const satisfies HistogramDeclaration<string>;
const RESPONSE_SIZES = {
  name: 'apiserver_response_sizes',
  help: 'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
  labelNames: LABELS_NO_DRY_RUN,
  buckets: RESPONSE_SIZE_BUCKETS,
  stabilityLevel: 'STABLE',
} as const satisfies HistogramDeclaration<string>;
const LONG_RUNNING = {
  name: 'apiserver_longrunning_requests',
  help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
  labelNames: LABELS_NO_DRY_RUN,
  stabilityLevel: 'STABLE',
} as const satisfies MetricDeclaration<string>;
const INFLIGHT = {
  name: 'apiserver_current_inflight_requests',
  help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
  labelNames: ['request_kind'],
  stabilityLevel: 'STABLE',
} as const satisfies MetricDeclaration<string>;
const WATCH_EVENTS = { name: 'apiserver_watch_events_total', help: 'Number of events sent in watch clients', labelNames: GVK, stabilityLevel: 'ALPHA' } as const satisfies MetricDeclaration<string>;
const WATCH_EVENT_SIZES = {
  name: 'apiserver_watch_events_sizes',
  help: 'Watch event size distribution in bytes',
  labelNames: GVK,
  buckets: WATCH_EVENT_SIZE_BUCKETS,
  stabilityLevel: 'ALPHA',
} as const satisfies HistogramDeclaration<string>;

/** In-flight counts of one request kind: now, and the most since the last scrape. */
interface InflightCount {
  current: number;
  max: number;
}

type NoDryRun = Omit<RequestLabels, 'dry_run'>;

/** Passes a response body through, counting its bytes. */
class ByteCounter extends Transform {
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

function withoutDryRun(l: RequestLabels): NoDryRun {
  return { verb: l.verb, group: l.group, version: l.version, resource: l.resource, subresource: l.subresource, scope: l.scope, component: l.component };
}

/** The request metrics of one server. */
export class RequestMetrics {
  private readonly requests: Counter<(typeof REQUESTS.labelNames)[number]>;
  private readonly latency: Histogram<(typeof LABELS)[number]>;
  /** The deprecated SLO latency, undefined while hidden (not worth recording on every request then). */
  private readonly sloLatency: Histogram<(typeof LABELS_NO_DRY_RUN)[number]> | undefined;
  private readonly sliLatency: Histogram<(typeof LABELS_NO_DRY_RUN)[number]>;
  private readonly responseSizes: Histogram<(typeof LABELS_NO_DRY_RUN)[number]>;
  private readonly longRunning: Gauge<(typeof LABELS_NO_DRY_RUN)[number]>;
  /** `apiserver_watch_events_sizes`; `apiserver_watch_events_total` is its count per label set, added to the counter at each scrape. */
  private readonly watchEventSizes: BoundHistogram<(typeof GVK)[number]>;
  private readonly inflight: Record<'readOnly' | 'mutating', InflightCount> = { readOnly: { current: 0, max: 0 }, mutating: { current: 0, max: 0 } };

  /** `trackers`: the webhook and queue time each request leaves out of its SLI latency. */
  constructor(
    r: StabilityRegistry,
    private readonly trackers: LatencyTrackers,
  ) {
    this.requests = r.counter(REQUESTS);
    this.latency = r.histogram(LATENCY);
    const slo = r.histogram(SLO_LATENCY);
    this.sloLatency = r.hiddenMetrics().includes(SLO_LATENCY.name) ? undefined : slo;
    this.sliLatency = r.histogram(SLI_LATENCY);
    this.responseSizes = r.histogram(RESPONSE_SIZES);
    this.longRunning = r.gauge(LONG_RUNNING);
    const inflight = this.inflight;
    // The most requests in flight since the previous scrape (upstream: in the last second).
    r.gauge(INFLIGHT, function () {
      for (const kind of ['readOnly', 'mutating'] as const) {
        const c = inflight[kind];
        this.set({ request_kind: kind }, c.max);
        c.max = c.current;
      }
    });
    const sizes = (this.watchEventSizes = r.boundHistogram(WATCH_EVENT_SIZES));
    // Events counted up to the previous scrape, per label set of the sizes.
    const counted = new Map<HistogramChild, number>();
    r.counter(WATCH_EVENTS, function () {
      for (const child of sizes.series()) {
        const n = child.count - (counted.get(child) ?? 0);
        if (n > 0) this.inc(child.labels as Record<(typeof GVK)[number], string>, n);
        counted.set(child, child.count);
      }
    });
  }

  /**
   * The recorder of the events written to one watch of `group`/`version`/`kind` (the kind as
   * served): one observation of `apiserver_watch_events_sizes` per event, counted in
   * `apiserver_watch_events_total` too (issue #17 item 3: plain arithmetic per event, no
   * prom-client call).
   */
  watchEventRecorder(group: string, version: string, kind: string): WatchEventRecorder {
    const child = this.watchEventSizes.child({ group, version, kind });
    return (bytes) => child.observe(bytes);
  }

  /**
   * Koa middleware recording every request (outermost, so errors turned into a Status count
   * with their code). It reads the request context the request-info filter stores on the Koa
   * state; `serves` says whether a named resource and subresource exist (else their labels stay
   * empty). A long-running request (watch, proxy, exec…) counts in `apiserver_longrunning_requests`
   * while its response is open and is recorded when that response closes; any other counts in
   * flight until its handler returns.
   */
  middleware(serves: ServesResource) {
    return async (koa: Context, next: Next): Promise<void> => {
      const start = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const ctx = (koa.state as { requestContext?: RequestContext }).requestContext;
        if (ctx) {
          const info = ctx.requestInfo;
          const labels = requestLabels(koa.method, info, koa.querystring, koa.get('Content-Type') || undefined, serves);
          if (isLongRunning(info) && koa.respond === false && !koa.res.writableEnded && !koa.res.destroyed) {
            const lr = withoutDryRun(labels);
            this.longRunning.inc(lr);
            koa.res.once('close', () => {
              this.longRunning.dec(lr);
              this.record(labels, koa.status, start, 0, ctx);
            });
          } else if (koa.body instanceof Readable && koa.respond !== false) {
            // A streamed body (a large list): its size is known once written. One pipeline, so
            // that a client going away (Koa destroys the counter) destroys the body and stops its encoder.
            const counter = new ByteCounter();
            koa.body = pipeline(koa.body, counter, () => undefined);
            koa.res.once('close', () => this.record(labels, koa.status, start, counter.bytes, ctx));
          } else {
            this.record(labels, koa.status, start, koa.response.length ?? 0, ctx);
          }
        }
      }
    };
  }

  /**
   * Koa middleware counting the requests in flight by kind (readOnly, mutating), long-running
   * ones excepted as upstream's max-in-flight filter does; it runs after the request-info filter.
   */
  inflightMiddleware() {
    return async (koa: Context, next: Next): Promise<void> => {
      const info = (koa.state as { requestContext?: RequestContext }).requestContext?.requestInfo;
      if (!info || isLongRunning(info)) return next();
      const c = this.inflight[requestKind(info)];
      c.current++;
      if (c.current > c.max) c.max = c.current;
      try {
        await next();
      } finally {
        c.current--;
      }
    };
  }

  private record(labels: RequestLabels, status: number, start: bigint, size: number, ctx: RequestContext): void {
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    // An object literal, not `{ ...labels, code }`: the spread costs about 1 µs and leaves an
    // object prom-client reads about 2 µs slower (measured on 2026-12-03).
    this.requests.inc({
      verb: labels.verb,
      dry_run: labels.dry_run,
      group: labels.group,
      version: labels.version,
      resource: labels.resource,
      subresource: labels.subresource,
      scope: labels.scope,
      component: labels.component,
      code: String(status),
    });
    this.latency.observe(labels, seconds);
    const rest = withoutDryRun(labels);
    const sli = seconds - this.trackers.excluded(ctx);
    this.sloLatency?.observe(rest, sli);
    this.sliLatency.observe(rest, sli);
    if (labels.verb === 'GET' || labels.verb === 'LIST') this.responseSizes.observe(rest, size);
  }
}
