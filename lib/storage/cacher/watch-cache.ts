/**
 * The in-memory state of one resource: its current objects by key and a window of recent events
 * (spec 001 § Limits: at least the watch-history duration, default 5 minutes, bounded by a count
 * so memory stays bounded). `resourceVersion` is the revision the cache is synced to; it advances
 * with events and with progress notifications. The current objects are kept in key order with
 * copy-on-write snapshots (ordered-store.ts); the states of recent revisions are kept or rebuilt
 * as snapshots for paged and Exact lists (snapshots.ts).
 *
 * An old version of an object (one a later change superseded), once its event is older than
 * {@link PACK_AFTER_MS}, is held by the window as its JSON deflated against a dictionary of the
 * resource's own (packed-version.ts) and parsed again only when a watch from a past revision or a
 * list of a past revision needs it (issue #24 item 2): the 5 minutes of old versions were the
 * largest part of a worker's heap that grew with the write rate. Current objects are never packed.
 *
 * An object entering the cache has its managed fields' `fieldsV1` trees replaced by shared frozen
 * copies (managedfields/shared.ts): objects of one template carry equal trees, which were a fifth
 * of a worker's heap at 15,000 Pods.
 */
import { shareManagedFields } from '../../apimachinery/managedfields/index.js';
import type { StoredObject, WatchEventType } from '../interface.js';
import { FieldIndex } from './field-index.js';
import { keyRange, OrderedStore, type OrderedView } from './ordered-store.js';
import { PackedVersion, VersionPacker } from './packed-version.js';
import { DEFAULT_MAX_SNAPSHOTS, Snapshots, rewind } from './snapshots.js';
import type { IndexField } from './watcher-index.js';

/** One change as kept in the window: the new object (or the last state for DELETED) and the previous one. */
export interface CacheEvent {
  type: Exclude<WatchEventType, 'BOOKMARK' | 'ERROR'>;
  key: string;
  object: StoredObject;
  /** The object before the change (MODIFIED, DELETED); undefined for ADDED. */
  prevObject?: StoredObject;
  /** Revision of the change (several changes may share one: a relist, a multi-key transaction). */
  rv: number;
  /** Position in the cache's change sequence (set by the cache; strictly increasing). */
  seq?: number;
  /** Wall-clock time it entered the cache (ms). */
  at: number;
}

/** Window bounds. */
export interface WindowLimits {
  /** Events younger than this are kept (unless `maxEvents` forces eviction). */
  historyMs: number;
  /** Hard bound on the number of events held. */
  maxEvents: number;
}

/** How old an event must be before the old versions it holds are packed (ms). */
export const PACK_AFTER_MS = 10_000;

type Held = StoredObject | PackedVersion;

/** An event as the window holds it: its objects possibly packed. */
type HeldEvent = Omit<CacheEvent, 'object' | 'prevObject'> & { object: Held; prevObject?: Held };

const unpack = (h: Held): StoredObject => (h instanceof PackedVersion ? h.object() : h);

/** The event with its objects unpacked (the held event itself when none is packed). */
function unpacked(e: HeldEvent): CacheEvent {
  if (!(e.object instanceof PackedVersion) && !(e.prevObject instanceof PackedVersion)) return e as CacheEvent;
  return { ...e, object: unpack(e.object), prevObject: e.prevObject && unpack(e.prevObject) };
}

/** Upstream-like defaults: 5 minutes of history, at most 100 000 events. */
export const DEFAULT_WINDOW: WindowLimits = { historyMs: 5 * 60_000, maxEvents: 100_000 };

/** Thrown by `eventsSince` for a revision older than the window (→ 410 Expired). */
export class TooOldError extends Error {
  constructor(readonly requested: number, readonly oldest: number) {
    super(`too old resource version: ${requested} (${oldest})`);
  }
}

function rvOf(obj: StoredObject): number {
  return Number(obj.metadata?.resourceVersion ?? 0);
}

/** Current objects plus the event window of one resource. */
export class WatchCache {
  private readonly objects = new OrderedStore();
  private readonly snapshots: Snapshots;
  private events: HeldEvent[] = [];
  private head = 0;
  /** Index in `events` of the first event not yet looked at for packing. */
  private packFrom = 0;
  /** Per key, the looked-at event whose object was current then (packed once a later event supersedes it). */
  private readonly unpackedCurrent = new Map<string, HeldEvent>();
  /**
   * Each old version's packed form, shared by the events that hold it (its event and its
   * successor's); until it is packed, the compact JSON body it was handed with ({@link packedAs}).
   */
  private readonly packs = new WeakMap<StoredObject, PackedVersion | Buffer>();
  private readonly packer = new VersionPacker();
  /** Revision the cache is synced to (0 = not yet listed). */
  resourceVersion = 0;
  /** Oldest revision from which `eventsSince` can answer (events after it are all held). */
  private windowStart = 0;
  /** Sequence number of the last change applied. */
  lastSeq = 0;
  /** The current objects' keys by the kind's index field (issue #24 item 1); absent for a kind without one. */
  private readonly index?: FieldIndex;

