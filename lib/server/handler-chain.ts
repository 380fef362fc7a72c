/**
 * `buildHandlerChain`: the Koa middleware stack in the order of ARCHITECTURE.md § One request,
 * end to end — non-API filters (errors → Status, the public console files), then request info,
 * cache control, timeout, authentication, impersonation, authorization, then fixed paths (health,
 * version, metrics), discovery and resources.
 */
import { isLongRunning as isLongRunningRequest } from './request-labels.js';
import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import type { UnionAuthenticator } from '../authentication/union.js';
import type { AuditPipeline } from '../audit/pipeline.js';
import type { Authorizer } from '../authorization/interface.js';
import type { OpenIDMetadata } from '../authentication/serviceaccount/openid-metadata.js';
import type { Aggregator } from '../endpoints/aggregator/aggregator.js';
import { serveDiscovery } from '../endpoints/discovery/handler.js';
import { withAudit, withAuditInit } from '../endpoints/filters/audit.js';
import { withAuthentication } from '../endpoints/filters/authentication.js';
import { withAuthorization } from '../endpoints/filters/authorization.js';
import { withImpersonation } from '../endpoints/filters/impersonation.js';
import { withMaxInFlightLimit } from '../endpoints/filters/max-inflight.js';
import { withPriorityAndFairness } from '../endpoints/filters/priority-and-fairness.js';
import type { APFController } from '../flowcontrol/controller.js';
import { requestContextOf, withRequestInfo } from '../endpoints/filters/request-info.js';
import { writeNegotiated } from '../endpoints/handlers/scope.js';
import { type APIInstaller, newResourceNotFound } from '../endpoints/installer.js';
import { installOpenAPI } from '../endpoints/openapi/routes.js';
import { withCacheControl } from './filters/cache-control.js';
import { withStatusErrors } from './filters/errors.js';
import { type ConsoleFiles, withConsole } from './console.js';
import { withRequestLog } from './filters/request-log.js';
import { type DebugConfig, installDebugRoutes } from './debug/routes.js';
import { withTimeout } from './filters/timeout.js';
import { type HealthCheck, serveHealth } from './healthz/checks.js';
import type { Logger } from './logging.js';
import { installOpenIDMetadata } from './openid-metadata-routes.js';
import type { ServerMetrics } from './metrics.js';
import { versionInfo } from './version.js';

/** What the chain is built from. */
export interface HandlerChainConfig {
  authenticator: UnionAuthenticator;
  authorizer: Authorizer;
  installer: APIInstaller;
  metrics: ServerMetrics;
  /** Checks per health endpoint. */
  health: { livez: () => HealthCheck[]; readyz: () => HealthCheck[]; healthz: () => HealthCheck[] };
  /** `host:port` advertised by `/api`. */
  serverAddress: () => string;
  /** Non-long-running request deadline (ms). */
  requestTimeoutMs: number;
  /** Aborted at shutdown: ends watches. */
  shutdownSignal: AbortSignal;
  log: Logger;
  /** Service-account issuer discovery documents (`/.well-known/openid-configuration`, `/openid/v1/jwks`); absent: not served. */
  serviceAccountIssuerDiscovery?: OpenIDMetadata;
  /** `/debug/pprof/` and `/logs/` (`--profiling`, `--enable-logs-handler`); absent: neither is served. */
  debug?: DebugConfig;
  /** The audit policy and backends (`--audit-*`); absent: requests only get their `Audit-Id`. */
  audit?: AuditPipeline;
  /** The aggregation layer (issue #20): remote APIServices proxied and merged into discovery; absent: none. */
  aggregator?: Aggregator;
  /** Flow control: API Priority and Fairness, or (`--enable-priority-and-fairness=false`) the max-in-flight limits; absent: none. */
  flowControl?: { apf: APFController } | { maxRequestsInFlight: number; maxMutatingRequestsInFlight: number };
  /** The web console (issue #22; `--console`): its built files (undefined: not built, 404); absent: `/console/` is not served. */
  console?: { files: ConsoleFiles | undefined };
}

