/**
 * The aggregation layer's wiring (issue #20 capability 1; spec 000 § Other paths; spec 001
 * § Authenticating proxy flags): the Aggregator the handler chain asks first (proxy and
 * discovery merge), over shared informers of APIServices, Services and Endpoints; the post-start
 * hooks that publish the `extension-apiserver-authentication` ConfigMap and run the APIService
 * availability controller on every server, as upstream.
 */
import { readFile } from 'node:fs/promises';
import type { Obj } from '../apis/define.js';
import { APIREGISTRATION_GROUP } from '../apis/apiregistration/v1/index.js';
import { APISERVICE_AVAILABILITY_HOOK, DEFAULT_RECHECK_MS, runAvailabilityController } from '../controllers/apiservice-availability/controller.js';
import { AUTHENTICATION_INFO_HOOK, type AuthenticationInfo, publishAuthenticationInfo } from '../controllers/extension-apiserver-authentication/publisher.js';
import { Aggregator } from '../endpoints/aggregator/aggregator.js';
import { backendGet } from '../endpoints/aggregator/backend-get.js';
import type { ProxyClientCertificate } from '../endpoints/aggregator/transport.js';
import { AggregatorMetrics } from '../metrics/aggregator.js';
import type { StabilityRegistry } from '../metrics/registry.js';
import type { RequestContext } from '../request/context.js';
import type { PostStartHooks } from '../server/hooks.js';
import type { Logger } from '../server/logging.js';
import type { AuthenticationOptions } from '../server/options/authentication-options.js';
import { retryUntilDone } from './controllers.js';
import type { SharedInformers } from './informers.js';

/** The aggregation layer's options (`--proxy-client-*`, `--enable-aggregator-routing`). */
export interface AggregatorOptions {
  /** The certificate presented to extension servers; absent: none. */
  proxyClient?: ProxyClientCertificate;
  /** Route to endpoint addresses (default true) or to the ClusterIP. */
  enableAggregatorRouting?: boolean;
  /** Interval between availability checks of a remote APIService (ms; default 30 s; tests shorten it). */
  availabilityRecheckMs?: number;
  /**
   * Run the availability controller (default true; upstream has no switch: only tests that write
   * an APIService's status themselves turn it off).
   */
  availabilityController?: boolean;
}

/** What the wiring needs from the control plane. */
export interface AggregationDeps {
  informers: SharedInformers;
  authentication: AuthenticationOptions;
  /** The `--client-ca-file` bundle (with the generated CA). */
  clientCAPem?: string;
  ctx: RequestContext;
  signal: AbortSignal;
  log: Logger;
  /** Where the availability metrics are declared. */
  metrics: StabilityRegistry;
}

/** The aggregation layer of one server. */
export interface Aggregation {
  aggregator: Aggregator;
  addHooks(hooks: PostStartHooks): void;
}

async function authenticationInfo(opts: AuthenticationOptions, clientCAPem: string | undefined): Promise<AuthenticationInfo> {
  const info: AuthenticationInfo = {};
  if (clientCAPem) info.clientCAPem = clientCAPem;
  if (opts.requestHeaderClientCaFile) {
    info.requestHeader = {
      clientCAPem: await readFile(opts.requestHeaderClientCaFile, 'utf8'),
      allowedNames: opts.requestHeaderAllowedNames,
      usernameHeaders: opts.requestHeaderUsernameHeaders,
      groupHeaders: opts.requestHeaderGroupHeaders,
      extraHeaderPrefixes: opts.requestHeaderExtraHeadersPrefix,
    };
  }
  return info;
}

/** Builds the aggregation layer (informers are created now and run with the others). */
export function newAggregation(opts: AggregatorOptions = {}, deps: AggregationDeps): Aggregation {
  const onError = (what: string) => (err: unknown) => deps.log.warn({ err }, what);
  const apiServices = deps.informers.informer(APIREGISTRATION_GROUP, 'apiservices');
  const services = deps.informers.informer('', 'services');
  const endpoints = deps.informers.informer('', 'endpoints');
  const aggregator = new Aggregator({
    apiServices,
    services,
    endpoints,
    proxyClient: opts.proxyClient,
    routing: opts.enableAggregatorRouting ?? true,
    onError: (err, what) => deps.log.warn({ err }, what),
  });
  const statusStore = deps.informers.resourceStorage(APIREGISTRATION_GROUP, 'apiservices').subresources.get('status');
  if (!statusStore) throw new Error('the apiservices resource has no status subresource');
  const metrics = new AggregatorMetrics(deps.metrics);
  return {
    aggregator,
    addHooks(hooks) {
      const configMaps = deps.informers.resourceStorage('', 'configmaps').store;
      hooks.add(AUTHENTICATION_INFO_HOOK, (signal) =>
        retryUntilDone(async () => publishAuthenticationInfo(deps.ctx, configMaps, await authenticationInfo(deps.authentication, deps.clientCAPem)), signal, onError(AUTHENTICATION_INFO_HOOK)),
      );
      if (opts.availabilityController === false) return;
      hooks.add(APISERVICE_AVAILABILITY_HOOK, async () => {
        void runAvailabilityController(
          {
            apiServices,
            services,
            endpoints,
            statusStore,
            deps: {
              services: aggregator.services,
              resolve: (a: Obj) => aggregator.resolve(a),
              get: (a, target, path, timeoutMs) => backendGet(a, target, aggregator.proxyClient, path, 'application/json', timeoutMs),
            },
            recheckMs: opts.availabilityRecheckMs ?? DEFAULT_RECHECK_MS,
            ctx: deps.ctx,
            onError: onError(APISERVICE_AVAILABILITY_HOOK),
            metrics,
          },
          deps.signal,
        ).catch(onError(APISERVICE_AVAILABILITY_HOOK));
        await Promise.all([apiServices.waitForSync(), services.waitForSync(), endpoints.waitForSync()]);
      });
    },
  };
}