  constructor(
    private readonly limits: WindowLimits = DEFAULT_WINDOW,
    maxSnapshots = DEFAULT_MAX_SNAPSHOTS,
    indexField?: IndexField,
  ) {
    this.snapshots = new Snapshots(maxSnapshots);
    if (indexField) this.index = new FieldIndex(indexField);
  }

  /** The field the current objects are indexed by, if any. */
  get indexField(): IndexField | undefined {
    return this.index?.field;
  }

  /** Number of current objects. */
  get size(): number {
    return this.objects.size;
  }

  /** Number of events held. */
  get eventCount(): number {
    return this.events.length - this.head;
  }

  /** The oldest revision a watch may start from. */
  get oldestResourceVersion(): number {
    return this.windowStart;
  }

  /** The current object at `key`. */
  get(key: string): StoredObject | undefined {
    return this.objects.get(key);
  }

  /**
   * Replaces the whole state with a fresh list at `rv` (first list, or relist after compaction).
   * Returns the events that turn the previous state into the new one (none on the first list);
   * the window restarts at `rv`.
   */
  replace(items: StoredObject[], rv: number, keyOf: (o: StoredObject) => string): CacheEvent[] {
    const now = Date.now();
    const diff: CacheEvent[] = [];
    const fresh = new Map<string, StoredObject>();
    for (const obj of items) {
      shareManagedFields(obj);
      fresh.set(keyOf(obj), obj);
    }
    if (this.resourceVersion > 0) {
      for (const [key, old] of this.objects.entries()) {
        if (!fresh.has(key)) {
          const last = { ...old, metadata: { ...old.metadata, resourceVersion: String(rv) } };
          diff.push({ type: 'DELETED', key, object: last, prevObject: old, rv, at: now });
        }
      }
      for (const [key, obj] of fresh) {
        const old = this.objects.get(key);
        if (!old) diff.push({ type: 'ADDED', key, object: obj, rv, at: now });
        else if (rvOf(old) !== rvOf(obj)) diff.push({ type: 'MODIFIED', key, object: obj, prevObject: old, rv, at: now });
      }
    }
    for (const e of diff) e.seq = ++this.lastSeq;
    this.objects.reset(fresh);
    this.index?.reset(fresh);
    this.snapshots.clear();
    this.events = [];
    this.head = 0;
    this.packFrom = 0;
    this.unpackedCurrent.clear();
    this.resourceVersion = rv;
    this.windowStart = rv;
    return diff;
  }

  /** Applies one change and records it in the window. */
  apply(ev: CacheEvent): void {
    ev.seq = ++this.lastSeq;
    if (ev.type !== 'DELETED') shareManagedFields(ev.object);
    this.index?.update(ev.key, this.objects.get(ev.key), ev.type === 'DELETED' ? undefined : ev.object);
    if (ev.type === 'DELETED') this.objects.delete(ev.key);
    else this.objects.set(ev.key, ev.object);
    // A copy of its own: the window packs what it holds, the caller's event stays as it is.
    this.events.push({ ...ev });
    if (ev.rv > this.resourceVersion) this.resourceVersion = ev.rv;
    this.evict(ev.at);
  }

  /** Advances the synced revision without a change (progress notification). */
  advance(rv: number): void {
    if (rv > this.resourceVersion) this.resourceVersion = rv;
    this.evict(Date.now());
  }

  private evict(now: number): void {
    while (this.eventCount > 0) {
      const oldest = this.events[this.head]!;
      const tooMany = this.eventCount > this.limits.maxEvents;
      const tooOld = now - oldest.at > this.limits.historyMs;
      if (!tooMany && !tooOld) break;
      this.windowStart = oldest.rv;
      if (this.unpackedCurrent.get(oldest.key) === oldest) this.unpackedCurrent.delete(oldest.key);
      this.head++;
    }
    if (this.snapshots.size > 0) this.snapshots.dropBefore(this.windowStart);
    if (this.head > 4096 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.packFrom = Math.max(0, this.packFrom - this.head);
      this.head = 0;
    }
    this.pack(now);
  }

