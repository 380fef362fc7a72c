/**
 * Request metrics on `/metrics` (prom-client): request counts and latencies by verb, group,
 * resource and code — few labels, so rendering stays cheap (LIBRARIES.md § metrics).
 */
import type { Context, Next } from 'koa';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestContext } from '../request/context.js';

/** The server's metric registry and request instruments. */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'apiserver_request_total',
    help: 'Counter of apiserver requests broken out for each verb, group, resource and HTTP response code.',
    labelNames: ['verb', 'group', 'resource', 'subresource', 'code'],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Response latency distribution in seconds for each verb, group and resource.',
    labelNames: ['verb', 'group', 'resource'],
    buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [this.registry],
  });

  private readonly cacheObjects = new Gauge({
    name: 'apiserver_watch_cache_objects',
    help: 'Number of objects held by the watch cache of each resource.',
    labelNames: ['resource'],
    registers: [this.registry],
  });
  private readonly cacheEvents = new Gauge({
    name: 'apiserver_watch_cache_events',
    help: 'Number of events in the history window of the watch cache of each resource (bounded; the memory it holds).',
    labelNames: ['resource'],
    registers: [this.registry],
  });
  private readonly cacheWatchers = new Gauge({
    name: 'apiserver_watch_cache_watchers',
    help: 'Number of watches served by the watch cache of each resource.',
    labelNames: ['resource'],
    registers: [this.registry],
  });

  /** Records the sizes of one resource's watch cache. */
  watchCache(resource: string, stats: { objects: number; events: number; watchers: number }): void {
    this.cacheObjects.set({ resource }, stats.objects);
    this.cacheEvents.set({ resource }, stats.events);
    this.cacheWatchers.set({ resource }, stats.watchers);
  }

  private readonly authenticationConfigReloads = new Counter({
    name: 'apiserver_authentication_config_controller_automatic_reloads_total',
    help: 'Total number of automatic reloads of authentication configuration split by status and apiserver identity.',
    labelNames: ['apiserver_id_hash', 'status'],
    registers: [this.registry],
  });
  private readonly authenticationConfigReloadTime = new Gauge({
    name: 'apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds',
    help: 'Timestamp of the last automatic reload of authentication configuration split by status and apiserver identity.',
    labelNames: ['apiserver_id_hash', 'status'],
    registers: [this.registry],
  });

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

  private readonly authorizationConfigReloads = new Counter({
    name: 'apiserver_authorization_config_controller_automatic_reloads_total',
    help: 'Total number of automatic reloads of authorization configuration split by status and apiserver identity.',
    labelNames: ['apiserver_id_hash', 'status'],
    registers: [this.registry],
  });
  private readonly authorizationConfigReloadTime = new Gauge({
    name: 'apiserver_authorization_config_controller_automatic_reload_last_timestamp_seconds',
    help: 'Timestamp of the last automatic reload of authorization configuration split by status and apiserver identity.',
    labelNames: ['apiserver_id_hash', 'status'],
    registers: [this.registry],
  });

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
