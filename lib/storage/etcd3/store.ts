/**
 * The storage interface over etcd (ARCHITECTURE.md § Storage rules): resourceVersion = etcd
 * mod_revision; create = compare(mod_revision == 0) then put; update/delete = compare(mod_revision
 * == rev) then put/delete else range (the else branch returns the current object for the retry).
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Etcd3, ICompare, IKeyValue, IRangeResponse, IRequestOp } from 'etcd3';
import { deepCopy } from '../../apimachinery/deep-equal.js';
import type { EtcdOperation, EtcdResourceMetrics } from '../../metrics/storage.js';
import { decodeContinue, encodeContinue } from '../continue.js';
import {
  StorageError,
  compactedContinue,
  invalidPreconditions,
  invalidResourceVersion,
  keyExists,
  keyNotFound,
  tooLargeResourceVersion,
} from '../errors.js';
import {
  DELETE_OBJECT,
  type DeleteOptions,
  type GetOptions,
  type ListOptions,
  type ListResult,
  type Preconditions,
  type StorageInterface,
  type StoredObject,
  type UpdateFunc,
  type UpdateOptions,
  type Watcher,
} from '../interface.js';
import { isCompactedError, isFutureRevisionError, prefixEnd, wrapEtcdError } from './client.js';
import { responseTooLarge } from './failover.js';
import { ObjectCodec } from './codec.js';
import { type QuorumReadBatcher, quorumReadBatcher } from './read-batcher.js';
import { EtcdWatcher } from './watcher.js';
import { WrittenObjects } from './written-objects.js';

/** Largest number of keys fetched per range call while filtering a chunk. */
const MAX_FETCH = 10_000;
/** Most keys per range call of an unchunked list: big lists arrive in pages, each decoded apart. */
const PAGE_SIZE = 1_000;
/** Keys of the first range of an unchunked list; the next ranges are sized from its bytes. */
const FIRST_PAGE_SIZE = 100;
/**
 * Bytes of values one range of an unchunked list aims at (its answer is held whole while it is
 * decoded): 300 objects of 1 MB come in ranges of 100, then 33, not in one answer of 300 MB.
 */
const PAGE_BYTES = 32 * 1024 * 1024;
/** Objects decoded between yields to the event loop. */
const YIELD_EVERY = 256;
/**
 * The largest value, in bytes, that an update from a cached copy asks etcd to compare. The
 * compare carries the value a second time in the same transaction, and etcd refuses a request
 * past its limit (1.5 MiB by default): past this size the stored bytes are read and compared here.
 */
export const MAX_COMPARED_VALUE_BYTES = 256 * 1024;

/** The largest resourceVersion upstream's ParseUint(rv, 10, 64) reads. */
const MAX_UINT64 = 18446744073709551615n;

/** The bytes of the values of `kvs`. */
function bytesOf(kvs: readonly IKeyValue[]): number {
  let n = 0;
  for (const kv of kvs) n += kv.value.length;
  return n;
}

/** Parses a resourceVersion parameter: '' → 0; non-numeric or past 2^64-1 → InvalidResourceVersion. */
export function parseResourceVersion(rv: string | undefined): number {
  if (rv === undefined || rv === '') return 0;
  if (!/^\d+$/.test(rv) || (rv.length >= 20 && BigInt(rv) > MAX_UINT64)) throw invalidResourceVersion(rv);
  return Number(rv);
}

