/**
 * The generic API server: HTTPS listener (client certificates requested and verified against
 * every CA an authentication method trusts; each method then checks its own), the handler chain, health checks, post-start hooks and graceful shutdown
 * (spec 000 § Health endpoints: `/readyz` fails at shutdown start and the server keeps serving
 * for `--shutdown-delay-duration` before closing).
 */
import { type Server, createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OpenIDMetadata } from '../authentication/serviceaccount/openid-metadata.js';
import type { UnionAuthenticator } from '../authentication/union.js';
import type { Authorizer } from '../authorization/interface.js';
import type { APIInstaller } from '../endpoints/installer.js';
import { buildHandlerChain, type HandlerChainConfig } from './handler-chain.js';
import type { HealthCheck } from './healthz/checks.js';
import { LogHealthCheck } from './healthz/log-check.js';
import type { PostStartHooks } from './hooks.js';
import type { Logger } from './logging.js';
import { ServerMetrics } from './metrics.js';
import { removeProtoAccessor } from './prototype-hardening.js';
import { serveUpgrades } from './upgrade.js';

/**
 * Largest request head (request line and headers) accepted, as upstream: its secure server's
 * `MaxHeaderBytes` of 1 MiB plus the 4 KiB Go's HTTP server reads beyond it. A larger head is
 * answered 431 Request Header Fields Too Large (Node's default limit, 16 KiB, would refuse
 * large bearer tokens upstream accepts).
 */
export const MAX_HEADER_BYTES = (1 << 20) + 4096;
/** How long shutdown waits for in-flight requests after closing the listener. */
const DRAIN_TIMEOUT_MS = 60_000;

/** Everything the generic server is built from. */
export interface GenericServerConfig {
  bindAddress: string;
  /** 0 = a free port. */
  port: number;
  /** Serving certificate and key; `clientCAPem`: the CAs whose client certificates the listener accepts. */
  tls: { certPem: string; keyPem: string; clientCAPem?: string };
  authenticator: UnionAuthenticator;
  authorizer: Authorizer;
  installer: APIInstaller;
  /** Checks shared by all health endpoints, after `ping` and `log` (added here). */
  checks: HealthCheck[];
  /** Checks of `/readyz` only, after the shared ones (`etcd-readiness`, `informer-sync`, as upstream's). */
  readyzChecks?: HealthCheck[];
  /** Checks of `/healthz` only (e.g. `leaderElection`, as upstream controller-manager's). */
  healthzChecks?: HealthCheck[];
  hooks: PostStartHooks;
  shutdownDelayMs: number;
  livezGracePeriodMs: number;
  /** `--request-timeout` in milliseconds: the deadline of non-long-running requests; 0: none. */
  requestTimeoutMs: number;
  log: Logger;
  /** The metric registry (created here when absent). */
  metrics?: ServerMetrics;
  /** Service-account issuer discovery documents; absent: their paths are not served. */
  serviceAccountIssuerDiscovery?: OpenIDMetadata;
  /** `/debug/pprof/` and `/logs/` (`--profiling`, `--enable-logs-handler`); absent: neither is served. */
  debug?: HandlerChainConfig['debug'];
  /** Flow control filter (API Priority and Fairness or max-in-flight); absent: none. */
  flowControl?: HandlerChainConfig['flowControl'];
  /** The audit pipeline (`--audit-*`); flushed and closed at the end of shutdown. */
  audit?: HandlerChainConfig['audit'];
  /** The aggregation layer (issue #20); absent: no remote APIService is served. */
  aggregator?: HandlerChainConfig['aggregator'];
  /** The web console (issue #22); absent: `/console/` is not served. */
  console?: HandlerChainConfig['console'];
  /**
   * Run the post-start hooks first and listen only once all have finished (default false: listen,
   * then run them). A server worker sets it (issue #17 item 4): the primary hands connections to
   * every worker that listens, with no readiness check in between, so a worker listens once ready.
   * Needs an explicit port: until it listens, {@link GenericAPIServer.port} is the configured one.
   */
  listenWhenReady?: boolean;
}

