/**
 * The server's metrics on `/metrics` (spec 000 § Other paths; upstream v1.30 names, labels,
 * buckets and stability levels): the request metrics (lib/server/request-metrics.ts), storage
 * and watch cache, admission, authentication and authorization, the requested deprecated APIs,
 * configuration reloads, the requests the server ends itself, and Node's process and runtime
 * metrics. Every metric declares its stability level (spec 001 § Deprecation rules, rule 8;
 * lib/metrics/registry.ts); Node's default metrics, which have no upstream counterpart (upstream
 * exports Go's `go_*`), are declared ALPHA. Other layers register their own metrics (audit, flow
 * control) into {@link ServerMetrics.stability}.
 */
import type { Context } from 'koa';
import type { Counter, Gauge, Registry } from 'prom-client';
import { SYSTEM_NAMESPACE } from '../apis/vendor.js';
import type { DeprecatedAPIRequest } from '../endpoints/deprecated-api.js';
import type { EndpointMetrics, RequestTerminationRecorder, WatchEventRecorder } from '../endpoints/endpoint-metrics.js';
import type { ResourceEntry } from '../endpoints/handlers/scope.js';
import { AdmissionMetrics } from '../metrics/admission.js';
import { AuthMetrics } from '../metrics/auth.js';
import { renderExposition } from '../metrics/exposition.js';
import { LatencyTrackers } from '../metrics/latency-trackers.js';
import { type MetricDeclaration, StabilityRegistry, type StabilityRegistryOptions } from '../metrics/registry.js';
import { RequestTerminationMetrics } from '../metrics/request-terminations.js';
import { runtimeRegistry } from '../metrics/runtime.js';
import { type EtcdResourceMetrics, groupResourceString, StorageMetrics } from '../metrics/storage.js';
import { type CacheSizes, type CacherMetrics, WatchCacheMetrics } from '../metrics/watch-cache.js';
import type { RequestInfo } from '../request/request-info.js';
import { RequestMetrics } from './request-metrics.js';
import { requestTerminationRecorder } from './request-terminations.js';

