#!/usr/bin/env node
/**
 * The `orch-apiserver` command: flags → options → TLS material (generated PKI unless given) →
 * etcd (the given cluster, or a managed local one under `--data-dir`) → control plane; stops
 * gracefully on SIGINT/SIGTERM (issue #2 items 1–3). With `--workers` above 1 this process is the
 * primary (lib/cmd/primary.ts) and each worker it forks runs this command as one server
 * (issue #17 item 4). `orch-apiserver convert …` runs the offline
 * manifest converter instead (lib/cmd/convert.ts; issue #15 item 7).
 */
import { SERVER_NAME } from '../apis/vendor.js';
import { startControlPlane } from '../controlplane/instance.js';
import { readAllStdin, runConvert } from './convert.js';
import { type ManagedEtcd, startManagedEtcd } from '../server/etcd/managed-etcd.js';
import { type LoggingFormat, newLogger } from '../server/logging.js';
import { FlagError, HelpRequested, formatHelp, parseServerFlags } from '../server/options/flags.js';
import { loadEtcdTLS } from '../server/options/etcd-flags.js';
import { loadProxyClientIdentity } from '../server/options/aggregator-flags.js';
import type { ServerOptions } from '../server/options/server-options.js';
import { workerCount } from '../server/options/workers-flags.js';
import { kubeletClientConfig } from '../server/options/kubelet-flags.js';
import { announceServing, isServerWorker, onShutdownRequest, workerNumber } from '../server/workers/protocol.js';
import { runPrimary } from './primary.js';
import { handleStopSignals } from './stop-signals.js';
import { tlsMaterial, writeAdminKubeconfig } from './tls-material.js';
import { startConsoleURL } from './console-url.js';

async function main(argv: string[]): Promise<void> {
  let o: ServerOptions;
  try {
    // pflag prints a deprecated flag's warning to stderr as it parses; a worker re-parses the primary's argv silently.
    o = parseServerFlags(argv, isServerWorker() ? undefined : (line) => process.stderr.write(`${line}\n`));
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(formatHelp());
      return;
    }
    if (err instanceof FlagError) {
      process.stderr.write(`Error: ${err.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
  const base = newLogger(o.verbosity, 2, o.logging.format as LoggingFormat);
  // A worker (issue #17 item 4) logs its number; the primary forks N > 1 workers and serves nothing itself.
  const log = isServerWorker() ? base.child({ worker: workerNumber() }) : base;
  if (!isServerWorker()) for (const warning of o.featureGates.warnings) log.warn(warning);
  const workers = isServerWorker() ? 1 : workerCount(o.workers);
  if (workers > 1) return runPrimary(o, argv, workers, log);
  // A shutdown the primary asks for before the control plane runs: nothing to drain yet.
  let requested = (): void => process.exit(0);
  onShutdownRequest(() => requested());
  const tls = await tlsMaterial(o);
  const kubelet = await kubeletClientConfig(o.kubelet);
  let etcd: ManagedEtcd | undefined;
  let endpoints = o.etcdServers;
  if (endpoints.length === 0) {
    etcd = await startManagedEtcd({ dataDir: o.dataDir, binary: o.etcdBinary, logger: log });
    endpoints = [etcd.endpoint];
    log.info({ endpoint: etcd.endpoint, dataDir: etcd.etcdDataDir }, 'started managed etcd');
  }
  const cp = await startControlPlane({
    etcdEndpoints: endpoints,
    etcdTLS: await loadEtcdTLS(o.etcdTLS),
    aggregator: { proxyClient: await loadProxyClientIdentity(o.aggregator), enableAggregatorRouting: o.aggregator.enableAggregatorRouting },
    etcdPrefix: o.etcdPrefix,
    etcdCompactionIntervalMs: o.etcdCompactionIntervalMs,
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
  }).catch(async (err: unknown) => {
    await etcd?.stop();
    throw err;
  });
  // In a worker the primary writes the kubeconfig once every worker serves.
  if (isServerWorker()) announceServing(cp.server.port);
  else {
    await writeAdminKubeconfig(o, tls, cp.server.port, log);
    startConsoleURL(o, tls, cp.server.port, log);
  }
  requested = handleStopSignals(log, 'stopping', async () => {
    await cp.stop();
    await etcd?.stop();
  });
}

const args = process.argv.slice(2);
if (args[0] === 'convert') {
  process.exitCode = await runConvert(args.slice(1), {
    readStdin: readAllStdin,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
} else {
  main(args).catch((err: unknown) => {
    process.stderr.write(`${SERVER_NAME}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
