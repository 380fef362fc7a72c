/**
 * One API server process over etcd (issue #2 items 1–3; in a worker, issue #17 item 4): starts the
 * control plane and, outside a worker, writes the admin kubeconfig and prints the console URL.
 * The command (lib/cmd/orch-apiserver.ts) imports this module only once it has started the
 * managed etcd, so that etcd elects itself while the server's modules load (issue #22 § Ready in
 * under a second).
 */
import { startControlPlane } from '../controlplane/instance.js';
import type { ManagedEtcd } from '../server/etcd/managed-etcd.js';
import type { Logger } from '../server/logging.js';
import { loadProxyClientIdentity } from '../server/options/aggregator-flags.js';
import { loadEtcdTLS } from '../server/options/etcd-flags.js';
import { kubeletClientConfig } from '../server/options/kubelet-flags.js';
import type { ServerOptions } from '../server/options/server-options.js';
import { announceServing, isServerWorker } from '../server/workers/protocol.js';
import { startConsoleURL } from './console-url.js';
import { handleStopSignals } from './stop-signals.js';
import { type TLSMaterial, writeAdminKubeconfig } from './tls-material.js';

/**
 * Serves until stopped: `etcd` is the managed etcd (stopped with the server), absent when
 * `--etcd-servers` names the cluster. Resolves once the server serves, with the function that
 * stops it gracefully (as SIGTERM does).
 * @throws Error when the control plane cannot start (the managed etcd is stopped first).
 */
export async function serve(o: ServerOptions, tls: TLSMaterial, etcd: ManagedEtcd | undefined, log: Logger): Promise<() => void> {
  const stopEtcd = async (err: unknown): Promise<never> => {
    await etcd?.stop();
    throw err;
  };
  const [etcdTLS, proxyClient, kubelet] = await Promise.all([loadEtcdTLS(o.etcdTLS), loadProxyClientIdentity(o.aggregator), kubeletClientConfig(o.kubelet)]).catch(stopEtcd);
  const cp = await startControlPlane({
    etcdEndpoints: etcd ? [etcd.endpoint] : o.etcdServers,
    etcdTLS,
    aggregator: { proxyClient, enableAggregatorRouting: o.aggregator.enableAggregatorRouting },
    etcdPrefix: o.etcdPrefix,
    etcdCompactionIntervalMs: o.etcdCompactionIntervalMs,
    etcdHealthcheckTimeoutMs: o.etcdHealthcheckTimeoutMs,
    etcdReadycheckTimeoutMs: o.etcdReadycheckTimeoutMs,
    bindAddress: o.bindAddress,
    securePort: o.securePort,
    tls,
    authentication: o.authentication,
    authorization: o.authorization,
    admission: { enablePlugins: o.admission.enablePlugins, disablePlugins: o.admission.disablePlugins, configFile: o.admission.configFile || undefined, options: o.admission.options },
    shutdownDelayMs: o.shutdownDelayMs,
    livezGracePeriodMs: o.livezGracePeriodMs,
    featureGates: o.featureGates.gates,
    upstreamAliases: o.upstreamAliases,
    showHiddenMetrics: o.showHiddenMetricsForVersion !== '',
    flowControl: o.flowControl,
    audit: o.audit.policyFile ? o.audit : undefined,
    controllers: o.controllers,
    runtimeConfig: o.runtimeConfig,
    serviceNetworking: o.serviceNetworking,
    leaderElection: o.leaderElection,
    timeouts: o.timeouts,
    kubelet,
    watchCache: o.watchCache,
    debug: { profiling: o.logging.profiling, logsHandler: o.logging.enableLogsHandler },
    ...(o.console && { console: {} }),
    rootCAPem: tls.rootCAPem,
    // A worker gets connections as soon as it listens: it listens once ready.
    listenWhenReady: isServerWorker(),
    log,
  }).catch(stopEtcd);
  // In a worker the primary writes the kubeconfig once every worker serves.
  if (isServerWorker()) announceServing(cp.server.port);
  else {
    await writeAdminKubeconfig(o, tls, cp.server.port, log);
    startConsoleURL(o, tls, cp.server.port, log, cp.postStartHooksDone());
  }
  return handleStopSignals(log, 'stopping', async () => {
    await cp.stop();
    await etcd?.stop();
  });
}
