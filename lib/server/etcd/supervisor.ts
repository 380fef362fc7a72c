/**
 * Supervision of the managed etcd: restarts after unexpected exits with exponential backoff
 * on the same ports, deliberate restarts, and stopping (see `managed-etcd.ts`).
 */

import {
  clientUrl,
  describeExit,
  spawnEtcd,
  terminate,
  waitHealthy,
  type EtcdProcess,
  type EtcdProcessConfig,
} from './etcd-process.js';
import { removePidFile, writePidFile } from './pid-file.js';

/** First delay before a supervised restart, in milliseconds; doubled per failure. */
const INITIAL_BACKOFF_MS = 200;
/** Longest delay between supervised restart attempts, in milliseconds. */
const MAX_BACKOFF_MS = 10_000;

/** The few logger methods the supervisor uses (a pino logger fits). */
export interface EtcdLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** A running managed etcd. */
export interface ManagedEtcd {
  /** Client URL, `http://127.0.0.1:<port>`; stays the same across restarts. */
  readonly endpoint: string;
  /** Process id of the current etcd process, undefined while none is running. */
  readonly pid: number | undefined;
  /** etcd's data directory (`<dataDir>/etcd`). */
  readonly etcdDataDir: string;
  /** The log file of etcd's output. */
  readonly logFile: string;
  /**
   * Stops etcd gracefully and starts it again on the same ports and data.
   * @throws EtcdStartError if it does not come back (supervision keeps retrying), or Error after stop().
   */
  restart(): Promise<void>;
  /** SIGTERM, SIGKILL after the grace period; resolves when the process is gone. Idempotent. */
  stop(): Promise<void>;
}

/** Timing, logging and pid file of a supervisor. */
export interface SupervisorSettings {
  /** File holding the current process's pid. */
  pidFile: string;
  /** How long each start may take to become healthy, in milliseconds. */
  startTimeoutMs: number;
  /** Grace between SIGTERM and SIGKILL, in milliseconds. */
  stopTimeoutMs: number;
  logger: EtcdLogger;
}

/** Writes the process's pid to the pid file (nothing if it failed to spawn). */
export async function recordPid(pidFile: string, proc: EtcdProcess): Promise<void> {
  if (proc.child.pid !== undefined) await writePidFile(pidFile, proc.child.pid);
}

/** The supervisor behind {@link ManagedEtcd}; takes over a first process that is already healthy. */
export class SupervisedEtcd implements ManagedEtcd {
  readonly endpoint: string;
  private current: EtcdProcess;
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private backoffMs = INITIAL_BACKOFF_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  /** The restart in progress, if any; resolves to its failure or undefined. */
  private inflight: Promise<Error | undefined> | undefined;
  /** Processes this supervisor terminated on purpose. */
  private readonly deliberate = new WeakSet<EtcdProcess>();
  private readonly onProcessExit = (): void => {
    if (this.current.child.exitCode === null && this.current.child.signalCode === null) this.current.child.kill('SIGTERM');
  };

  constructor(
    private readonly config: EtcdProcessConfig,
    first: EtcdProcess,
    private readonly settings: SupervisorSettings,
  ) {
    this.endpoint = clientUrl(config);
    this.current = first;
    this.supervise(first);
    process.on('exit', this.onProcessExit);
  }

  get pid(): number | undefined {
    const { child } = this.current;
    return child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  get etcdDataDir(): string {
    return this.config.dataDir;
  }

  get logFile(): string {
    return this.config.logFile;
  }

  async restart(): Promise<void> {
    if (this.stopping) throw new Error('managed etcd is stopped');
    await this.inflight;
    clearTimeout(this.retryTimer);
    this.deliberate.add(this.current);
    await terminate(this.current, this.settings.stopTimeoutMs);
    const failure = await this.respawn();
    if (failure !== undefined) throw failure;
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping = true;
      clearTimeout(this.retryTimer);
      this.deliberate.add(this.current);
      await terminate(this.current, this.settings.stopTimeoutMs);
      await this.inflight;
      await terminate(this.current, this.settings.stopTimeoutMs);
      await removePidFile(this.settings.pidFile);
      process.off('exit', this.onProcessExit);
    })();
    return this.stopped;
  }

  /** Restarts `proc`'s successor when `proc` exits by itself. */
  private supervise(proc: EtcdProcess): void {
    void proc.exited.then((exit) => {
      if (this.stopping || this.deliberate.has(proc) || proc !== this.current) return;
      this.settings.logger.warn(
        { etcdPid: proc.child.pid, exit: describeExit(exit), restartInMs: this.backoffMs, logFile: this.config.logFile },
        'etcd exited unexpectedly; restarting it',
      );
      this.scheduleRespawn();
    });
  }

  private scheduleRespawn(): void {
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    this.retryTimer = setTimeout(() => void this.respawn(), delay);
  }

  /** Starts a new process on the same ports; on failure logs and schedules another try. */
  private respawn(): Promise<Error | undefined> {
    const attempt = this.startOnce().then((failure) => {
      if (failure !== undefined && !this.stopping) {
        this.settings.logger.error({ err: failure.message, retryInMs: this.backoffMs }, 'etcd restart failed');
        this.scheduleRespawn();
      }
      if (this.inflight === attempt) this.inflight = undefined;
      return failure;
    });
    this.inflight = attempt;
    return attempt;
  }

  /** One start on the configured ports: resolves undefined once healthy, or the failure. */
  private async startOnce(): Promise<Error | undefined> {
    if (this.stopping) return new Error('managed etcd is stopped');
    let proc: EtcdProcess;
    try {
      proc = await spawnEtcd(this.config);
    } catch (err) {
      return err as Error;
    }
    if (this.stopping) {
      await terminate(proc, this.settings.stopTimeoutMs);
      return new Error('managed etcd is stopped');
    }
    this.current = proc;
    try {
      await recordPid(this.settings.pidFile, proc);
      await waitHealthy(proc, this.config, this.settings.startTimeoutMs);
    } catch (err) {
      this.deliberate.add(proc);
      await terminate(proc, this.settings.stopTimeoutMs);
      return err as Error;
    }
    if (this.stopping) return new Error('managed etcd is stopped');
    this.backoffMs = INITIAL_BACKOFF_MS;
    this.settings.logger.info({ etcdPid: proc.child.pid, endpoint: this.endpoint }, 'etcd started');
    this.supervise(proc);
    return undefined;
  }
}
