/**
 * An in-process informer: lists a key prefix through the storage interface, then watches from the
 * list's resourceVersion, keeping a cache of current objects and telling handlers of every change;
 * on a watch end or a 410 it resumes from the last seen version or relists (issue #2; the same
 * pattern clients use, spec 000 § Resource versions).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { EVERYTHING, type SelectionPredicate, type StorageInterface, type StoredObject, type WatchEventType } from '../storage/interface.js';

/**
 * Called for ADDED / MODIFIED / DELETED (also for objects found by a relist). `old` is the object
 * the cache held under the same key before this change (for a MODIFIED, the version handlers were
 * last told of; undefined when the cache held none), so that a handler need not keep its own copy.
 */
export type InformerHandler = (type: Exclude<WatchEventType, 'BOOKMARK' | 'ERROR'>, obj: StoredObject, old?: StoredObject) => void;

function cacheKey(obj: StoredObject): string {
  const m = obj.metadata ?? {};
  return m.namespace ? `${m.namespace as string}/${m.name as string}` : (m.name as string);
}

/**
 * A cache of the objects under one storage prefix that a selection predicate selects (all of
 * them by default), kept current by list + watch.
 */
export class Informer {
  private readonly cache = new Map<string, StoredObject>();
  /** The cached objects by namespace ('' for cluster-scoped ones), then by cache key. */
  private readonly byNamespace = new Map<string, Map<string, StoredObject>>();
  private changes = 0;
  private readonly handlers: InformerHandler[] = [];
  private synced = false;
  private syncWaiters: (() => void)[] = [];

  /** `predicate` selects the objects listed and watched (a field selector pinning `metadata.name`, say); objects it does not select never reach the cache or the handlers. */
  constructor(
    private readonly storage: StorageInterface,
    private readonly prefix: string,
    private readonly onError: (err: unknown) => void,
    private readonly predicate: SelectionPredicate = EVERYTHING,
  ) {}

  /** Registers a handler (before `run`, to see the initial objects). */
  addHandler(h: InformerHandler): void {
    this.handlers.push(h);
  }

  /** The cached object `namespace/name` (or `name` for cluster-scoped). */
  get(key: string): StoredObject | undefined {
    return this.cache.get(key);
  }

  /** All cached objects. */
  list(): StoredObject[] {
    return [...this.cache.values()];
  }

  /** A number that changes whenever the cache does (callers rebuild what they derive from it only then). */
  get generation(): number {
    return this.changes;
  }

  /** The cached objects of one namespace (a map lookup, whatever the size of the cache). */
  listNamespace(namespace: string): StoredObject[] {
    const m = this.byNamespace.get(namespace);
    return m ? [...m.values()] : [];
  }

  /** Caches `obj` under `k`; returns the object it replaces. */
  private put(k: string, obj: StoredObject): StoredObject | undefined {
    this.changes++;
    const old = this.cache.get(k);
    this.cache.set(k, obj);
    const ns = ((obj.metadata?.namespace as string | undefined) ?? '');
    let m = this.byNamespace.get(ns);
    if (!m) this.byNamespace.set(ns, (m = new Map()));
    m.set(k, obj);
    return old;
  }

  private remove(k: string, obj: StoredObject): void {
    this.changes++;
    this.cache.delete(k);
    const ns = ((obj.metadata?.namespace as string | undefined) ?? '');
    const m = this.byNamespace.get(ns);
    if (!m) return;
    m.delete(k);
    if (m.size === 0) this.byNamespace.delete(ns);
  }

  /** Whether the first list has been loaded (upstream `HasSynced`). */
  get hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first list has been loaded. */
  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  private emit(type: Exclude<WatchEventType, 'BOOKMARK' | 'ERROR'>, obj: StoredObject, old: StoredObject | undefined): void {
    for (const h of this.handlers) h(type, obj, old);
  }

  private async relist(): Promise<string> {
    const list = await this.storage.getList(this.prefix, { predicate: this.predicate });
    const seen = new Set<string>();
    for (const obj of list.items) {
      const k = cacheKey(obj);
      seen.add(k);
      const old = this.put(k, obj);
      this.emit(old ? 'MODIFIED' : 'ADDED', obj, old);
    }
    for (const [k, obj] of this.cache) {
      if (!seen.has(k)) {
        this.remove(k, obj);
        this.emit('DELETED', obj, obj);
      }
    }
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
    return list.resourceVersion;
  }

  /** Runs until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    let rv = '';
    while (!signal.aborted) {
      try {
        if (rv === '') rv = await this.relist();
        const watcher = await this.storage.watch(this.prefix, { predicate: this.predicate, resourceVersion: rv });
        const stop = () => watcher.stop();
        signal.addEventListener('abort', stop, { once: true });
        try {
          for await (const ev of watcher) {
            if (ev.type === 'ERROR') {
              rv = '';
              break;
            }
            const newRV = ev.object.metadata?.resourceVersion as string | undefined;
            if (newRV) rv = newRV;
            if (ev.type === 'BOOKMARK') continue;
            const k = cacheKey(ev.object);
            let old: StoredObject | undefined;
            if (ev.type === 'DELETED') {
              old = this.cache.get(k);
              this.remove(k, old ?? ev.object);
            } else old = this.put(k, ev.object);
            this.emit(ev.type, ev.object, old);
          }
        } finally {
          signal.removeEventListener('abort', stop);
          watcher.stop();
        }
        await sleep(100, undefined, { signal }).catch(() => undefined);
      } catch (err) {
        if (signal.aborted) return;
        this.onError(err);
        rv = '';
        await sleep(1000, undefined, { signal }).catch(() => undefined);
      }
    }
  }
}
