/**
 * The `batch` mode (upstream plugin/pkg/audit/buffered): events go into a bounded buffer and
 * are handed to the delegate in batches of at most `maxBatchSize`, at least every
 * `maxBatchWaitMs`, at most `throttleQPS` batches a second (bursts of `throttleBurst`). A full
 * buffer drops the event (counted as plugin `buffered`: "audit buffer queue blocked"); the
 * request is never held up.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { AuditMetrics } from './metrics.js';
import { deliversAsync } from './backend.js';
import type { AuditBackend, AuditEvent } from './types.js';

/** Batching parameters (upstream BatchConfig); durations in milliseconds. */
export interface BatchConfig {
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  throttleEnable: boolean;
  throttleQPS: number;
  throttleBurst: number;
  /** Deliver batches concurrently (the webhook) instead of one after another (the log). */
  asyncDelegate: boolean;
}

/** A token bucket: `burst` tokens, refilled at `qps` a second. */
class TokenBucket {
  private tokens: number;
  private last = Date.now();

  constructor(
    private readonly qps: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** Milliseconds to wait before a token is available (taking it). */
  take(): number {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }
}

/** Waits `ms`, or less when `signal` aborts. */
const sleep = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal, ref: false }).catch(() => undefined);

/** Buffers events for a delegate; see the module comment. */
export class BufferedBackend implements AuditBackend {
  readonly name = 'buffered';
  private buffer: AuditEvent[] = [];
  private readonly bucket?: TokenBucket;
  private wake?: () => void;
  private stopping = false;
  /** Aborted at shutdown: ends a throttling wait. */
  private readonly stopped = new AbortController();
  private readonly loop: Promise<void>;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly delegate: AuditBackend,
    private readonly cfg: BatchConfig,
    private readonly metrics: AuditMetrics,
  ) {
    if (cfg.throttleEnable) this.bucket = new TokenBucket(cfg.throttleQPS, cfg.throttleBurst);
    this.loop = this.run();
  }

  /** Queues the events; those past the buffer's capacity are dropped and counted. Always true. */
  processEvents(events: AuditEvent[]): boolean {
    if (this.stopping) {
      this.metrics.pluginError(this.name, new Error('audit backend shut down'), events);
      return true;
    }
    const room = this.cfg.bufferSize - this.buffer.length;
    if (room < events.length) {
      this.metrics.pluginError(this.name, new Error('audit buffer queue blocked'), events.slice(Math.max(0, room)));
      events = events.slice(0, Math.max(0, room));
    }
    for (const e of events) this.buffer.push(e);
    if (this.buffer.length >= this.cfg.maxBatchSize || this.buffer.length === events.length) this.wake?.();
    return true;
  }

  /** Events waiting in the buffer. */
  get buffered(): number {
    return this.buffer.length;
  }

  /** Stops taking events, delivers what is buffered, and waits for the deliveries while the delegate shuts down. */
  async shutdown(): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    this.wake?.();
    await this.loop;
    // Concurrently: the delegate bounds how long its deliveries in flight may take.
    await Promise.all([Promise.all(this.inFlight), this.delegate.shutdown()]);
  }

  /** Resolves on a wake-up or after `ms` (0: only on a wake-up). */
  private wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      this.wake = () => {
        this.wake = undefined;
        if (timer) clearTimeout(timer);
        resolve();
      };
      if (ms > 0) timer = setTimeout(() => this.wake?.(), ms).unref();
    });
  }

  private async run(): Promise<void> {
    for (;;) {
      if (this.buffer.length === 0) {
        if (this.stopping) return;
        await this.wait(0);
        continue;
      }
      // A batch is taken when full, when the wait is over, or at shutdown.
      if (this.buffer.length < this.cfg.maxBatchSize && !this.stopping) await this.wait(this.cfg.maxBatchWaitMs);
      const batch = this.buffer.splice(0, this.cfg.maxBatchSize);
      const wait = this.stopping ? 0 : (this.bucket?.take() ?? 0);
      if (wait > 0) await sleep(wait, this.stopped.signal);
      await this.deliver(batch);
    }
  }

  private async deliver(batch: AuditEvent[]): Promise<void> {
    const d = this.delegate;
    if (!deliversAsync(d)) {
      d.processEvents(batch);
      return;
    }
    const p = d.deliver(batch);
    if (!this.cfg.asyncDelegate) return p;
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }
}
