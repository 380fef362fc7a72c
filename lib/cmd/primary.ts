/**
 * The primary process of `orch-apiserver --workers=N` (N > 1; issue #17 item 4): it creates
 * what must exist once — the generated PKI under `--cert-dir` and, without `--etcd-servers`, the
 * managed local etcd — then forks N server workers (lib/server/workers/pool.ts) that run the same
 * command line plus `--etcd-servers=<the managed etcd>` and, for `--secure-port=0`, the free port
 * picked here (so that a worker forked again binds the port clients know), writes the admin
 * kubeconfig once they all
 * serve, and on SIGINT/SIGTERM stops the workers gracefully (each honours
 * `--shutdown-delay-duration`, then drains), then the managed etcd. A second signal exits at once.
 */
import net from 'node:net';
import { type ManagedEtcd, startManagedEtcd } from '../server/etcd/managed-etcd.js';
import type { Logger } from '../server/logging.js';
import type { ServerOptions } from '../server/options/server-options.js';
import { WorkerPool } from '../server/workers/pool.js';
import { handleStopSignals } from './stop-signals.js';
import { tlsMaterial, writeAdminKubeconfig } from './tls-material.js';
import { startConsoleURL } from './console-url.js';

/** What a worker's graceful stop may take beyond the shutdown delay before the primary kills it (ms): the server's 60 s drain plus slack. */
const WORKER_STOP_SLACK_MS = 90_000;

/**
 * Runs the primary until a signal stops it (then exits the process).
 * @param argv the command's arguments, handed to every worker.
 * @throws Error when the PKI or the managed etcd cannot be created, or a worker exits before
 *   serving (the workers and the managed etcd are stopped first).
 */
export async function runPrimary(o: ServerOptions, argv: readonly string[], count: number, log: Logger): Promise<void> {
  const tls = await tlsMaterial(o);
  let etcd: ManagedEtcd | undefined;
  if (o.etcdServers.length === 0) {
    etcd = await startManagedEtcd({ dataDir: o.dataDir, binary: o.etcdBinary, logger: log });
    log.info({ endpoint: etcd.endpoint, dataDir: etcd.etcdDataDir }, 'started managed etcd');
  }
  const etcdArgs = etcd ? [`--etcd-servers=${etcd.endpoint}`] : [];
  const portArgs = o.securePort === 0 ? [`--secure-port=${await freePort(o.bindAddress)}`] : [];
  const pool = new WorkerPool({
    count,
    args: [...argv, ...etcdArgs, ...portArgs],
    log,
    stopTimeoutMs: o.shutdownDelayMs + WORKER_STOP_SLACK_MS,
  });
  let port: number;
  try {
    port = await pool.start();
  } catch (err) {
    await pool.stop();
    await etcd?.stop();
    throw err;
  }
  log.info({ workers: count, port, pids: pool.pids() }, 'all workers serving');
  await writeAdminKubeconfig(o, tls, port, log);
  startConsoleURL(o, tls, port, log);
  handleStopSignals(log, 'stopping workers', async () => {
    await pool.stop();
    await etcd?.stop();
  });
}

/** A TCP port free on `address` now (the kernel's pick for port 0); another process may take it before the workers bind it. */
async function freePort(address: string): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, address, resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
