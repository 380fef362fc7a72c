/**
 * The aggregation layer's request handling (spec 000 § Other paths; issue #20 capability 1;
 * upstream v1.30 kube-aggregator), after authentication and authorization ran for the request
 * as for any other:
 * - `/apis/<group>/<version>` and everything below it, when the APIService
 *   `<version>.<group>` names a Service: proxied to that Service (proxy.ts) when its `Available`
 *   condition is True (an upgrade request piped through: upgrade.ts), else 503 `service unavailable`; an address that cannot be resolved is
 *   503 `service unavailable` too (upstream logs the reason);
 * - `/apis` and `/apis/<group>`: this server's discovery with the remote groups merged in by
 *   their APIService priorities; in aggregated discovery a remote version appears once its server
 *   answered discovery (remote-discovery.ts).
 * Anything else is left to the server's own handlers.
 */
import type { Context } from 'koa';
import { newServiceUnavailable } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import type { APIGroupDiscovery } from '../discovery/aggregated.js';
import { apiGroup, apiGroupList } from '../discovery/documents.js';
import { serveDiscoveryRoot } from '../discovery/root.js';
import { writeNegotiated } from '../handlers/scope.js';
import type { APIInstaller } from '../installer.js';
import { type BackendResponse, backendGet } from './backend-get.js';
import { type RemoteGroup, mergeGroupDiscoveries, mergeGroupVersions, remoteGroups } from './discovery-merge.js';
import { isUpgrade, proxyRequest } from './proxy.js';
import { proxyUpgrade } from './upgrade.js';
import { RemoteDiscoveryCache, type RemoteVersionDiscovery } from './remote-discovery.js';
import { type ResolvedEndpoint, type ServiceLookup, resolveCluster, resolveEndpoint } from '../../client/service-resolver.js';
import { type ProxyClientCertificate, tlsRequestOptions } from './transport.js';

/** How long a discovery fetch for aggregated discovery may take (ms; upstream's discovery client waits 5 s). */
const DISCOVERY_TIMEOUT_MS = 5_000;

/** What the aggregation layer reads and how it reaches extension servers. */
export interface AggregatorConfig {
  /** APIServices (cluster-scoped; cache key = name). */
  apiServices: Informer;
  /** Services of every namespace. */
  services: Informer;
  /** Endpoints of every namespace. */
  endpoints: Informer;
  /** `--proxy-client-cert-file` / `--proxy-client-key-file`; absent: no client certificate is presented. */
  proxyClient?: ProxyClientCertificate;
  /** `--enable-aggregator-routing`: endpoint addresses (true) or the ClusterIP (false). */
  routing: boolean;
  /** Told of a failed resolution or discovery fetch (logged). */
  onError: (err: unknown, what: string) => void;
}

/** True when `apiService`'s `Available` condition is True. */
export function isAvailable(apiService: Obj): boolean {
  const conditions = ((apiService.status as Obj | undefined)?.conditions ?? []) as Array<{ type?: string; status?: string }>;
  return conditions.some((c) => c.type === 'Available' && c.status === 'True');
}

/** The remote APIService handling; one per server. */
export class Aggregator {
  private readonly lookup: ServiceLookup;
  private readonly discovery: RemoteDiscoveryCache;

  constructor(private readonly cfg: AggregatorConfig) {
    this.lookup = {
      service: (ns, name) => cfg.services.get(`${ns}/${name}`),
      endpoints: (ns, name) => cfg.endpoints.get(`${ns}/${name}`),
    };
    this.discovery = new RemoteDiscoveryCache(
      (a, path, accept) => this.get(a, path, accept, DISCOVERY_TIMEOUT_MS),
      (err, name) => cfg.onError(err, `discovery of apiservice ${name}`),
    );
  }

  /** The Service lookups (informer caches) the resolver and the availability controller share. */
  get services(): ServiceLookup {
    return this.lookup;
  }

  /** The proxy client certificate, if configured. */
  get proxyClient(): ProxyClientCertificate | undefined {
    return this.cfg.proxyClient;
  }

  /**
   * The address a request for `apiService` goes to (endpoint or ClusterIP by `--enable-aggregator-routing`).
   * @throws ResolveError with upstream's message.
   */
  resolve(apiService: Obj): ResolvedEndpoint {
    const svc = ((apiService.spec as Obj | undefined)?.service ?? {}) as { namespace?: string; name?: string; port?: number };
    const resolver = this.cfg.routing ? resolveEndpoint : resolveCluster;
    return resolver(this.lookup, svc.namespace ?? '', svc.name ?? '', svc.port ?? 443);
  }

