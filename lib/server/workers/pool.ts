/**
 * The primary's pool of server workers (issue #17 item 4): N processes forked with node:cluster,
 * each a full API server over the same etcd, behind the one listening socket the primary owns.
 * The primary accepts connections and hands them to the workers in turn (cluster's round-robin
 * policy, SCHED_RR, set explicitly so that `NODE_CLUSTER_SCHED_POLICY` cannot change it); each
 * worker does TLS and HTTP on its connections. A worker that exits while the pool runs is forked
 * again after a backoff that doubles per consecutive failure (reset once a worker served for
 * `stableMs`). Workers must be given an explicit port: cluster shares one listening socket per
 * (address, port) a worker asks for, and a worker forked again while the others serve asks for
 * the same one. Stopping asks every worker to shut down gracefully and waits for them all.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../logging.js';
import { isServingMessage, type ShutdownMessage } from './protocol.js';

/** Restart backoff of a worker slot (milliseconds). */
export interface RestartBackoff {
  /** Delay before the first restart after a stable run. */
  initialMs: number;
  /** Longest delay. */
  maxMs: number;
  /** A worker that served this long before exiting resets the slot's failure count. */
  stableMs: number;
}

/** 1 s, doubling to 30 s; a minute of serving counts as stable. */
export const DEFAULT_RESTART_BACKOFF: RestartBackoff = { initialMs: 1000, maxMs: 30_000, stableMs: 60_000 };

/** The delay before restarting after `failures` consecutive failures (0, 1, …): initialMs·2^failures, at most maxMs. */
export function restartDelay(b: RestartBackoff, failures: number): number {
  return Math.min(b.maxMs, b.initialMs * 2 ** failures);
}

/** How the pool runs its workers. */
export interface WorkerPoolConfig {
  /** Number of workers (≥ 1). */
  count: number;
  /** The command-line arguments of every worker (the script is the primary's own). */
  args: readonly string[];
  log: Logger;
  /** How long {@link WorkerPool.stop} waits for a worker's graceful exit before SIGKILL (ms). */
  stopTimeoutMs: number;
  backoff?: RestartBackoff;
}

/** One place in the pool: its current worker, or the timer that will fork the next one. */
interface Slot {
  worker?: Worker;
  /** When the current worker announced it serves (ms since the epoch). */
  servingSince?: number;
  failures: number;
  restart?: NodeJS.Timeout;
}

/** A running pool; see the module comment. */
export class WorkerPool {
  private readonly slots: Slot[];
  private readonly backoff: RestartBackoff;
  private port?: number;
  private started = false;
  private stopping = false;
  private startFailed?: (err: Error) => void;
  private allServing?: () => void;

  constructor(private readonly cfg: WorkerPoolConfig) {
    this.slots = Array.from({ length: cfg.count }, () => ({ failures: 0 }));
    this.backoff = cfg.backoff ?? DEFAULT_RESTART_BACKOFF;
  }

  /**
   * Forks every worker; resolves with the bound secure port once all of them serve.
   * @throws Error when a worker exits before serving (the caller then stops the pool).
   */
  start(): Promise<number> {
    cluster.schedulingPolicy = cluster.SCHED_RR;
    return new Promise<number>((resolve, reject) => {
      this.allServing = () => {
        this.started = true;
        resolve(this.port!);
      };
      this.startFailed = reject;
      for (const slot of this.slots) this.fork(slot);
    });
  }

  /** The process ids of the live workers. */
  pids(): number[] {
    return this.slots.flatMap((s) => (s.worker?.process.pid === undefined ? [] : [s.worker.process.pid]));
  }

  /** Asks every worker to shut down gracefully (SIGKILL after `stopTimeoutMs`); resolves once all exited. No restarts after. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const s of this.slots) clearTimeout(s.restart);
    await Promise.all(this.slots.map((s) => (s.worker ? this.stopWorker(s.worker) : undefined)));
  }

  private fork(slot: Slot): void {
    slot.restart = undefined;
    slot.servingSince = undefined;
    cluster.setupPrimary({ args: [...this.cfg.args] });
    const w = cluster.fork();
    slot.worker = w;
    w.on('error', (err) => this.cfg.log.warn({ err, worker: w.id }, 'worker channel error'));
    w.on('message', (m: unknown) => {
      if (!isServingMessage(m) || slot.worker !== w) return;
      this.port ??= m.port;
      slot.servingSince = Date.now();
      this.cfg.log.info({ worker: w.id, pid: w.process.pid, port: m.port }, 'worker serving');
      if (!this.started && this.slots.every((s) => s.servingSince !== undefined)) this.allServing?.();
    });
    w.once('exit', (code, signal) => this.onExit(slot, w, code, signal));
  }

  private onExit(slot: Slot, w: Worker, code: number | null, signal: string | null): void {
    if (slot.worker === w) slot.worker = undefined;
    if (this.stopping) return;
    const how = { worker: w.id, pid: w.process.pid, code, signal };
    if (!this.started) {
      this.startFailed?.(new Error(`worker ${w.id} exited before serving (${signal ? `signal ${signal}` : `code ${code}`})`));
      return;
    }
    if (slot.servingSince !== undefined && Date.now() - slot.servingSince >= this.backoff.stableMs) slot.failures = 0;
    const delayMs = restartDelay(this.backoff, slot.failures);
    slot.failures++;
    this.cfg.log.warn({ ...how, restartInMs: delayMs }, 'worker exited unexpectedly; restarting');
    slot.restart = setTimeout(() => this.fork(slot), delayMs);
  }

  private async stopWorker(w: Worker): Promise<void> {
    if (w.isDead()) return;
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    if (w.isConnected()) {
      const m: ShutdownMessage = { type: 'shutdown' };
      w.send(m);
    } else {
      w.process.kill('SIGTERM');
    }
    const timer = setTimeout(() => w.process.kill('SIGKILL'), this.cfg.stopTimeoutMs);
    await exited;
    clearTimeout(timer);
  }
}