  /**
   * Packs the old versions held by the events older than {@link PACK_AFTER_MS}, each event looked
   * at once: its previous object, and the earlier event holding that same object; its own object
   * unless it is still current (then it waits in `unpackedCurrent` for its successor).
   */
  private pack(now: number): void {
    if (this.packFrom < this.head) this.packFrom = this.head;
    for (; this.packFrom < this.events.length; this.packFrom++) {
      const e = this.events[this.packFrom]!;
      if (now - e.at < PACK_AFTER_MS) return;
      const prev = e.prevObject;
      if (prev !== undefined && !(prev instanceof PackedVersion)) {
        const packed = this.packOf(prev);
        e.prevObject = packed;
        const holder = this.unpackedCurrent.get(e.key);
        if (holder?.object === prev) {
          holder.object = packed;
          this.unpackedCurrent.delete(e.key);
        }
      }
      const obj = e.object;
      if (obj instanceof PackedVersion) continue;
      if (e.type !== 'DELETED' && this.objects.get(e.key) === obj) this.unpackedCurrent.set(e.key, e);
      else e.object = this.packOf(obj);
    }
  }

  /**
   * Records `body`, the compact JSON body of `obj` (its JSON and a newline, UTF-8, memory of its
   * own), as the packed form of `obj`, an old version: packing it then costs no serialization.
   */
  packedAs(obj: StoredObject, body: Buffer): void {
    if (!this.packs.has(obj)) this.packs.set(obj, body);
  }

  private packOf(obj: StoredObject): PackedVersion {
    const held = this.packs.get(obj);
    if (held instanceof PackedVersion) return held;
    const p = held ? this.packer.packJSON(held.subarray(0, held.length - 1)) : this.packer.pack(obj);
    this.packs.set(obj, p);
    return p;
  }

  /**
   * The events after revision `rv` whose key starts with `prefix` (or equals it, for a key).
   * Throws TooOldError when events after `rv` may have been evicted.
   */
  eventsSince(rv: number, prefix: string): CacheEvent[] {
    if (rv < this.windowStart) throw new TooOldError(rv, this.windowStart);
    const out: CacheEvent[] = [];
    for (let i = this.firstAfter(rv); i < this.events.length; i++) {
      const ev = this.events[i]!;
      if (ev.rv > rv && matchesPrefix(ev.key, prefix)) out.push(unpacked(ev));
    }
    return out;
  }

  /** Index in `events` of the first held event of a revision after `rv` (events are in revision order). */
  private firstAfter(rv: number): number {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid]!.rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The current `[key, object]` entries under `prefix` (or at the key), in key order. */
  snapshot(prefix: string): [string, StoredObject][] {
    const [from, to] = keyRange(prefix);
    const out: [string, StoredObject][] = [];
    for (const at = this.objects.view().scan(from, to); at.key !== undefined; at.next()) out.push([at.key, at.value!]);
    return out;
  }

  /**
   * The current `[key, object]` entries under `prefix` (or at the key) whose index field holds
   * `value`, in key order, read from the index (undefined when the cache has no index field).
   */
  indexedSnapshot(value: string, prefix: string): [string, StoredObject][] | undefined {
    return this.index?.keys(value, prefix).map((k) => [k, this.objects.get(k)!]);
  }

  /**
   * The current objects in key order, for a read that completes synchronously (before the next
   * change of the cache): no copy is made or forced.
   */
  view(): OrderedView {
    return this.objects.view();
  }

  /**
   * The state at revision `rv` as an immutable snapshot, kept for later lists of that revision;
   * undefined when the cache cannot tell it: `rv` is newer than the cache, or older than its event
   * window (the events after it are gone). The current state is snapshotted in O(1); an older
   * one is rebuilt from the window's later events (O(k · (log n + B)) for k events).
   */
  snapshotAt(rv: number): OrderedView | undefined {
    if (this.resourceVersion === 0 || rv > this.resourceVersion || rv < this.windowStart) return undefined;
    const kept = this.snapshots.get(rv);
    if (kept) return kept;
    const current = this.objects.snapshot();
    const from = this.firstAfter(rv);
    const changes = this.events.slice(from).map((e) => ({ key: e.key, prevObject: e.prevObject && unpack(e.prevObject) }));
    const snap = from === this.events.length ? current : rewind(current, changes);
    this.snapshots.put(rv, snap);
    return snap;
  }

  /** Forgets the snapshots of revisions up to `rv` (etcd compacted them: lists of them must fail as etcd's do). */
  dropSnapshotsThrough(rv: number): void {
    this.snapshots.dropThrough(rv);
  }
}

/** A key is within a watch's scope: under its prefix, or the key itself. */
export function matchesPrefix(key: string, prefixOrKey: string): boolean {
  return prefixOrKey.endsWith('/') ? key.startsWith(prefixOrKey) : key === prefixOrKey;
}
