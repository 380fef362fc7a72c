/**
 * One watch over etcd: the raw watch stream (not the etcd3 wrapper, which hides compaction),
 * translated to ADDED / MODIFIED / DELETED and filtered by the selection predicate, with
 * synthetic ADDED events for a start without an exact version (spec 000 § Resource versions,
 * Watch semantics; ARCHITECTURE.md § Storage rules).
 */
import type { Etcd3, IEvent, IRangeResponse, IWatchResponse } from 'etcd3';
import type { EtcdResourceMetrics } from '../../metrics/storage.js';
import { AsyncQueue } from '../async-queue.js';
import type { ListOptions, StorageInterface, StoredObject, WatchEvent, Watcher } from '../interface.js';
import { bookmarkEvent, expiredStatus } from '../watch-objects.js';
import { prefixEnd, wrapEtcdError } from './client.js';
import type { ObjectCodec } from './codec.js';
import { parseResourceVersion } from './store.js';
import type { WrittenObjects } from './written-objects.js';

type DuplexStream = Awaited<ReturnType<Etcd3['watchClient']['watch']>>;

/** The writes of the storage a watch belongs to: their objects, and the call that ends the watch's claim on them. */
export interface OwnWrites {
  written: WrittenObjects;
  /** Called once, when the watch stops. */
  release(): void;
}

/** The 410 Expired message of a watch from a compacted revision, as upstream's etcd3 watcher words it. */
export const COMPACTED_WATCH_MESSAGE = 'The resourceVersion for the provided watch is too old.';

/**
 * Changes a watch from etcd may hold that its client has not taken (beyond its initial state):
 * one more closes the watch, so a client that stops reading cannot make the server hold an
 * unbounded backlog (issue #19 item 1; upstream blocks the etcd stream instead, which one shared
 * gRPC stream cannot do per watch). Its client resumes from the last resourceVersion it got.
 */
export const ETCD_WATCH_BUFFERED_CHANGES = 1000;

/** A watch over one key or a prefix. */
export class EtcdWatcher implements Watcher {
  private readonly queue = new AsyncQueue<WatchEvent>();
  private stream: DuplexStream | null = null;
  private stopped = false;
  /** The queue length at which the watch is closed: its initial events plus {@link ETCD_WATCH_BUFFERED_CHANGES}. */
  private capacity = ETCD_WATCH_BUFFERED_CHANGES;

  private constructor(
    private readonly codec: ObjectCodec,
    private readonly keyOrPrefix: string,
    private readonly opts: ListOptions,
    private readonly metrics: EtcdResourceMetrics | undefined,
    private readonly own: OwnWrites | undefined,
  ) {}

  /**
   * Starts a watch: lists first when the start is not exact, then streams changes; `metrics`
   * counts the events and progress notifications received from etcd; `own` gives the objects
   * of the storage's own writes, which its events then carry instead of a decode of their bytes.
   */
  static async start(client: Etcd3, storage: StorageInterface, codec: ObjectCodec, keyOrPrefix: string, opts: ListOptions, metrics?: EtcdResourceMetrics, own?: OwnWrites): Promise<EtcdWatcher> {
    const w = new EtcdWatcher(codec, keyOrPrefix, opts, metrics, own);
    const rv = opts.resourceVersion ?? '';
    let startRev: number;
    if (rv === '' || rv === '0' || opts.sendInitialEvents) {
      const initial = await w.initialState(client, storage, rv);
      for (const obj of initial.items) w.queue.push({ type: 'ADDED', object: obj });
      startRev = Number(initial.resourceVersion) + 1;
      if (opts.sendInitialEvents && opts.allowWatchBookmarks) w.queue.push(bookmarkEvent(initial.resourceVersion, true));
      w.capacity += w.queue.length;
    } else {
      startRev = parseResourceVersion(rv) + 1;
    }
    await w.open(client, startRev);
    return w;
  }

