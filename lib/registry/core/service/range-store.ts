/**
 * The allocation state of one range kept in etcd, as upstream's storage-backed allocator
 * (`allocator/storage.Etcd`): one RangeAllocation object per range
 * (`{kind: RangeAllocation, apiVersion: v1, metadata, range, data}`, `data` the bitmap snapshot
 * in base64) under `<prefix>/ranges/<name>`. Every change is a read-modify-write of that object
 * with compare-and-swap on its revision (the storage's guaranteedUpdate), retried on conflict, so
 * several servers on one etcd never hand out the same item. Changes from this process are also
 * serialized locally, so they do not conflict with each other.
 */
import type { StorageInterface, StoredObject } from '../../../storage/interface.js';
import { AllocationBitmap } from './bitmap.js';

/** The resource names upstream gives the two kinds of range (used in its error texts). */
export const SERVICE_IP_ALLOCATIONS = 'serviceipallocations';
export const NODE_PORT_ALLOCATIONS = 'servicenodeportallocations';

/** The etcd key of a range: `ranges/serviceips`, `ranges/secondaryserviceips`, `ranges/servicenodeports`. */
export function rangeKey(prefix: string, name: 'serviceips' | 'secondaryserviceips' | 'servicenodeports'): string {
  return `${prefix.replace(/\/+$/, '')}/ranges/${name}`;
}

/** What a range looks like to the store: its spec, its size and its static band. */
export interface RangeShape {
  /** The `range` written in the object (`10.0.0.0/24`, `30000-32767`). */
  spec: string;
  size: number;
  offset: number;
  /** Why a stored object of another range cannot be used (upstream's restore error). */
  mismatch: string;
}

/** The stored state of a range. */
export interface RangeSnapshot {
  range: string;
  data: Buffer;
  /** The revision it was read at; '' when the object does not exist yet. */
  resourceVersion: string;
}

/** A write of the whole range that lost a race (the repair loop retries). */
export class RangeConflictError extends Error {
  override readonly name = 'RangeConflictError';
}

/** A failed allocation step, with upstream's message (`provided IP is already allocated`, …). */
export class AllocationError extends Error {
  override readonly name = 'AllocationError';
  constructor(
    readonly reason: 'NotInRange' | 'Allocated' | 'Full' | 'Unavailable',
    message: string,
  ) {
    super(message);
  }
}

/** The etcd-backed bitmap of one range. */
export class RangeAllocationStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly storage: StorageInterface,
    readonly key: string,
    readonly shape: RangeShape,
    private readonly resource: string,
  ) {}

  /** A fresh, empty bitmap of this range. */
  emptyBitmap(): AllocationBitmap {
    return new AllocationBitmap(this.shape.size, this.shape.offset);
  }

  /** Runs `task` after the earlier ones of this process. */
  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Applies `fn` to the current bitmap and writes the result with compare-and-swap; `fn` runs
   * again on the newer state when another writer won. Returns `fn`'s last result.
   * @throws AllocationError Unavailable when the range is not initialized yet or is another range.
   */
  mutate<T>(fn: (bitmap: AllocationBitmap) => T): Promise<T> {
    return this.serialize(async () => {
      let result!: T;
      await this.storage.guaranteedUpdate(this.key, { ignoreNotFound: true }, (cur) => {
        const bitmap = this.bitmapOf(cur);
        result = fn(bitmap);
        return { ...cur, data: bitmap.snapshot().toString('base64') };
      });
      return result;
    });
  }

  /** The current bitmap (a read, nothing written). @throws AllocationError as {@link mutate}. */
  async current(): Promise<AllocationBitmap> {
    return this.bitmapOf((await this.storage.get(this.key, { ignoreNotFound: true })) ?? {});
  }

  private bitmapOf(obj: StoredObject): AllocationBitmap {
    if (!obj.metadata) throw new AllocationError('Unavailable', `cannot allocate resources of type ${this.resource} at this time`);
    if (obj.range !== this.shape.spec) throw new AllocationError('Unavailable', this.shape.mismatch);
    const bitmap = this.emptyBitmap();
    bitmap.restore(Buffer.from(typeof obj.data === 'string' ? obj.data : '', 'base64'));
    return bitmap;
  }

  /** The stored state as it is (any range), or an empty snapshot when there is none. */
  async read(): Promise<RangeSnapshot> {
    const obj = await this.storage.get(this.key, { ignoreNotFound: true });
    if (!obj) return { range: '', data: Buffer.alloc(0), resourceVersion: '' };
    return {
      range: typeof obj.range === 'string' ? obj.range : '',
      data: Buffer.from(typeof obj.data === 'string' ? obj.data : '', 'base64'),
      resourceVersion: String(obj.metadata?.resourceVersion ?? ''),
    };
  }

  /**
   * Writes the whole range as `bitmap` if it is still at `resourceVersion` ('' = if it does not
   * exist yet), as upstream's `CreateOrUpdate`. @throws RangeConflictError when it changed.
   */
  replace(bitmap: AllocationBitmap, resourceVersion: string): Promise<void> {
    return this.serialize(async () => {
      await this.storage.guaranteedUpdate(this.key, { ignoreNotFound: true }, (cur) => {
        const existing = String(cur.metadata?.resourceVersion ?? '');
        if (resourceVersion !== '' && existing !== '' && existing !== resourceVersion) throw new RangeConflictError('the provided resource version does not match');
        if (resourceVersion === '' && existing !== '') throw new RangeConflictError('another caller has already initialized the resource');
        return { kind: 'RangeAllocation', apiVersion: 'v1', metadata: {}, range: this.shape.spec, data: bitmap.snapshot().toString('base64') };
      });
    });
  }
}
