/**
 * The server's flags, declared once: name, help section, value type, default and one-line
 * usage as upstream words them, and how one occurrence applies to the options being built.
 * `flags.ts` parses with this table and prints `--help` from it.
 */

import { formatDuration, parseDuration } from '../../apimachinery/duration.js';
import { SERVER_NAME, UPSTREAM_DOMAIN, VENDOR_DOMAIN } from '../../apis/vendor.js';
import { AUTHENTICATION_FLAGS } from './authentication-flags.js';
import { DEFAULT_CONTROLLERS, describeControllers } from './controllers.js';
import { defaultAuthenticationOptions } from './authentication-options.js';
import { ADMISSION_FLAGS, defaultAdmissionFlags } from './admission-flags.js';
import { AUDIT_FLAGS, defaultAuditOptions } from './audit-flags.js';
import { defaultFlowControlFlags, FLOW_CONTROL_FLAGS } from './flowcontrol-flags.js';
import { AUTHORIZATION_FLAGS } from './authorization-flags.js';
import { defaultAuthorizationOptions } from './authorization-options.js';
import { applyFeatureGates, defaultFeatureGateFlags, describeFeatureGates } from './feature-gates.js';
import { applyRuntimeConfig, EMPTY_RUNTIME_CONFIG } from './runtime-config.js';
import { optionalPath, parseGoBool, parseGoInt, parseIP, parseStringSlice } from './flag-values.js';
import { defaultServiceNetworkingOptions, SERVICE_NETWORKING_FLAGS } from './service-networking.js';
import { defaultLeaderElectionOptions, LEADER_ELECTION_FLAGS } from './leader-election-flags.js';
import { defaultTimeoutFlags, TIMEOUT_FLAGS } from './timeout-flags.js';
import { WORKERS_FLAGS } from './workers-flags.js';
import { defaultKubeletClientFlags, KUBELET_FLAGS } from './kubelet-flags.js';
import { defaultWatchCacheFlags, WATCH_CACHE_FLAGS } from './watch-cache-flags.js';
import { defaultLoggingFlags, LOGGING_FLAGS } from './logging-flags.js';
import { defaultEtcdTLSFlags, ETCD_TLS_FLAGS } from './etcd-flags.js';
import { DEFAULT_ETCD_CHECK_TIMEOUT_MS } from '../healthz/etcd-check.js';
import type { ServerOptions } from './server-options.js';
import { AGGREGATOR_FLAGS, defaultAggregatorFlags } from './aggregator-flags.js';

/** Options while flags are applied: `certDir` is resolved from `dataDir` at the end. */
export type OptionsDraft = Omit<ServerOptions, 'certDir'> & { certDir?: string; help: boolean };

/** One flag of the command line. */
export interface FlagSpec {
  /** Long name without dashes (`secure-port`). */
  name: string;
  /** Single-letter alias without the dash, if any (`h`). */
  shorthand?: string;
  /** Help section the flag is listed under. */
  section: string;
  /** Value type shown in help (`int`, `duration`, `strings`…); empty for booleans, which take no separate argument. */
  valueType: string;
  /** The default as `--help` prints it; empty: none printed (pflag's zero default of a map flag). */
  defaultText: string;
  /** Description; further lines (after `\n`) are indented to the description column. */
  usage: string;
  /** Applies one occurrence's value to the draft; repeated occurrences apply in order. @throws Error with the reason. */
  apply(draft: OptionsDraft, value: string): void;
  /** Set on a deprecated flag: pflag's deprecation message, warned on each use and marked in `--help` (deprecated-flags.ts). */
  deprecated?: string;
}

/** Default data directory, relative to the working directory. */
export const DEFAULT_DATA_DIR = './data';
/** Default compaction interval: 5 minutes, in milliseconds. */
const DEFAULT_COMPACTION_INTERVAL_MS = 5 * 60_000;

/** The options every flag starts from. */
export function defaultDraft(): OptionsDraft {
  return {
    etcdServers: [],
    etcdPrefix: '/registry',
    etcdCompactionIntervalMs: DEFAULT_COMPACTION_INTERVAL_MS,
    etcdHealthcheckTimeoutMs: DEFAULT_ETCD_CHECK_TIMEOUT_MS,
    etcdReadycheckTimeoutMs: DEFAULT_ETCD_CHECK_TIMEOUT_MS,
    etcdBinary: 'etcd',
    etcdTLS: defaultEtcdTLSFlags(),
    bindAddress: '0.0.0.0',
    securePort: 6443,
    dataDir: DEFAULT_DATA_DIR,
    shutdownDelayMs: 0,
    livezGracePeriodMs: 0,
    authentication: defaultAuthenticationOptions(),
    authorization: defaultAuthorizationOptions(),
    admission: defaultAdmissionFlags(),
    audit: defaultAuditOptions(),
    flowControl: defaultFlowControlFlags(),
    upstreamAliases: true,
    controllers: DEFAULT_CONTROLLERS,
    featureGates: defaultFeatureGateFlags(),
    serviceNetworking: defaultServiceNetworkingOptions(),
    leaderElection: defaultLeaderElectionOptions(),
    timeouts: defaultTimeoutFlags(),
    kubelet: defaultKubeletClientFlags(),
    workers: 0,
    showHiddenMetricsForVersion: '',
    verbosity: 0,
    watchCache: defaultWatchCacheFlags(),
    logging: defaultLoggingFlags(),
    aggregator: defaultAggregatorFlags(),
    console: true,
    help: false,
  };
}

