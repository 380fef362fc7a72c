/**
 * A Watcher over any async iterable of events: what a storage wrapper that transforms events
 * asynchronously returns (custom resources converted between versions, lib/registry/
 * apiextensions/customresource/converting-storage.ts). Its `take()` reads one event ahead of the
 * consumer, so that at most one event is held outside the wrapped watcher, as a for-await
 * consumer holds one; the async iterator is the wrapped one, unchanged.
 */
import type { WatchEvent, Watcher } from './interface.js';

/** Options of {@link iterableWatcher}. */
export interface IterableWatcherOptions {
  /** Stops the underlying watch (`graceful` as {@link Watcher.stop}); also called when the iterable fails. */
  stop: (graceful?: boolean) => void;
  /** As {@link Watcher.done}. */
  done?: Promise<void>;
}

/**
 * Wraps `events` as a Watcher. A failure of the iterable ends the stream for `take()` (the
 * client re-watches, as after any server-side end) and stops the underlying watch.
 */
export function iterableWatcher(events: AsyncIterable<WatchEvent>, opts: IterableWatcherOptions): Watcher {
  return new IterableWatcher(events, opts);
}

class IterableWatcher implements Watcher {
  readonly done?: Promise<void>;
  private it: AsyncIterator<WatchEvent> | null = null;
  /** The event read ahead, not yet taken. */
  private ready: WatchEvent | undefined;
  private reading = false;
  private ended = false;
  private readable: (() => void) | null = null;

  constructor(
    private readonly events: AsyncIterable<WatchEvent>,
    private readonly opts: IterableWatcherOptions,
  ) {
    if (opts.done) this.done = opts.done;
  }

  stop(graceful?: boolean): void {
    this.opts.stop(graceful);
  }

  take(): WatchEvent | undefined | null {
    const ev = this.ready;
    if (ev) {
      this.ready = undefined;
      this.readAhead();
      return ev;
    }
    this.readAhead();
    return this.ended ? null : undefined;
  }

  onReadable(cb: () => void): void {
    this.readable = cb;
    this.readAhead();
  }

  /** Reads the next event unless one is ready, being read, or the stream ended. */
  private readAhead(): void {
    if (this.reading || this.ended || this.ready) return;
    this.reading = true;
    this.it ??= this.events[Symbol.asyncIterator]();
    this.it.next().then(
      (r) => {
        this.reading = false;
        if (r.done) this.ended = true;
        else this.ready = r.value;
        this.readable?.();
      },
      () => {
        this.reading = false;
        this.ended = true;
        this.opts.stop();
        this.readable?.();
      },
    );
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return this.events[Symbol.asyncIterator]();
  }
}
