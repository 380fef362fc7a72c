/**
 * The server's run options: what the command line says, after parsing and validation
 * (see `flags.ts`). A plain object; each member names its flag and its unit.
 */

import type { AuthenticationOptions } from './authentication-options.js';
import type { AdmissionFlags } from './admission-flags.js';
import type { AuditOptions } from './audit-flags.js';
import type { FlowControlFlags } from './flowcontrol-flags.js';
import type { AuthorizationOptions } from './authorization-options.js';
import type { FeatureGateFlags } from './feature-gates.js';
import type { RuntimeConfig } from './runtime-config.js';
import type { ServiceNetworkingOptions } from './service-networking.js';
import type { LeaderElectionOptions } from './leader-election-flags.js';
import type { TimeoutFlags } from './timeout-flags.js';
import type { KubeletClientFlags } from './kubelet-flags.js';
import type { WatchCacheFlags } from './watch-cache-flags.js';
import type { LoggingFlags } from './logging-flags.js';
import type { EtcdTLSFlags } from './etcd-flags.js';
import type { AggregatorFlags } from './aggregator-flags.js';

/** Validated options of one server process (issue #2 § Flags in the upstream style). */
export interface ServerOptions {
  /**
   * `--etcd-servers`: etcd client URLs (`http://host:port` or `https://…`). Empty: the server
   * starts and supervises its own etcd with data under {@link dataDir}.
   */
  etcdServers: string[];
  /** `--etcd-prefix`: key prefix of every object in etcd (default `/registry`). */
  etcdPrefix: string;
  /** `--etcd-compaction-interval`, in milliseconds (default 300 000 = `5m0s`); 0 disables compaction. */
  etcdCompactionIntervalMs: number;
  /** `--etcd-healthcheck-timeout`, in milliseconds (default 2 000; 0 means the default): the `etcd` health check's timeout. */
  etcdHealthcheckTimeoutMs: number;
  /** `--etcd-readycheck-timeout`, in milliseconds (default 2 000; 0 means the default): the `etcd-readiness` check's timeout. */
  etcdReadycheckTimeoutMs: number;
  /** `--etcd-binary`: the etcd executable the managed etcd runs (default `etcd`, looked up in PATH). */
  etcdBinary: string;
  /** `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile` ('' when absent). */
  etcdTLS: EtcdTLSFlags;
  /** `--bind-address`: IP address the secure port listens on (default `0.0.0.0`: all interfaces). */
  bindAddress: string;
  /** `--secure-port`: TCP port of the HTTPS listener (default 6443); 0 picks a free port. */
  securePort: number;
  /** `--cert-dir`: directory of the generated CA, serving and admin certificates (default `<dataDir>/pki`). */
  certDir: string;
  /** `--tls-cert-file`: PEM serving certificate (chain); set together with {@link tlsPrivateKeyFile}, or neither. */
  tlsCertFile?: string;
  /** `--tls-private-key-file`: PEM private key of {@link tlsCertFile}. */
  tlsPrivateKeyFile?: string;
  /** `--client-ca-file`: PEM bundle of CAs whose client certificates authenticate (CN = user, O = groups). */
  clientCaFile?: string;
  /** `--data-dir`: directory of the server's state: managed etcd data, certificates, admin.kubeconfig (default `./data`). */
  dataDir: string;
  /**
   * `--shutdown-delay-duration`, in milliseconds (default 0): after a termination signal, how
   * long `/readyz` fails while requests are still served, before the listener closes.
   */
  shutdownDelayMs: number;
  /**
   * `--livez-grace-period`, in milliseconds (default 0): how long after start `/livez` treats
   * unfinished post-start hooks as healthy.
   */
  livezGracePeriodMs: number;
  /** The Authentication flags (authentication-options.ts). */
  authentication: AuthenticationOptions;
  /** The Authorization flags (authorization-options.ts). */
  authorization: AuthorizationOptions;
  /** The Admission flags (admission-flags.ts). */
  admission: AdmissionFlags;
  /** The Auditing flags (`--audit-*`; lib/audit/options.ts, audit-flags.ts). */
  audit: AuditOptions;
  /** `--enable-priority-and-fairness`, `--max-requests-inflight`, `--max-mutating-requests-inflight` (flowcontrol-flags.ts). */
  flowControl: FlowControlFlags;
  /**
   * `--upstream-aliases` (default true): also serve the upstream spellings of vendor identifiers
   * (API groups, meta and discovery groups, the protobuf media type) for unmodified upstream
   * clients (issue #9); false: only the vendor spellings exist.
   */
  upstreamAliases: boolean;
  /**
   * `--controllers`: which in-process controllers run (default `[*]`: the on-by-default ones);
   * `*`, `name` and `-name` entries, the first naming a controller deciding (controllers.ts).
   */
  controllers: readonly string[];
  /**
   * `--runtime-config`: the group versions and resources to serve beyond or instead of the
   * defaults, as given (runtime-config.ts); absent: the defaults. Judged at control-plane start.
   */
  runtimeConfig?: RuntimeConfig;
  /**
   * `--feature-gates`: every known gate with its effective value (`gates`), the gates set and the
   * warnings (GA and deprecated gates set) the command logs at start (feature-gates.ts).
   */
  featureGates: FeatureGateFlags;
  /** `--service-cluster-ip-range`, `--service-node-port-range`, `--advertise-address` (service-networking.ts). */
  serviceNetworking: ServiceNetworkingOptions;
  /** The `--leader-elect*` flags (leader-election-flags.ts): leader election of the once-per-cluster controllers. */
  leaderElection: LeaderElectionOptions;
  /** `--request-timeout` and `--min-request-timeout` (timeout-flags.ts). */
  timeouts: TimeoutFlags;
  /** `--kubelet-*`: how the connect subresources reach kubelets (kubelet-flags.ts; issue #20). */
  kubelet: KubeletClientFlags;
  /**
   * `--show-hidden-metrics-for-version`: '' (default), or the previous minor release (`1.29`),
   * which exports again the deprecated metrics hidden in this release (lib/metrics/registry.ts).
   */
  showHiddenMetricsForVersion: string;
  /** `--v`: log verbosity level, 0 (default) and up; higher logs more. */
  verbosity: number;
  /** `--watch-cache`, `--watch-cache-sizes` (watch-cache-flags.ts). */
  watchCache: WatchCacheFlags;
  /** `--logging-format`, `--profiling`, `--enable-logs-handler` (logging-flags.ts). */
  logging: LoggingFlags;
  /** `--proxy-client-cert-file`, `--proxy-client-key-file`, `--enable-aggregator-routing` (aggregator-flags.ts). */
  aggregator: AggregatorFlags;
  /** `--console` (default true): serve the web console at `/console/` (issue #22). */
  console: boolean;
  /** `--workers` as given (workers-flags.ts): the number of server processes; 0 (default) = the CPUs, capped (`workerCount`). */
  workers: number;
}
