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
import { launchManagedEtcd } from '../server/etcd/managed-etcd.js';
import { type LoggingFormat, newLogger } from '../server/logging.js';
import { FlagError, HelpRequested, formatHelp, parseServerFlags } from '../server/options/flags.js';
import type { ServerOptions } from '../server/options/server-options.js';
import { workerCount } from '../server/options/workers-flags.js';
import { isServerWorker, onShutdownRequest, workerNumber } from '../server/workers/protocol.js';
import { runPrimary } from './primary.js';
import { tlsMaterial } from './tls-material.js';

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
  // The managed etcd starts first and elects itself while the server's modules load (~0.8 s of
  // the start; issue #22 § Ready in under a second): serve.js is imported only now.
  const launched = o.etcdServers.length === 0 ? await launchManagedEtcd({ dataDir: o.dataDir, binary: o.etcdBinary, logger: log }) : undefined;
  const etcdStarting = launched?.();
  etcdStarting?.catch(() => undefined); // awaited below, where a failure is reported
  let serving: typeof import('./serve.js');
  try {
    serving = await import('./serve.js');
  } catch (err) {
    await etcdStarting?.then((etcd) => etcd.stop(), () => undefined);
    throw err;
  }
  const etcd = await etcdStarting;
  if (etcd) log.info({ endpoint: etcd.endpoint, dataDir: etcd.etcdDataDir }, 'started managed etcd');
  requested = await serving.serve(o, tls, etcd, log);
}

/** `orch-apiserver convert …`: the offline manifest converter. */
async function convert(args: string[]): Promise<void> {
  const { readAllStdin, runConvert } = await import('./convert.js');
  process.exitCode = await runConvert(args, {
    readStdin: readAllStdin,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}

// No top-level await: the bundle `make build` writes is CommonJS (hack/bundle.sh).
const args = process.argv.slice(2);
(args[0] === 'convert' ? convert(args.slice(1)) : main(args)).catch((err: unknown) => {
  process.stderr.write(`${SERVER_NAME}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