/** A running API server. */
export class GenericAPIServer {
  private readonly server: Server;
  private readonly shutdownController = new AbortController();
  private readonly hooksController = new AbortController();
  private shuttingDown = false;
  readonly metrics: ServerMetrics;
  /** The `log` health check, flushing the logger once a minute from its first call until shutdown. */
  private readonly logCheck: LogHealthCheck;

  constructor(private readonly cfg: GenericServerConfig) {
    removeProtoAccessor();
    this.metrics = cfg.metrics ?? new ServerMetrics();
    this.logCheck = new LogHealthCheck(cfg.log);
    const ping: HealthCheck = { name: 'ping', check: async () => undefined };
    const log = this.logCheck;
    const shutdown: HealthCheck = {
      name: 'shutdown',
      check: async () => {
        if (this.shuttingDown) throw new Error('process is shutting down');
      },
    };
    const app = buildHandlerChain({
      authenticator: cfg.authenticator,
      authorizer: cfg.authorizer,
      installer: cfg.installer,
      metrics: this.metrics,
      health: {
        livez: () => [ping, log, ...cfg.checks, ...cfg.hooks.checks(cfg.livezGracePeriodMs)],
        readyz: () => [ping, log, ...cfg.checks, ...(cfg.readyzChecks ?? []), ...cfg.hooks.checks(), shutdown],
        healthz: () => [ping, log, ...cfg.checks, ...cfg.hooks.checks(), ...(cfg.healthzChecks ?? [])],
      },
      serverAddress: () => `${cfg.bindAddress === '0.0.0.0' || cfg.bindAddress === '::' ? '127.0.0.1' : cfg.bindAddress}:${this.port}`,
      requestTimeoutMs: cfg.requestTimeoutMs,
      shutdownSignal: this.shutdownController.signal,
      log: cfg.log,
      serviceAccountIssuerDiscovery: cfg.serviceAccountIssuerDiscovery,
      debug: cfg.debug,
      flowControl: cfg.flowControl,
      audit: cfg.audit,
      aggregator: cfg.aggregator,
      console: cfg.console,
    });
    this.server = createServer(
      {
        cert: cfg.tls.certPem,
        key: cfg.tls.keyPem,
        requestCert: true,
        rejectUnauthorized: false,
        ...(cfg.tls.clientCAPem ? { ca: cfg.tls.clientCAPem } : {}),
        minVersion: 'TLSv1.2',
        maxHeaderSize: MAX_HEADER_BYTES,
      },
      app.callback(),
    );
    serveUpgrades(this.server, app.callback());
    this.server.keepAliveTimeout = 65_000;
    this.server.headersTimeout = 66_000;
    this.server.requestTimeout = 0;
  }

  /** The bound port (after `start`; before, the configured one). */
  get port(): number {
    return (this.server.address() as AddressInfo | null)?.port ?? this.cfg.port;
  }

  /** Listens, then runs the post-start hooks (with `listenWhenReady`: runs them, then listens once all finished). */
  async start(): Promise<void> {
    if (this.cfg.listenWhenReady) {
      this.cfg.hooks.runAll(this.hooksController.signal, (msg) => this.cfg.log.error(msg));
      await this.cfg.hooks.whenDone();
      await this.listen();
      return;
    }
    await this.listen();
    this.cfg.hooks.runAll(this.hooksController.signal, (msg) => this.cfg.log.error(msg));
  }

  private async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.cfg.port, this.cfg.bindAddress, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.cfg.log.info({ address: this.cfg.bindAddress, port: this.port }, 'serving securely');
  }

  /**
   * Graceful shutdown: `/readyz` fails at once, requests are still served for the shutdown
   * delay, then long-running requests end, the listener closes and in-flight requests drain.
   */
  async shutdown(): Promise<void> {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    this.cfg.log.info({ delayMs: this.cfg.shutdownDelayMs }, 'shutdown initiated');
    if (this.cfg.shutdownDelayMs > 0) await sleep(this.cfg.shutdownDelayMs);
    this.hooksController.abort();
    this.shutdownController.abort();
    this.logCheck.stop();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    const timer = setTimeout(() => this.server.closeAllConnections(), DRAIN_TIMEOUT_MS);
    await closed;
    clearTimeout(timer);
    await this.cfg.audit?.shutdown();
  }
}
