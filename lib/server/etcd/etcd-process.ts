/**
 * One etcd process of the managed etcd: its command line, spawning it with output appended
 * to a log file, waiting for it to become healthy, and terminating it.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { formatDuration } from '../../apimachinery/duration.js';
import { isEtcdHealthy } from './health.js';
import { logTail } from './log-tail.js';

/** Backend size quota, in bytes (8 GiB: etcd's suggested maximum; its default is 2 GiB). */
export const QUOTA_BACKEND_BYTES = 8 * 1024 ** 3;
/** Interval of watch progress notifications, which the watch cache relies on. */
export const WATCH_PROGRESS_NOTIFY_INTERVAL = '5s';
/** How often `/health` is polled while waiting for etcd, in milliseconds. */
const HEALTH_POLL_MS = 20;

/** Everything that fixes one etcd process's command line. */
export interface EtcdProcessConfig {
  /** The etcd executable (resolved path). */
  binary: string;
  /** etcd's data directory. */
  dataDir: string;
  /** Loopback port of the client URL. */
  clientPort: number;
  /** Loopback port of the peer URL. */
  peerPort: number;
  /** File that receives etcd's stdout and stderr (appended). */
  logFile: string;
  /**
   * `setpriv` (util-linux): etcd is started through `setpriv --pdeathsig SIGTERM`, so the kernel
   * sends it SIGTERM when the server dies by any signal (Linux PR_SET_PDEATHSIG). setpriv execs
   * etcd in place: the child's pid is etcd's. Absent: etcd is started directly.
   */
  parentDeathLauncher?: string;
}

/** A running (or exited) etcd process. */
export interface EtcdProcess {
  child: ChildProcess;
  /** Size of the log file when this process started: its own output begins there. */
  logOffset: number;
  /** Resolves when the process has exited or failed to spawn (never rejects). */
  exited: Promise<EtcdExit>;
}

/** How an etcd process ended: exit code, signal, or the error that kept it from starting. */
export interface EtcdExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

/** `code 1`, `signal SIGKILL` or the spawn error's message. */
export function describeExit(exit: EtcdExit): string {
  if (exit.error !== undefined) return exit.error.message;
  return exit.signal === null ? `code ${exit.code}` : `signal ${exit.signal}`;
}

/** Why etcd did not start; `message` includes the last lines of its log. */
export class EtcdStartError extends Error {
  override readonly name = 'EtcdStartError';
  constructor(
    message: string,
    /** True when the log says a port was taken: a retry with other ports may succeed. */
    readonly portConflict = false,
  ) {
    super(message);
  }
}

/** The client URL of a config: `http://127.0.0.1:<clientPort>`. */
export function clientUrl(config: EtcdProcessConfig): string {
  return `http://127.0.0.1:${config.clientPort}`;
}

/**
 * etcd 3.4 flags of a single-member cluster on loopback, without automatic compaction (the server
 * compacts). A restarted member waits one election timeout (randomized between 1 and 2 of them)
 * before it leads and serves: with etcd's defaults (100 ms heartbeat, 1 s election) that was
 * 1–2 s of every `make run`. Alone on loopback it has no peer to disagree with, so a 10 ms
 * heartbeat and a 50 ms election (the least etcd takes: 5 heartbeats) make it ready in ~0.15 s
 * (issue #22 § Ready in under a second; 100 ms took ~0.1 s more); the ticks cost no measurable
 * idle CPU.
 */
export function etcdArgs(config: EtcdProcessConfig): string[] {
  const peer = `http://127.0.0.1:${config.peerPort}`;
  const client = clientUrl(config);
  return [
    '--name=default',
    `--data-dir=${config.dataDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    '--initial-cluster-state=new',
    `--experimental-watch-progress-notify-interval=${WATCH_PROGRESS_NOTIFY_INTERVAL}`,
    `--quota-backend-bytes=${QUOTA_BACKEND_BYTES}`,
    '--auto-compaction-retention=0',
    '--snapshot-count=10000',
    '--heartbeat-interval=10',
    '--election-timeout=50',
    '--logger=zap',
    '--log-outputs=stderr',
  ];
}

/** The environment without `ETCD_*` variables, which etcd would read as flags. */
function etcdEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('ETCD_') || k === 'ETCD_UNSUPPORTED_ARCH'),
  );
}

/** Starts etcd with its output appended to the log file (after a header line). */
export async function spawnEtcd(config: EtcdProcessConfig): Promise<EtcdProcess> {
  const args = etcdArgs(config);
  const fd = openSync(config.logFile, 'a', 0o600);
  let child: ChildProcess;
  let logOffset: number;
  try {
    writeSync(fd, `--- ${new Date().toISOString()} starting ${config.binary} ${args.join(' ')}\n`);
    logOffset = (await stat(config.logFile)).size;
    const [command, argv] = config.parentDeathLauncher ? [config.parentDeathLauncher, ['--pdeathsig', 'SIGTERM', '--', config.binary, ...args]] : [config.binary, args];
    child = spawn(command, argv, { stdio: ['ignore', fd, fd], env: etcdEnvironment() });
  } finally {
    closeSync(fd);
  }
  const exited = new Promise<EtcdExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.on('error', (error) => {
      if (child.pid === undefined) resolve({ code: null, signal: null, error });
    });
  });
  return { child, logOffset, exited };
}

/**
 * Waits until the process answers `/health` with `{"health":"true"}`.
 * @throws EtcdStartError when it exits first or `timeoutMs` (milliseconds) pass; the message
 *   names the log file and quotes its last lines.
 */
export async function waitHealthy(proc: EtcdProcess, config: EtcdProcessConfig, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exit: EtcdExit | undefined;
  void proc.exited.then((e) => (exit = e));
  while (exit === undefined) {
    if (await isEtcdHealthy(clientUrl(config), Math.min(1_000, timeoutMs))) return;
    if (exit !== undefined) break;
    if (Date.now() >= deadline) {
      const tail = await logTail(config.logFile, proc.logOffset);
      throw new EtcdStartError(
        `etcd did not report healthy at ${clientUrl(config)}/health within ${formatDuration(timeoutMs)}; last lines of ${config.logFile}:\n${tail}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
  }
  const tail = await logTail(config.logFile, proc.logOffset);
  throw new EtcdStartError(
    `etcd exited during startup (${describeExit(exit)}); last lines of ${config.logFile}:\n${tail}`,
    /address already in use/.test(tail),
  );
}

/**
 * Stops the process: SIGTERM, then SIGKILL if it has not exited after `graceMs`
 * milliseconds. Resolves once it has exited; immediately if it already had.
 */
export async function terminate(proc: EtcdProcess, graceMs: number): Promise<void> {
  if (proc.child.pid === undefined || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)));
  const outcome = await Promise.race([proc.exited, timedOut]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    proc.child.kill('SIGKILL');
    await proc.exited;
  }
}
