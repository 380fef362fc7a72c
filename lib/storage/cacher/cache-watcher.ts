/**
 * One client watch served from the watch cache: filters events by key scope and predicate
 * (an object that stops matching is sent as DELETED, one that starts matching as ADDED), buffers
 * them for the client, sends BOOKMARKs when asked to, and is terminated when the client cannot
 * keep up (bounded memory; the client re-watches from its last resourceVersion).
 * spec 000 § Watch parameters; spec 001 § Events.
 */
import { AsyncQueue } from '../async-queue.js';
import type { SelectionPredicate, WatchEvent, Watcher } from '../interface.js';
import { bookmarkEvent } from '../watch-objects.js';
import { type CacheEvent, matchesPrefix } from './watch-cache.js';

/** Most events buffered for one client before it is considered too slow and closed. */
export const MAX_BUFFERED_EVENTS = 10_000;

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
}

/** A watcher fed by the cacher. */
export class CacheWatcher implements Watcher {
  private readonly queue = new AsyncQueue<WatchEvent>();
  private stopped = false;
  /** Sequence number of the last cache change delivered or skipped (changes up to it are done). */
  private sentSeq = 0;
  /** Highest revision sent: a BOOKMARK never goes below it. */
  private sentRV = 0;

  constructor(readonly opts: CacheWatcherOptions) {}

  /** True once stopped. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Queues events directly (initial state, errors); `rv` is the revision they bring the client to. */
  push(ev: WatchEvent, rv: number): void {
    if (this.stopped) return;
    this.queue.push(ev);
    if (rv > this.sentRV) this.sentRV = rv;
    if (this.queue.length > MAX_BUFFERED_EVENTS) this.stop();
  }

  /** Marks the cache's changes up to sequence `seq` (revision `rv`) as delivered: the watch starts after them. */
  advanceTo(seq: number, rv: number): void {
    if (seq > this.sentSeq) this.sentSeq = seq;
    if (rv > this.sentRV) this.sentRV = rv;
  }

  /** Offers a cache change; delivers it if it concerns this watcher and was not delivered yet. */
  offer(ev: CacheEvent): void {
    const seq = ev.seq ?? 0;
    if (this.stopped || seq <= this.sentSeq) return;
    this.sentSeq = seq;
    if (!matchesPrefix(ev.key, this.opts.scope)) return;
    const out = this.translate(ev);
    if (out) this.push(out, ev.rv);
  }

  private translate(ev: CacheEvent): WatchEvent | null {
    const p = this.opts.predicate;
    const key = ev.key;
    if (p.empty()) return { type: ev.type, object: ev.object, key };
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
    this.opts.onStop(this);
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    const it = this.queue[Symbol.asyncIterator]();
    return {
      next: () => it.next(),
      return: () => {
        this.stop();
        return it.return!();
      },
    };
  }
}