  /** The synthetic initial objects and the revision they were read at (one consistent read). */
  private async initialState(client: Etcd3, storage: StorageInterface, rv: string): Promise<{ items: StoredObject[]; resourceVersion: string }> {
    const isPrefix = this.keyOrPrefix.endsWith('/');
    if (isPrefix) {
      const list = await storage.getList(this.keyOrPrefix, { predicate: this.opts.predicate, resourceVersion: rv === '0' ? '' : rv, resourceVersionMatch: rv && rv !== '0' ? 'NotOlderThan' : '' });
      return list;
    }
    // The object and the revision come from the same range response: reading them separately
    // would lose a write landing between the two reads.
    let res: IRangeResponse;
    try {
      res = await client.kv.range({ key: Buffer.from(this.keyOrPrefix) });
    } catch (err) {
      wrapEtcdError(this.keyOrPrefix, err);
    }
    const kv = res.kvs[0];
    const obj = kv ? this.codec.decode(this.keyOrPrefix, kv.value, kv.mod_revision) : null;
    return { items: obj && this.opts.predicate.matches(obj) ? [obj] : [], resourceVersion: res.header.revision };
  }

  private async open(client: Etcd3, startRev: number): Promise<void> {
    const stream = await client.watchClient.watch();
    this.stream = stream;
    const isPrefix = this.keyOrPrefix.endsWith('/');
    stream.on('data', (res: IWatchResponse) => this.onResponse(res));
    stream.on('error', () => this.stop());
    stream.on('end', () => this.stop());
    stream.write({
      create_request: {
        key: Buffer.from(this.keyOrPrefix),
        ...(isPrefix ? { range_end: prefixEnd(this.keyOrPrefix) } : {}),
        start_revision: startRev,
        prev_kv: true,
        progress_notify: true,
      },
    });
    if (this.opts.timeoutMs && this.opts.timeoutMs > 0) {
      setTimeout(() => this.stop(), this.opts.timeoutMs).unref();
    }
  }

  private onResponse(res: IWatchResponse): void {
    if (this.stopped) return;
    if (res.canceled) {
      if (res.compact_revision && res.compact_revision !== '0') {
        this.queue.push({ type: 'ERROR', object: expiredStatus(COMPACTED_WATCH_MESSAGE) });
      }
      this.stop();
      return;
    }
    if (res.events.length === 0) {
      if (!res.created) this.metrics?.bookmark();
      if (!res.created && this.opts.allowWatchBookmarks) this.queue.push(bookmarkEvent(res.header.revision));
      return;
    }
    for (const ev of res.events) {
      this.metrics?.eventReceived();
      const out = this.translate(ev);
      if (!out) continue;
      if (this.queue.length >= this.capacity) {
        this.stop();
        return;
      }
      this.queue.push(out);
    }
  }

  private translate(ev: IEvent): WatchEvent | null {
    const key = ev.kv.key.toString('utf8');
    const pred = this.opts.predicate;
    const written = this.own?.written;
    if (ev.type === 'Delete') {
      if (!ev.prev_kv) return null;
      const mine = written?.takeDelete(key, ev.prev_kv.mod_revision);
      const old = mine ? this.codec.stamped(mine, ev.kv.mod_revision) : this.codec.decode(key, ev.prev_kv.value, ev.kv.mod_revision);
      return pred.matches(old) ? { type: 'DELETED', object: old, key } : null;
    }
    const mine = written?.takePut(key, ev.kv.value);
    const cur = mine ? this.codec.stamped(mine, ev.kv.mod_revision) : this.codec.decode(key, ev.kv.value, ev.kv.mod_revision);
    const put = (type: 'ADDED' | 'MODIFIED'): WatchEvent => ({ type, object: cur, key, storedJSONBody: this.codec.storedBody(cur, ev.kv.value, ev.kv.mod_revision) });
    const curMatches = pred.matches(cur);
    if (!ev.prev_kv || ev.kv.create_revision === ev.kv.mod_revision) {
      return curMatches ? put('ADDED') : null;
    }
    if (pred.empty()) return put('MODIFIED');
    const old = this.codec.decode(key, ev.prev_kv.value, ev.kv.mod_revision);
    const oldMatches = pred.matches(old);
    if (curMatches && oldMatches) return put('MODIFIED');
    if (curMatches) return put('ADDED');
    if (oldMatches) return { type: 'DELETED', object: old, key };
    return null;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.own?.release();
    const s = this.stream;
    this.stream = null;
    if (s) {
      const grpcStream = s as unknown as { removeAllListeners(e: string): void; cancel?: () => void };
      grpcStream.removeAllListeners('data');
      s.on('error', () => undefined);
      s.end();
      grpcStream.cancel?.();
    }
    this.queue.close();
  }

  take(): WatchEvent | undefined | null {
    return this.queue.take();
  }

  onReadable(cb: () => void): void {
    this.queue.onReadable(cb);
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    return this.queue[Symbol.asyncIterator]();
  }
}