/** Every flag, in help order within each section. */
export const FLAGS: readonly FlagSpec[] = [
  {
    name: 'console',
    section: 'Generic',
    valueType: '',
    defaultText: 'true',
    usage: 'Serve the web console at /console/ (issue #22): a static app that makes ordinary API requests with the user\'s own credentials. false: /console/ is not served.',
    apply: (d, v) => (d.console = parseGoBool(v)),
  },
  {
    name: 'data-dir',
    section: 'Generic',
    valueType: 'string',
    defaultText: JSON.stringify(DEFAULT_DATA_DIR),
    usage: 'Directory of the server state: the managed etcd data, generated certificates and admin.kubeconfig.',
    apply: (d, v) => (d.dataDir = v),
  },
  {
    name: 'feature-gates',
    section: 'Generic',
    valueType: 'mapStringBool',
    defaultText: '',
    usage: describeFeatureGates(),
    apply: (d, v) => (d.featureGates = applyFeatureGates(d.featureGates, v)),
  },
  {
    name: 'livez-grace-period',
    section: 'Generic',
    valueType: 'duration',
    defaultText: formatDuration(0),
    usage: 'Time after start during which /livez treats unfinished post-start hooks as successful.',
    apply: (d, v) => (d.livezGracePeriodMs = parseDuration(v)),
  },
  ...TIMEOUT_FLAGS,
  {
    name: 'shutdown-delay-duration',
    section: 'Generic',
    valueType: 'duration',
    defaultText: formatDuration(0),
    usage: 'Time to delay the termination: /readyz fails while requests are still served, then graceful termination starts.',
    apply: (d, v) => (d.shutdownDelayMs = parseDuration(v)),
  },
  {
    name: 'upstream-aliases',
    section: 'Generic',
    valueType: '',
    defaultText: 'true',
    usage: `Also serve the upstream spellings of vendor identifiers for unmodified upstream clients: every <x>.${VENDOR_DOMAIN} API group as <x>.${UPSTREAM_DOMAIN}, the meta and discovery groups and the protobuf media type. false: only the vendor spellings exist.`,
    apply: (d, v) => (d.upstreamAliases = parseGoBool(v)),
  },
  ...WORKERS_FLAGS,
  {
    name: 'etcd-binary',
    section: 'Etcd',
    valueType: 'string',
    defaultText: '"etcd"',
    usage: 'The etcd executable (a path, or a name looked up in PATH) started when --etcd-servers is empty.',
    apply: (d, v) => (d.etcdBinary = v),
  },
  ...ETCD_TLS_FLAGS,
  {
    name: 'etcd-compaction-interval',
    section: 'Etcd',
    valueType: 'duration',
    defaultText: formatDuration(DEFAULT_COMPACTION_INTERVAL_MS),
    usage: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.',
    apply: (d, v) => (d.etcdCompactionIntervalMs = parseDuration(v)),
  },
  {
    name: 'etcd-healthcheck-timeout',
    section: 'Etcd',
    valueType: 'duration',
    defaultText: formatDuration(DEFAULT_ETCD_CHECK_TIMEOUT_MS),
    usage: 'The timeout to use when checking etcd health.',
    apply: (d, v) => (d.etcdHealthcheckTimeoutMs = parseDuration(v) || DEFAULT_ETCD_CHECK_TIMEOUT_MS),
  },
  {
    name: 'etcd-prefix',
    section: 'Etcd',
    valueType: 'string',
    defaultText: '"/registry"',
    usage: 'The prefix to prepend to all resource paths in etcd.',
    apply: (d, v) => (d.etcdPrefix = v),
  },
  {
    name: 'etcd-readycheck-timeout',
    section: 'Etcd',
    valueType: 'duration',
    defaultText: formatDuration(DEFAULT_ETCD_CHECK_TIMEOUT_MS),
    usage: 'The timeout to use when checking etcd readiness',
    apply: (d, v) => (d.etcdReadycheckTimeoutMs = parseDuration(v) || DEFAULT_ETCD_CHECK_TIMEOUT_MS),
  },
  {
    name: 'etcd-servers',
    section: 'Etcd',
    valueType: 'strings',
    defaultText: '[]',
    usage: 'List of etcd servers to connect with (scheme://ip:port), comma separated; repeatable. Empty: start and supervise a local etcd under --data-dir.',
    apply: (d, v) => d.etcdServers.push(...parseStringSlice(v)),
  },
  ...WATCH_CACHE_FLAGS,
  {
    name: 'bind-address',
    section: 'Secure serving',
    valueType: 'ip',
    defaultText: '0.0.0.0',
    usage: 'The IP address on which to listen for the --secure-port port. 0.0.0.0 or :: listens on all interfaces.',
    apply: (d, v) => (d.bindAddress = parseIP(v)),
  },
  {
    name: 'cert-dir',
    section: 'Secure serving',
    valueType: 'string',
    defaultText: '"<data-dir>/pki"',
    usage: 'The directory where the generated TLS certificates are kept. Ignored for serving if --tls-cert-file and --tls-private-key-file are provided.',
    apply: (d, v) => (d.certDir = optionalPath(v)),
  },
  {
    name: 'secure-port',
    section: 'Secure serving',
    valueType: 'int',
    defaultText: '6443',
    usage: 'The port on which to serve HTTPS with authentication and authorization. 0 picks a free port.',
    apply: (d, v) => (d.securePort = parseGoInt(v, 53)),
  },
  {
    name: 'tls-cert-file',
    section: 'Secure serving',
    valueType: 'string',
    defaultText: '""',
    usage: 'File containing the default x509 certificate for HTTPS (CA certificates, if any, concatenated after it). Without it a CA and serving certificate are generated under --cert-dir.',
    apply: (d, v) => (d.tlsCertFile = optionalPath(v)),
  },
  {
    name: 'tls-private-key-file',
    section: 'Secure serving',
    valueType: 'string',
    defaultText: '""',
    usage: 'File containing the default x509 private key matching --tls-cert-file.',
    apply: (d, v) => (d.tlsPrivateKeyFile = optionalPath(v)),
  },
  ...AUDIT_FLAGS,
  ...AUTHENTICATION_FLAGS,
  ...AUTHORIZATION_FLAGS,
  {
    name: 'runtime-config',
    section: 'API enablement',
    valueType: 'mapStringString',
    defaultText: '',
    usage:
      'A set of key=value pairs that enable or disable built-in APIs. Supported options are:\n' +
      'v1=true|false for the core API group\n' +
      '<group>/<version>=true|false for a specific API group and version (e.g. apps/v1=true)\n' +
      'api/all=true|false controls all API versions\n' +
      'api/ga=true|false controls all API versions of the form v[0-9]+\n' +
      'api/beta=true|false controls all API versions of the form v[0-9]+beta[0-9]+\n' +
      'api/alpha=true|false controls all API versions of the form v[0-9]+alpha[0-9]+\n' +
      'api/legacy is deprecated, and will be removed in a future version',
    apply: (d, v) => (d.runtimeConfig = applyRuntimeConfig(d.runtimeConfig ?? EMPTY_RUNTIME_CONFIG, v)),
  },
  ...ADMISSION_FLAGS,
  ...FLOW_CONTROL_FLAGS,
  {
    name: 'controllers',
    section: 'Controllers',
    valueType: 'strings',
    defaultText: '[*]',
    usage: describeControllers(),
    // The first occurrence replaces the default, later ones append (pflag's string slice).
    apply: (d, v) => (d.controllers = [...(d.controllers === DEFAULT_CONTROLLERS ? [] : d.controllers), ...parseStringSlice(v)]),
  },
  ...SERVICE_NETWORKING_FLAGS,
  ...KUBELET_FLAGS,
  ...AGGREGATOR_FLAGS,
  ...LEADER_ELECTION_FLAGS,
  {
    name: 'show-hidden-metrics-for-version',
    section: 'Metrics',
    valueType: 'string',
    defaultText: '""',
    usage:
      "The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '1.16'. The purpose of this format is make sure you have the opportunity to notice if the next release hides additional metrics, rather than being surprised when they are permanently removed in the release after that.",
    apply: (d, v) => (d.showHiddenMetricsForVersion = v),
  },
  ...LOGGING_FLAGS,
  {
    name: 'help',
    shorthand: 'h',
    section: 'Global',
    valueType: '',
    defaultText: 'false',
    usage: `help for ${SERVER_NAME}`,
    apply: (d, v) => (d.help = parseGoBool(v)),
  },
  {
    name: 'v',
    shorthand: 'v',
    section: 'Global',
    valueType: 'Level',
    defaultText: '0',
    usage: 'number for the log level verbosity',
    apply: (d, v) => (d.verbosity = parseGoInt(v, 32)),
  },
];
