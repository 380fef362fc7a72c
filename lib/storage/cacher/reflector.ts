/**
 * Feeds a WatchCache from the underlying storage: list, then one watch from the list's revision;
 * when the watch breaks it resumes from the last revision seen (nothing lost, nothing repeated);
 * when that revision was compacted it lists again and hands on the difference as events.
 * The watch asks for no progress notifications: etcd 3.4.23 may send one ahead of events still
 * owed to the stream (LIBRARIES.md § etcd server), so the cacher confirms progress itself.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { EVERYTHING, type StorageInterface, type StoredObject } from '../interface.js';
import type { CacheEvent, WatchCache } from './watch-cache.js';

/** What the reflector reports to its owner. */
export interface ReflectorSink {
  /** New changes, in revision order, already applied to the cache. */
  events(evs: CacheEvent[]): void;
  /** A failure worth logging; the reflector retries by itself. */
  error(err: unknown): void;
  /** The cache was (re)initialized from a list. */
  initialized?(): void;
  /**
   * An event is about to replace `prev`, the object the cache holds at its key, with `next`;
   * `storedJSONBody` makes the JSON body of `next` from its stored bytes (the event's
   * `WatchEvent.storedJSONBody`; valid during this call only).
   */
  replacing?(prev: StoredObject, next: StoredObject, storedJSONBody: () => Buffer | undefined): void;
}

/** Backoff after a failed list or watch (ms), doubling up to the maximum. */
const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5_000;

/** The list-and-watch loop of one resource. */
export class Reflector {
  private listed = false;
  private readyWaiters: (() => void)[] = [];
  /** Number of times the state was (re)listed: 1 after start; more after compactions. */
  relists = 0;

  constructor(
    private readonly delegate: StorageInterface,
    private readonly prefix: string,
    private readonly cache: WatchCache,
    private readonly sink: ReflectorSink,
  ) {}

  /** Resolves once the first list is in the cache. */
  ready(): Promise<void> {
    if (this.listed) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  private keyOf = (obj: StoredObject): string => {
    const m = obj.metadata ?? {};
    return m.namespace ? `${this.prefix}${m.namespace as string}/${m.name as string}` : `${this.prefix}${m.name as string}`;
  };

  private async list(): Promise<void> {
    const list = await this.delegate.getList(this.prefix, { predicate: EVERYTHING });
    const diff = this.cache.replace(list.items, Number(list.resourceVersion), this.keyOf);
    this.relists++;
    this.sink.initialized?.();
    if (diff.length > 0) this.sink.events(diff);
    if (!this.listed) {
      this.listed = true;
      for (const w of this.readyWaiters.splice(0)) w();
    }
  }

  /** Runs until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    let needList = true;
    let backoff = MIN_BACKOFF_MS;
    while (!signal.aborted) {
      try {
        if (needList) {
          await this.list();
          needList = false;
        }
        const w = await this.delegate.watch(this.prefix, {
          predicate: EVERYTHING,
          resourceVersion: String(this.cache.resourceVersion),
        });
        const stop = () => w.stop();
        signal.addEventListener('abort', stop, { once: true });
        try {
          for await (const ev of w) {
            backoff = MIN_BACKOFF_MS;
            if (ev.type === 'ERROR') {
              needList = true;
              break;
            }
            if (ev.type === 'BOOKMARK') continue;
            const rv = Number(ev.object.metadata?.resourceVersion ?? 0);
            const key = ev.key ?? this.keyOf(ev.object);
            const prevObject = this.cache.get(key);
            if (prevObject && ev.storedJSONBody) this.sink.replacing?.(prevObject, ev.object, ev.storedJSONBody);
            const cacheEvent: CacheEvent = { type: ev.type, key, object: ev.object, prevObject, rv, at: Date.now() };
            this.cache.apply(cacheEvent);
            this.sink.events([cacheEvent]);
          }
        } finally {
          signal.removeEventListener('abort', stop);
          w.stop();
        }
      } catch (err) {
        if (signal.aborted) return;
        this.sink.error(err);
      }
      if (signal.aborted) return;
      await sleep(backoff, undefined, { signal }).catch(() => undefined);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }
}
