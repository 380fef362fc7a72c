/**
 * One client watch served from the watch cache: filters events by key scope and predicate
 * (an object that stops matching is sent as DELETED, one that starts matching as ADDED), buffers
 * them for the client, sends BOOKMARKs when asked to, and is terminated when the client cannot
 * keep up (bounded memory; the client re-watches from its last resourceVersion).
 * spec 000 § Watch parameters; spec 001 § Events.
 *
 * The buffer of dispatched events holds `capacity` events (upstream's cacheWatcher input channel,
 * sized by `watchChannelSize`); the initial state of a watch is not counted against it, as
 * upstream sends it apart from the channel. An offer that finds the buffer full still queues the
 * event but reports the watcher blocked: the cacher then grants it its dispatch budget and
 * terminates it if the buffer is still over capacity when that runs out (upstream's "Forcing
 * watcher close due to unresponsiveness"). Twice the capacity is a hard bound: the watcher is
 * terminated at once. A terminated watcher drops what it buffered and its stream ends.
 */
import { AsyncQueue } from '../async-queue.js';
import type { SelectionPredicate, WatchEvent, Watcher } from '../interface.js';
import { bookmarkEvent } from '../watch-objects.js';
import { type CacheEvent, matchesPrefix } from './watch-cache.js';

/** Smallest buffer of a watcher (upstream `minWatchChanSize`). */
export const MIN_WATCH_CHAN_SIZE = 10;
/** Largest buffer of a watcher of a resource without an index (upstream `maxWatchChanSizeWithoutIndex`). */
export const MAX_WATCH_CHAN_SIZE = 100;
/** The history length upstream divides the cache capacity by to size a watcher's buffer (`eventFreshDuration`), s. */
const EVENT_FRESH_SECONDS = 75;

/**
 * Buffer size (events) of the watchers of a cache holding at most `cacheCapacity` events:
 * about one second of the cache's history, clamped to [10, 100] (upstream
 * watchCache.suggestedWatchChannelSize for a resource without index or trigger).
 */
export function watchChannelSize(cacheCapacity: number): number {
  const size = Math.ceil(cacheCapacity / EVENT_FRESH_SECONDS);
  return Math.min(MAX_WATCH_CHAN_SIZE, Math.max(MIN_WATCH_CHAN_SIZE, size));
}

/** The last change offered, and its event as a watcher without a predicate sees it. */
let lastChange: CacheEvent | null = null;
let lastEvent: WatchEvent | null = null;

/**
 * The event of `ev` for a watcher without a predicate: one object shared by every such watcher
 * (events are never mutated; the cacher offers one change to all its watchers in a row, so one
 * remembered change serves the whole fan-out without an allocation per watcher).
 */
function unfiltered(ev: CacheEvent): WatchEvent {
  if (ev !== lastChange || !lastEvent) {
    lastChange = ev;
    lastEvent = { type: ev.type, object: ev.object, key: ev.key };
  }
  return lastEvent;
}

/** Options of a cache watcher. */
export interface CacheWatcherOptions {
  /** Key prefix (ending in `/`) or a single key. */
  scope: string;
  predicate: SelectionPredicate;
  allowBookmarks: boolean;
  /** Called once when the watcher ends (to unregister it). */
  onStop: (w: CacheWatcher) => void;
  /** The revision the cache is synced to (for the last BOOKMARK of a graceful stop). */
  currentRV: () => number;
  /** Dispatched events buffered before the watcher counts as blocked (default {@link MAX_WATCH_CHAN_SIZE}). */
  capacity?: number;
  /** Called when the client consumed enough of a full buffer for it to be under capacity again. */
  onUnblocked?: (w: CacheWatcher) => void;
  /** Called once if the watcher is terminated for not keeping up, with the number of events it dropped. */
  onTerminated?: (buffered: number) => void;
}

