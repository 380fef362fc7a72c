/**
 * A keyed work queue for the in-process controllers (upstream client-go `workqueue`, reduced to
 * what they use): a key added while queued is queued once; a key added while it is being synced
 * is synced again afterwards; `addAfter` delays a key (the earliest request wins); a failed sync is
 * retried with per-key exponential backoff; the worker stops when its signal aborts.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** First retry delay after a failed sync (ms); doubles per consecutive failure of the key. */
const BASE_RETRY_MS = 5;
/** Longest retry delay (ms). */
const MAX_RETRY_MS = 30_000;
/** Longest delay `addAfter` waits in one timer (ms): Node's timers overflow above 2^31-1. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Syncs one key; throwing schedules a retry of the key. */
export type SyncFunc = (key: string) => Promise<void>;

/** A deduplicating queue of keys with one worker. */
export class WorkQueue {
  private readonly queued = new Set<string>();
  private readonly delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly failures = new Map<string, number>();
  private wake: (() => void) | undefined;

  /** Queues `key` now. */
  add(key: string): void {
    this.queued.add(key);
    this.wake?.();
  }

  /** Queues `key` after `ms` milliseconds, unless it is already due earlier. */
  addAfter(key: string, ms: number): void {
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = Date.now() + ms;
    const pending = this.delayed.get(key);
    if (pending && pending.at <= at) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, Math.min(ms, MAX_TIMER_MS));
    timer.unref();
    this.delayed.set(key, { at, timer });
  }

  /**
   * Runs the worker until `signal` aborts: takes keys in order of arrival and syncs them one at a
   * time; a failure is reported to `onError` and the key retried after a backoff.
   */
  async run(signal: AbortSignal, sync: SyncFunc, onError: (err: unknown, key: string) => void): Promise<void> {
    const stop = () => this.wake?.();
    signal.addEventListener('abort', stop, { once: true });
    try {
      while (!signal.aborted) {
        const [key] = this.queued;
        if (key === undefined) {
          await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = undefined;
          continue;
        }
        this.queued.delete(key);
        try {
          await sync(key);
          this.failures.delete(key);
        } catch (err) {
          if (signal.aborted) break;
          onError(err, key);
          const n = this.failures.get(key) ?? 0;
          this.failures.set(key, n + 1);
          this.addAfter(key, Math.min(BASE_RETRY_MS * 2 ** n, MAX_RETRY_MS));
          await sleep(0);
        }
      }
    } finally {
      signal.removeEventListener('abort', stop);
      for (const { timer } of this.delayed.values()) clearTimeout(timer);
      this.delayed.clear();
    }
  }
}