/** Checks DeleteOptions-style preconditions; throws InvalidPreconditions with upstream wording. */
export function checkPreconditions(key: string, pre: Preconditions | undefined, obj: StoredObject): void {
  if (!pre) return;
  const meta = obj.metadata ?? {};
  if (pre.uid !== undefined && pre.uid !== meta.uid) {
    throw invalidPreconditions(key, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
    throw invalidPreconditions(
      key,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
    );
  }
}

/**
 * The state a write attempt starts from: decoded, its stored bytes (only when read from etcd) and
 * its mod_revision; `confirmed` when read from etcd rather than handed in.
 */
interface Current {
  obj: StoredObject;
  value?: Buffer;
  rev: string;
  confirmed: boolean;
}

/**
 * The etcd3 implementation of StorageInterface; `codec` is how one resource's objects are held
 * in values (default: JSON as given, for storage without a kind); `metrics`, when given, records
 * every etcd request and LIST of the resource (`etcd_request_duration_seconds`,
 * `apiserver_storage_list_*`; lib/metrics/storage.ts).
 */
export class Etcd3Storage implements StorageInterface {
  constructor(
    private readonly client: Etcd3,
    private readonly codec: ObjectCodec = new ObjectCodec(),
    private readonly metrics?: EtcdResourceMetrics,
  ) {
    this.reads = quorumReadBatcher(client);
  }

  /** Quorum gets, batched per client. */
  private readonly reads: QuorumReadBatcher;
  /** What this storage writes, for its own watches' events (kept only while a watch is open). */
  private readonly writtenObjects = new WrittenObjects();
  /** Watches of this storage not yet stopped. */
  private openWatches = 0;

  /** Runs one etcd request, recorded under `operation` when the storage has metrics. */
  private async timed<T>(operation: EtcdOperation, call: () => Promise<T>): Promise<T> {
    const m = this.metrics;
    if (!m) return call();
    const start = process.hrtime.bigint();
    let failed = true;
    try {
      const out = await call();
      failed = false;
      return out;
    } finally {
      m.request(operation, start, failed);
    }
  }

  async create(key: string, obj: StoredObject, opts: { dryRun?: boolean } = {}): Promise<StoredObject> {
    if (obj.metadata?.resourceVersion) throw new StorageError('InvalidObj', key, 'resourceVersion should not be set on objects to be created');
    const encoded = this.codec.encode(obj);
    const value = encoded.value;
    if (opts.dryRun) {
      const existing = await this.rangeOne(key);
      if (existing) throw keyExists(key);
      return this.codec.written(encoded, '');
    }
    if (this.openWatches > 0) this.writtenObjects.put(key, value, encoded.canonical);
    let res;
    try {
      res = await this.timed('create', () =>
        this.client.kv.txn({
          compare: [{ key: Buffer.from(key), target: 'Mod', result: 'Equal', mod_revision: 0 }],
          success: [{ request_put: { key: Buffer.from(key), value } }],
          failure: [],
        }),
      );
    } catch (err) {
      wrapEtcdError(key, err);
    }
    if (!res.succeeded) throw keyExists(key);
    return this.codec.written(encoded, res.header.revision);
  }

  /**
   * Reads `key`: `resourceVersion` '0' as a serializable range of its own; otherwise through the
   * client's {@link QuorumReadBatcher} (one transaction for every get waiting at that moment).
   * When the stored mod_revision equals `opts.cachedExisting`'s resourceVersion, that object is
   * the answer and the value is not decoded.
   */
  async get(key: string, opts: GetOptions): Promise<StoredObject | null> {
    const minRV = parseResourceVersion(opts.resourceVersion);
    let kv: IKeyValue | undefined;
    let revision: string;
    try {
      if (opts.resourceVersion === '0') {
        const res = await this.timed('get', () => this.client.kv.range({ key: Buffer.from(key), serializable: true }));
        kv = res.kvs[0];
        revision = res.header.revision;
      } else {
        ({ kv, revision } = await this.timed('get', () => this.reads.read(key)));
      }
    } catch (err) {
      wrapEtcdError(key, err);
    }
    if (minRV > Number(revision)) throw tooLargeResourceVersion(key, String(minRV), revision);
    if (!kv) {
      if (opts.ignoreNotFound) return null;
      throw keyNotFound(key);
    }
    const hint = opts.cachedExisting;
    if (hint && hint.metadata?.resourceVersion === kv.mod_revision) return hint;
    return this.codec.decode(key, kv.value, kv.mod_revision);
  }

  async getList(prefix: string, opts: ListOptions): Promise<ListResult> {
    const end = prefixEnd(prefix);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    let startKey = prefix;
    let revision = 0;
    let paging = false;
    if (opts.continue) {
      const c = decodeContinue(opts.continue, prefix);
      startKey = c.startKey;
      revision = c.rv > 0 ? c.rv : 0;
      paging = true;
    } else {
      const rv = parseResourceVersion(opts.resourceVersion);
      if (rv > 0 && (opts.resourceVersionMatch === 'Exact' || (opts.resourceVersionMatch !== 'NotOlderThan' && limit > 0))) {
        revision = rv;
      }
    }
    const minRV = revision === 0 ? parseResourceVersion(opts.resourceVersion) : 0;
    const pred = opts.predicate;
    const items: StoredObject[] = [];
    let fetch = limit > 0 ? limit : FIRST_PAGE_SIZE;
    let key = startKey;
    let lastKey = '';
    let hasMore = false;
    let remaining: number | undefined;
    let fetched = 0;
    let evaluated = 0;
    // Set once a range's answer was too large for the client: pages never grow past it again.
    let ceiling = MAX_FETCH;
    for (;;) {
      let res: IRangeResponse;
      try {
        res = await this.timed('list', () => this.client.kv.range({ key: Buffer.from(key), range_end: end, limit: fetch, revision }));
      } catch (err) {
        if (responseTooLarge(err) && fetch > 1) {
          // Large objects: the same keys are asked for again, half as many at a time.
          fetch = ceiling = Math.floor(fetch / 2);
          continue;
        }
        if (isCompactedError(err)) {
          if (paging) throw compactedContinue(prefix, encodeContinue(startKey, prefix, -1));
          throw new StorageError('Compacted', prefix, 'The resourceVersion for the provided list is too old.');
        }
        if (isFutureRevisionError(err)) throw tooLargeResourceVersion(prefix, String(revision), await this.currentRevision());
        wrapEtcdError(prefix, err);
      }
      if (revision === 0) {
        revision = Number(res.header.revision);
        if (minRV > revision) throw tooLargeResourceVersion(prefix, String(minRV), String(revision));
      }
      const kvs: IKeyValue[] = res.kvs;
      fetched += kvs.length;
      let stoppedAt = -1;
      for (let i = 0; i < kvs.length; i++) {
        if (i > 0 && i % YIELD_EVERY === 0) await yieldToLoop();
        const kv = kvs[i]!;
        const k = kv.key.toString('utf8');
        const obj = this.codec.decode(k, kv.value, kv.mod_revision);
        lastKey = k;
        evaluated++;
        if (!pred.matches(obj)) continue;
        items.push(obj);
        if (limit > 0 && items.length === limit) {
          stoppedAt = i;
          break;
        }
      }
      if (stoppedAt >= 0) {
        hasMore = stoppedAt < kvs.length - 1 || res.more;
        if (hasMore && pred.empty()) remaining = Number(res.count) - (stoppedAt + 1);
        break;
      }
      if (!res.more || kvs.length === 0) break;
      key = `${lastKey}\x00`;
      if (limit > 0) fetch = Math.min(fetch * 2, ceiling);
      else fetch = Math.min(PAGE_SIZE, ceiling, Math.max(1, Math.floor((kvs.length * PAGE_BYTES) / Math.max(1, bytesOf(kvs)))));
    }
    this.metrics?.list(fetched, evaluated, items.length);
    const result: ListResult = { items, resourceVersion: String(revision) };
    if (hasMore) {
      result.continue = encodeContinue(`${lastKey}\x00`, prefix, revision);
      if (remaining !== undefined && remaining > 0) result.remainingItemCount = remaining;
    }
    return result;
  }

  /**
   * The read-modify-write loop (spec 000 § Resource versions; upstream etcd3 `GuaranteedUpdate`
   * and `conditionalDelete`): every write compares the mod_revision of the state it was computed
   * from, and a failed compare hands back the current state for another attempt in the same
   * transaction. An attempt from `cachedExisting` (not read from etcd) costs no read when it is
   * current; an error or a dry run computed from it stands only once a fresh read shows etcd
   * still holds its revision, and is computed again from the fresh state otherwise. Its write
   * also compares the stored bytes, so that etcd, not an encoding of the copy, tells a no-op
   * (the same bytes at the same revision: nothing written, the resourceVersion kept).
   */
  async guaranteedUpdate(key: string, opts: UpdateOptions, tryUpdate: UpdateFunc): Promise<StoredObject> {
    let current = opts.cachedExisting ? this.fromCachedExisting(opts.cachedExisting) : await this.rangeOne(key);
    for (;;) {
      if (!current && !opts.ignoreNotFound) throw keyNotFound(key);
      let updated: StoredObject | typeof DELETE_OBJECT;
      try {
        if (current) checkPreconditions(key, opts.preconditions, current.obj);
        updated = await tryUpdate(current ? (opts.tryUpdateReadsOnly ? current.obj : deepCopy(current.obj)) : {});
      } catch (err) {
        if (!current || current.confirmed) throw err;
        const fresh = await this.rangeOne(key, current);
        if (fresh?.rev === current.rev) throw err;
        current = fresh;
        continue;
      }
      if (updated === DELETE_OBJECT) {
        if (!current) throw keyNotFound(key);
        if (opts.dryRun) {
          const fresh = current.confirmed ? current : await this.rangeOne(key, current);
          if (fresh?.rev === current.rev) return current.obj;
          current = fresh;
          continue;
        }
        if (this.openWatches > 0) this.writtenObjects.delete(key, current.rev, current.obj);
        const res = await this.txn('delete', key, current.rev, { request_delete_range: { key: Buffer.from(key) } });
        if (res.succeeded) return current.obj;
        current = this.fromRangeResponse(key, res.responses[0]?.response_range);
        continue;
      }
      const encoded = this.codec.encode(updated);
      const value = encoded.value;
      if (current && !current.confirmed && (opts.dryRun || value.length > MAX_COMPARED_VALUE_BYTES)) {
        // A dry run decided on a copy stands only when etcd still holds that revision; a large
        // value is compared here rather than by etcd (see MAX_COMPARED_VALUE_BYTES).
        const fresh = await this.rangeOne(key, current);
        if (fresh?.rev !== current.rev) {
          current = fresh;
          continue;
        }
        current = fresh;
      }
      // A no-op update (the same stored bytes) writes nothing and keeps the resourceVersion, as upstream.
      if (current?.confirmed && value.equals(current.value!)) return current.obj;
      if (opts.dryRun) return this.codec.written(encoded, current ? current.rev : '');
      // From a copy, the stored bytes are not at hand: etcd compares them, and puts only when they differ.
      const fromCopy = current !== null && !current.confirmed;
      if (this.openWatches > 0) this.writtenObjects.put(key, value, encoded.canonical);
      const res = await this.txn('update', key, current ? current.rev : '0', { request_put: { key: Buffer.from(key), value } }, fromCopy ? value : undefined);
      if (res.succeeded) return this.codec.written(encoded, res.header.revision);
      const fresh = this.fromRangeResponse(key, res.responses[0]?.response_range);
      // The revision held, so the value compare failed: etcd holds these very bytes, a no-op.
      if (fromCopy && fresh?.rev === current!.rev) return fresh.obj;
      current = fresh;
    }
  }

  async delete(key: string, opts: DeleteOptions): Promise<StoredObject> {
    const { validateDeletion } = opts;
    return this.guaranteedUpdate(key, { preconditions: opts.preconditions, dryRun: opts.dryRun, cachedExisting: opts.cachedExisting }, async (current): Promise<typeof DELETE_OBJECT> => {
      await validateDeletion?.(current);
      return DELETE_OBJECT;
    });
  }

  /**
   * One compare-and-swap transaction on `key`: `then` when its mod_revision is `rev` (`'0'`:
   * absent) and, with `unlessValue`, its value differs from those bytes; else a read of the
   * current state (the failure's only response).
   */
  private async txn(operation: EtcdOperation, key: string, rev: string, then: IRequestOp, unlessValue?: Buffer) {
    const compare: ICompare[] = [{ key: Buffer.from(key), target: 'Mod', result: 'Equal', mod_revision: rev }];
    if (unlessValue) compare.push({ key: Buffer.from(key), target: 'Value', result: 'NotEqual', value: unlessValue });
    try {
      return await this.timed(operation, () =>
        this.client.kv.txn({
          compare,
          success: [then],
          failure: [{ request_range: { key: Buffer.from(key) } }],
        }),
      );
    } catch (err) {
      wrapEtcdError(key, err);
    }
  }

  async watch(keyOrPrefix: string, opts: ListOptions): Promise<Watcher> {
    this.openWatches++;
    let open = true;
    const release = () => {
      if (!open) return;
      open = false;
      this.openWatches--;
    };
    try {
      return await EtcdWatcher.start(this.client, this, this.codec, keyOrPrefix, opts, this.metrics, { written: this.writtenObjects, release });
    } catch (err) {
      release();
      throw err;
    }
  }

  /** The etcd database size in bytes (etcd's Status `dbSize`; `apiserver_storage_size_bytes`). */
  async dbSize(): Promise<number> {
    try {
      const status = await this.client.maintenance.status();
      return Number(status.dbSize);
    } catch (err) {
      wrapEtcdError('', err);
    }
  }

  async count(prefix: string): Promise<number> {
    try {
      const res = await this.timed('getCount', () => this.client.kv.range({ key: Buffer.from(prefix), range_end: prefixEnd(prefix), count_only: true }));
      return Number(res.count);
    } catch (err) {
      wrapEtcdError(prefix, err);
    }
  }

  /**
   * etcd's current revision, read with the batched quorum reads (a range of the empty key `\x00`):
   * concurrent callers, such as the watch caches' consistent lists at start, share one
   * transaction sent after they asked.
   */
  async currentRevision(): Promise<string> {
    try {
      return (await this.reads.read('\x00')).revision;
    } catch (err) {
      wrapEtcdError('', err);
    }
  }

  /**
   * One transaction of two ranges: a count of the prefix, and its keys written after `sinceRev`
   * (keys only: etcd counts before applying the mod-revision filter, so `count_only` cannot tell).
   */
  async changesSince(prefix: string, sinceRev: number): Promise<{ revision: number; count: number; changed: number }> {
    const key = Buffer.from(prefix);
    const range_end = prefixEnd(prefix);
    try {
      const res = await this.client.kv.txn({
        compare: [],
        success: [
          { request_range: { key, range_end, count_only: true } },
          { request_range: { key, range_end, keys_only: true, min_mod_revision: sinceRev + 1 } },
        ],
        failure: [],
      });
      return {
        revision: Number(res.header.revision),
        count: Number(res.responses[0]!.response_range.count),
        changed: res.responses[1]!.response_range.kvs.length,
      };
    } catch (err) {
      wrapEtcdError(prefix, err);
    }
  }

  /** Compacts etcd history up to `revision` (used by the compactor and by tests). */
  async compact(revision: string): Promise<void> {
    try {
      await this.client.kv.compact({ revision, physical: true });
    } catch (err) {
      if (isCompactedError(err)) return;
      wrapEtcdError('', err);
    }
  }

  /**
   * Reads `key` from etcd (a confirmed state). `copy`: the attempt's state from a caller's copy;
   * when etcd still holds its revision, its object is taken instead of decoding the value again.
   */
  private async rangeOne(key: string, copy?: Current | null): Promise<Current | null> {
    try {
      const res = await this.timed('get', () => this.client.kv.range({ key: Buffer.from(key) }));
      return this.fromRangeResponse(key, res, copy);
    } catch (err) {
      wrapEtcdError(key, err);
    }
  }

  private fromRangeResponse(key: string, res: IRangeResponse | undefined, copy?: Current | null): Current | null {
    const kv = res?.kvs[0];
    if (!kv) return null;
    const obj = copy?.rev === kv.mod_revision ? copy.obj : this.codec.decode(key, kv.value, kv.mod_revision);
    return { obj, value: kv.value, rev: kv.mod_revision, confirmed: true };
  }

  /** An attempt's state from a caller's copy of the object (its resourceVersion is the mod_revision). */
  private fromCachedExisting(obj: StoredObject): Current {
    return { obj, rev: String(obj.metadata?.resourceVersion ?? '0'), confirmed: false };
  }

}