/**
 * Whether the request is long-running (upstream's check: watches, proxies, exec, attach,
 * portforward, log): no `--request-timeout`, and flow control lets it through without holding a
 * seat (a watch only for its start).
 */
function isLongRunning(koa: Context): boolean {
  const info = requestContextOf(koa)?.requestInfo;
  return info !== undefined && isLongRunningRequest(info);
}

/** Builds the Koa application serving the whole API. */
export function buildHandlerChain(cfg: HandlerChainConfig): Koa {
  const app = new Koa();
  app.silent = true;
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET' || err.code === 'EPIPE') return;
    cfg.log.error({ err }, 'unhandled server error');
  });
  app.use(cfg.metrics.middleware(cfg.installer));
  // Request logs at -v=3 (upstream's httplog); not installed below it.
  const requestLog = withRequestLog(cfg.log);
  if (requestLog) app.use(requestLog);
  app.use(withStatusErrors((err, koa) => cfg.log.error({ err, method: koa.method, path: koa.path }, 'request failed'), cfg.installer.upstreamAliases));
  // The console's static files are public (they hold no data): served before authentication.
  if (cfg.console) app.use(withConsole(cfg.console.files));
  app.use(withRequestInfo(cfg.shutdownSignal));
  app.use(cfg.metrics.inflight());
  app.use(withCacheControl());
  // Requests the timeout and flow-control filters end themselves (apiserver_request_terminations_total…).
  const terminations = cfg.metrics.terminationRecorder(cfg.installer);
  app.use(withTimeout(cfg.requestTimeoutMs, isLongRunning, terminations));
  app.use(withAuditInit(cfg.audit));
  app.use(withAuthentication(cfg.authenticator, cfg.metrics.auth));
  if (cfg.audit) app.use(withAudit(cfg.audit));
  app.use(withImpersonation(cfg.authorizer));
  const fc = cfg.flowControl;
  if (fc) app.use('apf' in fc ? withPriorityAndFairness(fc.apf, isLongRunning, terminations) : withMaxInFlightLimit(fc.maxRequestsInFlight, fc.maxMutatingRequestsInFlight, isLongRunning, terminations));
  app.use(withAuthorization(cfg.authorizer, cfg.metrics.auth));

  const router = new Router();
  const logHealth = (msg: string) => cfg.log.warn(msg);
  for (const endpoint of ['livez', 'readyz', 'healthz'] as const) {
    const handler = async (koa: Context) => {
      const sub = (koa.params as Record<string, string | undefined>).check ?? '';
      if (!(await serveHealth(koa, endpoint, cfg.health[endpoint](), sub, logHealth))) throw newResourceNotFound();
    };
    router.get(`/${endpoint}`, handler);
    router.get(`/${endpoint}/*check`, handler);
  }
  router.get('/version', (koa) => writeNegotiated(koa, 200, versionInfo()));
  if (cfg.serviceAccountIssuerDiscovery) installOpenIDMetadata(router, cfg.serviceAccountIssuerDiscovery, cfg.serverAddress);
  router.get('/metrics', (koa) => cfg.metrics.serve(koa));
  if (cfg.debug) installDebugRoutes(router, cfg.debug, cfg.requestTimeoutMs, cfg.log);
  installOpenAPI(router, cfg.installer, versionInfo().gitVersion);

  const serveAPI = async (koa: Context): Promise<void> => {
    const req = requestContextOf(koa);
    const remote = cfg.aggregator?.serve(koa, req, cfg.installer);
    if (remote && (await remote)) return;
    if (req.requestInfo.isResourceRequest) return cfg.installer.dispatch(koa, req);
    if ((koa.method === 'GET' || koa.method === 'HEAD') && (await serveDiscovery(koa, cfg.installer, koa.path, cfg.serverAddress()))) return;
    throw newResourceNotFound();
  };
  // A resource request (/api/…, /apis/…) matches none of the router's fixed paths: it skips them.
  app.use((koa, next) => (requestContextOf(koa).requestInfo.isResourceRequest ? serveAPI(koa) : next()));
  app.use(router.routes());
  app.use(serveAPI);
  return app;
}