  /**
   * GETs `path` of `apiService`'s server as the aggregator's own user.
   * @throws ResolveError or the network error.
   */
  get(apiService: Obj, path: string, accept: string, timeoutMs: number): Promise<BackendResponse> {
    return backendGet(apiService, this.resolve(apiService), this.cfg.proxyClient, path, accept, timeoutMs);
  }

  /** The APIService of a remote group version, or undefined when it is served here or not at all. */
  remote(group: string, version: string): Obj | undefined {
    const a = this.cfg.apiServices.get(`${version}.${group}`);
    return a && (a.spec as Obj | undefined)?.service ? a : undefined;
  }

  /**
   * Answers the request when the aggregation layer owns its path (see the module description);
   * false (at once, without a promise) leaves it to the server's own handlers.
   * @throws StatusError 503 for an unavailable or unreachable remote APIService.
   */
  serve(koa: Context, req: RequestContext, installer: APIInstaller): false | Promise<boolean> {
    const info = req.requestInfo;
    if (info.isResourceRequest) {
      // Decided from the parsed path, with no work per request for the server's own groups.
      const a = info.apiPrefix === 'apis' ? this.remote(info.apiGroup, info.apiVersion) : undefined;
      return a ? this.proxy(koa, req, a).then(() => true) : false;
    }
    return koa.path.startsWith('/apis') ? this.serveNonResource(koa, req, installer) : false;
  }

  /** {@link serve} for a path that is not a resource request: a remote group version's own paths, or discovery merged with the remote groups. */
  private async serveNonResource(koa: Context, req: RequestContext, installer: APIInstaller): Promise<boolean> {
    const parts = koa.path.split('/').filter((p) => p !== '');
    if (parts[0] !== 'apis') return false;
    if (parts.length >= 3) {
      const a = this.remote(parts[1]!, parts[2]!);
      if (!a) return false;
      await this.proxy(koa, req, a);
      return true;
    }
    if (koa.method !== 'GET' && koa.method !== 'HEAD') return false;
    const remote = remoteGroups(this.cfg.apiServices.list());
    if (remote.length === 0) return false;
    const local = new Map<string, string[]>();
    for (const g of installer.groupVersions()) if (g.group !== '') local.set(g.group, [...(local.get(g.group) ?? []), g.version]);
    const merged = mergeGroupVersions(local, remote);
    if (parts.length === 1) {
      await serveDiscoveryRoot(koa, installer, false, () => apiGroupList(merged), (items) => this.withRemote(items, remote));
      return true;
    }
    const versions = remote.some((g) => g.name === parts[1]) ? merged.get(parts[1]!) : undefined;
    if (!versions) return false;
    await writeNegotiated(koa, 200, apiGroup(parts[1]!, versions));
    return true;
  }

  private async proxy(koa: Context, req: RequestContext, apiService: Obj): Promise<void> {
    if (!isAvailable(apiService)) throw newServiceUnavailable('service unavailable');
    let target: ResolvedEndpoint;
    try {
      target = this.resolve(apiService);
    } catch (err) {
      this.cfg.onError(err, `resolving apiservice ${String((apiService.metadata as Obj | undefined)?.name)}`);
      throw newServiceUnavailable('service unavailable');
    }
    const options = tlsRequestOptions(apiService, target, this.cfg.proxyClient);
    await (isUpgrade(koa.req.headers) ? proxyUpgrade(koa, req, options) : proxyRequest(koa, req, options));
  }

  /** Aggregated discovery's groups with every available remote version whose document was read. */
  private async withRemote(items: APIGroupDiscovery[], remote: readonly RemoteGroup[]): Promise<APIGroupDiscovery[]> {
    const docs = new Map<Obj, RemoteVersionDiscovery>();
    const names = new Set<string>();
    await Promise.all(
      remote.flatMap((g) =>
        g.apiServices.map(async (a) => {
          names.add(String((a.metadata as Obj | undefined)?.name));
          if (!isAvailable(a)) return;
          const doc = await this.discovery.get(a);
          if (doc) docs.set(a, doc);
        }),
      ),
    );
    this.discovery.retain(names);
    // The discovery types name only `Current`; a kept document says `Stale` on the wire, as upstream.
    return mergeGroupDiscoveries(items, remote, (g) => g.apiServices.flatMap((a) => (docs.has(a) ? [docs.get(a) as unknown as APIGroupDiscovery['versions'][number]] : [])));
  }
}
