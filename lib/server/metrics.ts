/**
 * Request metrics on `/metrics` (prom-client): request counts and latencies by verb, group,
 * resource and code — few labels, so rendering stays cheap (LIBRARIES.md § metrics) — the
 * requested deprecated APIs, watch-cache sizes and configuration reloads. Every metric declares
 * its stability level (spec 001 § Deprecation rules, rule 8; lib/metrics/registry.ts).
 */
import type { Context, Next } from 'koa';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DeprecatedAPIRecorder, DeprecatedAPIRequest } from '../endpoints/deprecated-api.js';
import type { RequestContext } from '../request/context.js';
import { type HistogramDeclaration, type MetricDeclaration, StabilityRegistry, type StabilityRegistryOptions } from '../metrics/registry.js';

const REQUESTS = {
  name: 'apiserver_request_total',
  help: 'Counter of apiserver requests broken out for each verb, group, resource and HTTP response code.',
  labelNames: ['verb', 'group', 'resource', 'subresource', 'code'],
  stabilityLevel: 'STABLE',
} as const satisfies MetricDeclaration<string>;
const LATENCY = {
  name: 'apiserver_request_duration_seconds',
  help: 'Response latency distribution in seconds for each verb, group and resource.',
  labelNames: ['verb', 'group', 'resource'],
  buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
  stabilityLevel: 'STABLE',
} as const satisfies HistogramDeclaration<string>;
const DEPRECATED_APIS = {
  name: 'apiserver_requested_deprecated_apis',
  help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
  labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
  stabilityLevel: 'STABLE',
} as const satisfies MetricDeclaration<string>;
const CACHE_OBJECTS = {
  name: 'apiserver_watch_cache_objects',
  help: 'Number of objects held by the watch cache of each resource.',
  labelNames: ['resource'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const CACHE_EVENTS = {
  name: 'apiserver_watch_cache_events',
  help: 'Number of events in the history window of the watch cache of each resource (bounded; the memory it holds).',
  labelNames: ['resource'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const CACHE_WATCHERS = {
  name: 'apiserver_watch_cache_watchers',
  help: 'Number of watches served by the watch cache of each resource.',
  labelNames: ['resource'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const RELOAD_LABELS = ['apiserver_id_hash', 'status'] as const;
/** The reload counter and last-reload timestamp of the `authentication` or `authorization` configuration controller. */
function reloadMetrics(what: 'authentication' | 'authorization') {
  const declare = (name: string, help: string) =>
    ({ name: `apiserver_${what}_config_controller_${name}`, help, labelNames: RELOAD_LABELS, stabilityLevel: 'ALPHA' }) as const satisfies MetricDeclaration<string>;
  return {
    reloads: declare('automatic_reloads_total', `Total number of automatic reloads of ${what} configuration split by status and apiserver identity.`),
    time: declare('automatic_reload_last_timestamp_seconds', `Timestamp of the last automatic reload of ${what} configuration split by status and apiserver identity.`),
  };
}
const AUTHENTICATION_RELOAD = reloadMetrics('authentication');
const AUTHORIZATION_RELOAD = reloadMetrics('authorization');

/**
 * The server's metric registry and instruments, each declared with its stability level
 * (lib/metrics/registry.ts; upstream's level for the metrics upstream has).
 */
export class ServerMetrics implements DeprecatedAPIRecorder {
  private readonly stability: StabilityRegistry;
  private readonly requests: Counter<(typeof REQUESTS.labelNames)[number]>;
  private readonly latency: Histogram<(typeof LATENCY.labelNames)[number]>;
  private readonly deprecatedAPIs: Gauge<(typeof DEPRECATED_APIS.labelNames)[number]>;
  private readonly cacheObjects: Gauge<'resource'>;
  private readonly cacheEvents: Gauge<'resource'>;
  private readonly cacheWatchers: Gauge<'resource'>;
  private readonly authenticationConfigReloads: Counter<(typeof RELOAD_LABELS)[number]>;
  private readonly authenticationConfigReloadTime: Gauge<(typeof RELOAD_LABELS)[number]>;
  private readonly authorizationConfigReloads: Counter<(typeof RELOAD_LABELS)[number]>;
  private readonly authorizationConfigReloadTime: Gauge<(typeof RELOAD_LABELS)[number]>;

  /** `opts.showHidden`: `--show-hidden-metrics-for-version` was given (validated by the flags). */
  constructor(opts: StabilityRegistryOptions = {}) {
    const r = (this.stability = new StabilityRegistry(opts));
    this.requests = r.counter(REQUESTS);
    this.latency = r.histogram(LATENCY);
    this.deprecatedAPIs = r.gauge(DEPRECATED_APIS);
    this.cacheObjects = r.gauge(CACHE_OBJECTS);
    this.cacheEvents = r.gauge(CACHE_EVENTS);
    this.cacheWatchers = r.gauge(CACHE_WATCHERS);
    this.authenticationConfigReloads = r.counter(AUTHENTICATION_RELOAD.reloads);
    this.authenticationConfigReloadTime = r.gauge(AUTHENTICATION_RELOAD.time);
    this.authorizationConfigReloads = r.counter(AUTHORIZATION_RELOAD.reloads);
    this.authorizationConfigReloadTime = r.gauge(AUTHORIZATION_RELOAD.time);
  }

  /** The exported metrics. */
  get registry(): Registry {
    return this.stability.registry;
  }

  /**
   * Records one request served by a deprecated API (spec 001 § Effects of calling a deprecated
   * endpoint): `apiserver_requested_deprecated_apis{group,version,resource,subresource,removed_release}` = 1.
   */
  requestedDeprecatedAPI(r: DeprecatedAPIRequest): void {
    this.deprecatedAPIs.set({ group: r.group, version: r.version, resource: r.resource, subresource: r.subresource, removed_release: r.removedRelease }, 1);
  }

  /** Records the sizes of one resource's watch cache. */
  watchCache(resource: string, stats: { objects: number; events: number; watchers: number }): void {
    this.cacheObjects.set({ resource }, stats.objects);
    this.cacheEvents.set({ resource }, stats.events);
    this.cacheWatchers.set({ resource }, stats.watchers);
  }

  /**
   * Records one automatic reload of the `--authentication-config` file (spec 001 § Authentication
   * configuration file): `status` success or failure, `apiServerIDHash` the server identity as
   * upstream labels it (`sha256:<hex>`), at `nowMs` (milliseconds since the epoch).
   */
  authenticationConfigReload(status: 'success' | 'failure', apiServerIDHash: string, nowMs = Date.now()): void {
    const labels = { apiserver_id_hash: apiServerIDHash, status };
    this.authenticationConfigReloads.inc(labels);
    this.authenticationConfigReloadTime.set(labels, nowMs / 1000);
  }

  /**
   * Records one automatic reload of the `--authorization-config` file (spec 001 § Authorization):
   * `status` success or failure, `apiServerIDHash` the server identity (`sha256:<hex>`), at
   * `nowMs` (milliseconds since the epoch).
   */
  authorizationConfigReload(status: 'success' | 'failure', apiServerIDHash: string, nowMs = Date.now()): void {
    const labels = { apiserver_id_hash: apiServerIDHash, status };
    this.authorizationConfigReloads.inc(labels);
    this.authorizationConfigReloadTime.set(labels, nowMs / 1000);
  }

  /** Koa middleware recording one sample per finished request (watches count at their start). */
  middleware() {
    return async (koa: Context, next: Next): Promise<void> => {
      const start = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const ctx = (koa.state as { requestContext?: RequestContext }).requestContext;
        const info = ctx?.requestInfo;
        const verb = info?.isResourceRequest ? info.verb.toUpperCase() : koa.method;
        const group = info?.apiGroup ?? '';
        const resource = info?.resource ?? '';
        this.requests.inc({ verb, group, resource, subresource: info?.subresource ?? '', code: String(koa.status) });
        if (verb !== 'WATCH') this.latency.observe({ verb, group, resource }, Number(process.hrtime.bigint() - start) / 1e9);
      }
    };
  }

  /** Serves the text exposition format. */
  async serve(koa: Context): Promise<void> {
    koa.type = this.registry.contentType;
    koa.body = await this.registry.metrics();
  }
}
