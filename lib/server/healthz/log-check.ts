/**
 * The `log` health check of every health endpoint (spec 000 § Health endpoints), as upstream's
 * LogHealthz: from its first call on, the logger is flushed once a minute, and the check fails
 * with `logging blocked` when no flush has finished for two minutes (the log's destination, an
 * asynchronous stderr or file, stopped taking lines). The flushing stops with {@link LogHealthCheck.stop}.
 */
import type { HealthCheck } from './checks.js';

/** What the check needs of a logger (pino's `flush`, which calls back once buffered lines are written). */
export interface FlushableLogger {
  flush(cb?: (err?: Error) => void): void;
}

/** How often the logger is flushed, in ms (upstream: a minute). */
const FLUSH_INTERVAL_MS = 60_000;
/** How long without a finished flush the check fails, in ms (upstream: two minutes). */
const BLOCKED_AFTER_MS = 120_000;

/** The `log` check over one logger. */
export class LogHealthCheck implements HealthCheck {
  readonly name = 'log';
  /** When the last flush finished (ms, `now`'s clock); undefined until the first check. */
  private lastFlushedAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** `intervalMs` and `now` (the clock, in ms) are parameters for tests. */
  constructor(
    private readonly log: FlushableLogger,
    private readonly intervalMs = FLUSH_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** @throws Error `logging blocked` when no flush has finished for two minutes. */
  async check(): Promise<void> {
    if (this.lastFlushedAt === undefined) this.start();
    if (this.now() - this.lastFlushedAt! > BLOCKED_AFTER_MS) throw new Error('logging blocked');
  }

  /** Stops flushing (the server is stopping). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private start(): void {
    this.lastFlushedAt = this.now();
    this.timer = setInterval(() => {
      this.log.flush((err) => {
        if (!err) this.lastFlushedAt = this.now();
      });
    }, this.intervalMs);
    this.timer.unref();
  }
}