/** A watcher fed by the cacher. */
export class CacheWatcher implements Watcher {
  private readonly queue = new AsyncQueue<WatchEvent>();
  private stopped = false;
  private readonly capacity: number;
  /** Buffered events of the initial state (sent first; not counted against the capacity). */
  private initialLeft = 0;
  private blocked = false;
  private resolveDone!: () => void;
  /** Resolves when the watcher stops (the HTTP handler stops waiting on a stuck socket then). */
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));
  /** Sequence number of the last cache change delivered or skipped (changes up to it are done). */
  private sentSeq = 0;
  /** Highest revision sent: a BOOKMARK never goes below it. */
  private sentRV = 0;

  constructor(readonly opts: CacheWatcherOptions) {
    this.capacity = opts.capacity ?? MAX_WATCH_CHAN_SIZE;
  }

  /** True once stopped. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Dispatched events buffered and not yet taken by the client. */
  get buffered(): number {
    return this.queue.length - this.initialLeft;
  }

  /** True while the buffer is over capacity (the client is not keeping up). */
  get isBlocked(): boolean {
    return this.blocked;
  }

  /**
   * Queues one event of the watch's start (its initial state, or the changes since the requested
   * revision), sent before any dispatched change and not counted against the capacity; `rv` as
   * for {@link push}.
   */
  pushInitial(ev: WatchEvent, rv: number): void {
    if (this.stopped) return;
    const before = this.queue.length;
    this.queue.push(ev);
    if (this.queue.length > before) this.initialLeft++;
    if (rv > this.sentRV) this.sentRV = rv;
  }

  /**
   * Queues an event (a change, a BOOKMARK, an ERROR); `rv` is the revision it brings the client
   * to. Returns false when the buffer is now over capacity (blocked); past twice the capacity
   * the watcher is terminated at once.
   */
  push(ev: WatchEvent, rv: number): boolean {
    if (this.stopped) return true;
    this.queue.push(ev);
    if (rv > this.sentRV) this.sentRV = rv;
    const n = this.buffered;
    if (n <= this.capacity) return true;
    this.blocked = true;
    if (n > 2 * this.capacity) this.terminate();
    return false;
  }

  /**
   * Closes the watcher because its client did not keep up: the buffered events are dropped and
   * the stream ends (upstream cacheWatcher.add's close on timer expiry, not graceful).
   */
  terminate(): void {
    if (this.stopped) return;
    const buffered = this.queue.length;
    this.queue.close(true);
    this.initialLeft = 0;
    this.stopped = true;
    this.resolveDone();
    this.opts.onTerminated?.(buffered);
    this.opts.onStop(this);
  }

  /** Bookkeeping after the client took one event. */
  private consumed(): void {
    if (this.initialLeft > 0) this.initialLeft--;
    if (this.blocked && this.buffered <= this.capacity) {
      this.blocked = false;
      this.opts.onUnblocked?.(this);
    }
  }

  /** Marks the cache's changes up to sequence `seq` (revision `rv`) as delivered: the watch starts after them. */
  advanceTo(seq: number, rv: number): void {
    if (seq > this.sentSeq) this.sentSeq = seq;
    if (rv > this.sentRV) this.sentRV = rv;
  }

  /**
   * Offers a cache change; delivers it if it concerns this watcher and was not delivered yet.
   * Returns false when the watcher's buffer is over capacity (see {@link push}); `initial`: one
   * of the changes a watch from a past revision starts with (see {@link pushInitial}).
   */
  offer(ev: CacheEvent, initial = false): boolean {
    const seq = ev.seq ?? 0;
    if (this.stopped || seq <= this.sentSeq) return true;
    this.sentSeq = seq;
    if (!matchesPrefix(ev.key, this.opts.scope)) return true;
    const out = this.translate(ev);
    if (!out) return true;
    if (!initial) return this.push(out, ev.rv);
    this.pushInitial(out, ev.rv);
    return true;
  }

  private translate(ev: CacheEvent): WatchEvent | null {
    const p = this.opts.predicate;
    const key = ev.key;
    if (p.empty()) return unfiltered(ev);
    const cur = ev.type !== 'DELETED' && p.matches(ev.object);
    const prev = ev.prevObject !== undefined && p.matches(ev.prevObject);
    if (ev.type === 'DELETED') return prev ? { type: 'DELETED', object: ev.object, key } : null;
    if (cur && prev) return { type: 'MODIFIED', object: ev.object, key };
    if (cur) return { type: 'ADDED', object: ev.object, key };
    if (prev) {
      const old = ev.prevObject!;
      return { type: 'DELETED', object: { ...old, metadata: { ...old.metadata, resourceVersion: String(ev.rv) } }, key };
    }
    return null;
  }

  /** Sends a BOOKMARK at `rv` if the client asked for bookmarks. */
  bookmark(rv: number, initialEventsEnd = false): void {
    if (this.stopped || !this.opts.allowBookmarks || rv < this.sentRV) return;
    this.push(bookmarkEvent(rv, initialEventsEnd), rv);
  }

  /** Ends the stream after what is buffered; `graceful` sends a last BOOKMARK first. */
  stop(graceful = false): void {
    if (this.stopped) return;
    if (graceful) this.bookmark(this.opts.currentRV());
    this.stopped = true;
    this.queue.close();
    this.resolveDone();
    this.opts.onStop(this);
  }

  take(): WatchEvent | undefined | null {
    const ev = this.queue.take();
    if (ev) this.consumed();
    return ev;
  }

  onReadable(cb: () => void): void {
    this.queue.onReadable(cb);
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    const it = this.queue[Symbol.asyncIterator]();
    return {
      next: async () => {
        const r = await it.next();
        if (!r.done) this.consumed();
        return r;
      },
      return: () => {
        this.stop();
        return it.return!();
      },
    };
  }
}
