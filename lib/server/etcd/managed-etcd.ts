/**
 * The managed etcd (issue #2 § One command to run): with no `--etcd-servers`, the server runs
 * its own single-member etcd on free loopback ports with data under `<data-dir>/etcd`,
 * restarts it with backoff if it dies, and stops it on shutdown. Data persists across
 * restarts of the server (same data dir, same objects).
 */

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import { EtcdStartError, spawnEtcd, terminate, waitHealthy, type EtcdProcessConfig } from './etcd-process.js';
import { findExecutable } from './executable.js';
import { freeLoopbackPorts } from './free-port.js';
import { etcdHolder, readPidFile, removePidFile, stopStaleEtcd } from './pid-file.js';
import { SupervisedEtcd, recordPid, type EtcdLogger, type ManagedEtcd } from './supervisor.js';

export { EtcdStartError } from './etcd-process.js';
export type { EtcdLogger, ManagedEtcd } from './supervisor.js';

/** Start attempts with fresh ports when the chosen ones were taken meanwhile. */
const PORT_ATTEMPTS = 3;

/** How to run the managed etcd. */
export interface ManagedEtcdOptions {
  /** The server's data directory; etcd keeps its data in `<dataDir>/etcd`. */
  dataDir: string;
  /** The etcd executable: a path, or a name looked up in PATH (default `etcd`). */
  binary?: string;
  /** File receiving etcd's output, appended (default `<dataDir>/etcd.log`). */
  logFile?: string;
  /** How long to wait for `/health` at each start, in milliseconds (default 30 000). */
  startTimeoutMs?: number;
  /** Grace between SIGTERM and SIGKILL when stopping, in milliseconds (default 10 000). */
  stopTimeoutMs?: number;
  /** Where supervision events (unexpected exits, restarts) are logged (default: pino to stderr). */
  logger?: EtcdLogger;
}

/**
 * Starts etcd on two free loopback ports (client, peer) and resolves once `/health` reports
 * healthy; from then on, an unexpected exit is logged and followed by restarts on the same
 * ports with exponential backoff (200 ms doubling to 10 s). A SIGTERM is sent to etcd if this
 * process exits without calling stop(), and (Linux, `setpriv` installed) by the kernel when
 * this process dies by any signal (issue #19 item 4). A managed etcd left on the data directory
 * by a server that is gone is stopped first (SIGTERM, then SIGKILL), and the log says so.
 * @throws EtcdStartError when the executable is missing (the message says to run
 *   `hack/install-etcd.sh`), the data directory's etcd belongs to a live server, a stale etcd
 *   does not exit, or etcd exits or stays unhealthy during startup (the message quotes the end of
 *   its log).
 */
export async function startManagedEtcd(options: ManagedEtcdOptions): Promise<ManagedEtcd> {
  return (await launchManagedEtcd(options))();
}

/**
 * The first half of `startManagedEtcd`: resolves once etcd has been spawned, with the function
 * that waits for it to be healthy (and supervises it from then on). The command loads the rest
 * of the server between the two, while etcd elects itself (issue #22 § Ready in under a second).
 * @throws EtcdStartError as `startManagedEtcd` (the returned function too).
 */
export async function launchManagedEtcd(options: ManagedEtcdOptions): Promise<() => Promise<ManagedEtcd>> {
  const name = options.binary ?? 'etcd';
  const binary = await findExecutable(name);
  if (binary === undefined) {
    throw new EtcdStartError(
      `etcd executable ${JSON.stringify(name)} not found${name.includes('/') ? '' : ' in PATH'}: ` +
        'run hack/install-etcd.sh to install it, or pass --etcd-binary, or --etcd-servers to use a running etcd',
    );
  }
  const etcdDataDir = path.join(options.dataDir, 'etcd');
  await mkdir(options.dataDir, { recursive: true });
  await mkdir(etcdDataDir, { recursive: true, mode: 0o700 });
  const logFile = options.logFile ?? path.join(options.dataDir, 'etcd.log');
  const pidFile = path.join(options.dataDir, 'etcd.pid');
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  const logger = options.logger ?? pino({ name: 'managed-etcd' }, pino.destination(2));
  await clearStaleEtcd(pidFile, etcdDataDir, stopTimeoutMs, logger);
  const launcher = process.platform === 'linux' ? await findExecutable('setpriv') : undefined;

  const launch = async (attempt: number): Promise<() => Promise<ManagedEtcd>> => {
    const [clientPort, peerPort] = await freeLoopbackPorts(2);
    const config: EtcdProcessConfig = { binary, dataDir: etcdDataDir, clientPort, peerPort, logFile, ...(launcher && { parentDeathLauncher: launcher }) };
    const proc = await spawnEtcd(config);
    return async () => {
      try {
        await recordPid(pidFile, proc);
        await waitHealthy(proc, config, startTimeoutMs);
      } catch (err) {
        await terminate(proc, stopTimeoutMs);
        await removePidFile(pidFile);
        if (err instanceof EtcdStartError && err.portConflict && attempt < PORT_ATTEMPTS) return (await launch(attempt + 1))();
        throw err;
      }
      return new SupervisedEtcd(config, proc, { pidFile, startTimeoutMs, stopTimeoutMs, logger });
    };
  };
  return launch(1);
}

/**
 * Makes the data directory free for a new etcd: refuses while the recorded etcd's owner lives;
 * stops an orphaned one (its server gone) and removes the pid file of one that already exited,
 * logging which.
 * @throws EtcdStartError naming the live etcd process, or the stale one that would not exit.
 */
async function clearStaleEtcd(pidFile: string, etcdDataDir: string, stopTimeoutMs: number, logger: EtcdLogger): Promise<void> {
  const holder = await etcdHolder(pidFile, etcdDataDir);
  if (holder?.ownerAlive) {
    throw new EtcdStartError(
      `etcd data directory ${etcdDataDir} is in use by etcd process ${holder.pid} ` +
        '(another server with the same --data-dir?): stop that process or choose another --data-dir',
    );
  }
  if (holder !== undefined) {
    const fields = { etcdPid: holder.pid, ownerPid: holder.ownerPid, dataDir: etcdDataDir };
    logger.warn(fields, 'found a stale managed etcd whose server is gone; stopping it to take over its data directory');
    let signal: string;
    try {
      signal = await stopStaleEtcd(holder.pid, etcdDataDir, stopTimeoutMs);
    } catch (err) {
      throw new EtcdStartError(`${(err as Error).message}: stop it by hand or choose another --data-dir`);
    }
    logger.info({ ...fields, signal }, 'stopped the stale managed etcd; taking over its data directory');
  } else {
    const record = await readPidFile(pidFile);
    if (record !== undefined) logger.info({ etcdPid: record.etcdPid, ownerPid: record.ownerPid, dataDir: etcdDataDir }, 'the managed etcd of a previous server has already stopped; removing its pid file');
  }
  await removePidFile(pidFile);
}