const DEPRECATED_APIS = {
  name: 'apiserver_requested_deprecated_apis',
  help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
  labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
  stabilityLevel: 'STABLE',
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
/** Upstream compressUsername's known identities (the system namespace's default service account in our spelling). */
const KNOWN_USERS: ReadonlySet<string> = new Set(['admin', 'client', 'kube_proxy', 'kubelet', `system:serviceaccount:${SYSTEM_NAMESPACE}:default`]);

/** Finds the served resource of a group, version and resource (the API installer). */
export interface ResourceLookup {
  lookup(group: string, version: string, resource: string): ResourceEntry | undefined;
}

/** The recorders of one stored resource (see {@link ServerMetrics.resourceMetrics}). */
export interface ResourceMetrics {
  etcd: EtcdResourceMetrics;
  /** The recorder of the resource's watch cache holding at most `capacity` events. */
  cacher(capacity: number): CacherMetrics;
  /** Receives the watch cache's sizes. */
  onStats(s: CacheSizes): void;
}

/**
 * The server's metric registry and instruments, each declared with its stability level
 * (lib/metrics/registry.ts; upstream's level for the metrics upstream has).
 */
export class ServerMetrics implements EndpointMetrics {
  /** The registry every layer declares its metrics in (audit, flow control…). */
  readonly stability: StabilityRegistry;
  /** Webhook and queue time per request, left out of the SLI latency. */
  readonly latency = new LatencyTrackers();
  readonly requests: RequestMetrics;
  readonly storage: StorageMetrics;
  readonly watchCaches: WatchCacheMetrics;
  readonly admission: AdmissionMetrics;
  readonly auth: AuthMetrics;
  /** Requests the server ends itself: terminations, aborts, post-timeout activity. */
  readonly terminations: RequestTerminationMetrics;
  private readonly deprecatedAPIs: Gauge<(typeof DEPRECATED_APIS.labelNames)[number]>;
  private readonly authenticationConfigReloads: Counter<(typeof RELOAD_LABELS)[number]>;
  private readonly authenticationConfigReloadTime: Gauge<(typeof RELOAD_LABELS)[number]>;
  private readonly authorizationConfigReloads: Counter<(typeof RELOAD_LABELS)[number]>;
  private readonly authorizationConfigReloadTime: Gauge<(typeof RELOAD_LABELS)[number]>;
  /** The registries `/metrics` renders: the server's, then the process's runtime metrics. */
  private readonly exported: Registry[];

  /** `opts.showHidden`: `--show-hidden-metrics-for-version` was given (validated by the flags). */
  constructor(opts: StabilityRegistryOptions = {}) {
    const r = (this.stability = new StabilityRegistry(opts));
    this.requests = new RequestMetrics(r, this.latency);
    this.storage = new StorageMetrics(r);
    this.watchCaches = new WatchCacheMetrics(r);
    this.admission = new AdmissionMetrics(r, this.latency);
    this.auth = new AuthMetrics(r, KNOWN_USERS);
    this.terminations = new RequestTerminationMetrics(r);
    this.deprecatedAPIs = r.gauge(DEPRECATED_APIS);
    this.authenticationConfigReloads = r.counter(AUTHENTICATION_RELOAD.reloads);
    this.authenticationConfigReloadTime = r.gauge(AUTHENTICATION_RELOAD.time);
    this.authorizationConfigReloads = r.counter(AUTHORIZATION_RELOAD.reloads);
    this.authorizationConfigReloadTime = r.gauge(AUTHORIZATION_RELOAD.time);
    this.exported = [r.registry, runtimeRegistry()];
  }

  /** The exported metrics. */
  get registry(): Registry {
    return this.stability.registry;
  }

  /** The stability registry, for other layers' metrics (API Priority and Fairness) to declare theirs in. */
  get stabilityRegistry(): StabilityRegistry {
    return this.stability;
  }

  /**
   * Records one request served by a deprecated API (spec 001 § Effects of calling a deprecated
   * endpoint): `apiserver_requested_deprecated_apis{group,version,resource,subresource,removed_release}` = 1.
   */
  requestedDeprecatedAPI(r: DeprecatedAPIRequest): void {
    this.deprecatedAPIs.set({ group: r.group, version: r.version, resource: r.resource, subresource: r.subresource, removed_release: r.removedRelease }, 1);
  }

  /** The recorder of the events of one watch of the served `group`/`version`/`kind` (`apiserver_watch_events_*`). */
  watchEvents(group: string, version: string, kind: string): WatchEventRecorder {
    return this.requests.watchEventRecorder(group, version, kind);
  }

  /**
   * Records the sizes of one resource's watch cache: ours by plural `resource`, the upstream ones
   * (`apiserver_watch_cache_resource_version`, `apiserver_storage_objects`) by `groupResource`
   * (`pods`, `deployments.apps`; default `resource`).
   */
  watchCache(resource: string, stats: CacheSizes, groupResource = resource): void {
    this.watchCaches.sizes(resource, groupResource, stats);
    this.storage.setObjectCount(groupResource, stats.objects);
  }

  /**
   * The recorders of one resource stored under `keyRoot` (`<etcd prefix>/<group or core>/<resource>`,
   * lib/registry/generic/resource-storage.ts): its etcd requests, and, for a watch cache of
   * `capacity` events, the cache's events, LISTs and sizes. Labels: upstream's group-resource
   * string (`pods`, `deployments.apps`); the cache's `resource_prefix` is the key root below the
   * etcd prefix (`/core/pods`).
   */
  resourceMetrics(keyRoot: string, etcdPrefix: string): ResourceMetrics {
    const rel = keyRoot.slice(etcdPrefix.replace(/\/+$/, '').length);
    const [, group = '', resource = ''] = rel.split('/');
    const groupResource = groupResourceString(group === 'core' ? '' : group, resource);
    return {
      etcd: this.storage.forResource(groupResource),
      cacher: (capacity) => this.watchCaches.forResource(groupResource, rel, capacity),
      onStats: (s) => this.watchCache(resource, s, groupResource),
    };
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

  /**
   * Koa middleware recording every request (the outermost one: lib/server/request-metrics.ts);
   * `installer` says which resources and subresources are served (without it none is, and
   * resource requests are labelled without group, version and resource).
   */
  middleware(installer?: ResourceLookup) {
    return this.requests.middleware((info) => servesRequest(installer, info));
  }

  /**
   * The recorder the timeout and flow-control filters report the requests they end to
   * (lib/server/request-terminations.ts); `installer` as for {@link middleware}.
   */
  terminationRecorder(installer?: ResourceLookup): RequestTerminationRecorder {
    return requestTerminationRecorder(this.terminations, (info) => servesRequest(installer, info));
  }

  /** Koa middleware counting requests in flight (`apiserver_current_inflight_requests`); after the request-info filter. */
  inflight() {
    return this.requests.inflightMiddleware();
  }

  /** The text exposition of every exported metric, rendered in slices that leave the event loop free (lib/metrics/exposition.ts). */
  render(): Promise<string> {
    return renderExposition(this.exported);
  }

  /** Serves {@link render} as `text/plain; version=0.0.4`. */
  async serve(koa: Context): Promise<void> {
    const body = await this.render();
    koa.type = this.registry.contentType;
    koa.body = body;
  }
}

/** Whether `installer` serves the resource and subresource of `info`. */
function servesRequest(installer: ResourceLookup | undefined, info: RequestInfo): boolean {
  const entry = installer?.lookup(info.apiGroup, info.apiVersion, info.resource);
  if (!entry) return false;
  const sub = info.subresource;
  return sub === '' || entry.subresources.has(sub) || (entry.creaters?.has(sub) ?? false) || (entry.updaters?.has(sub) ?? false);
}
