/**
 * The store of Services: the generic store plus upstream's service REST hooks. Before a create
 * (and before a create-on-update) `clusterIP`/`clusterIPs` are normalized and the cluster IPs,
 * node ports and health check node port allocated; before an update the allocated values the
 * client left out are carried over, then what the update adds is allocated and what it drops is
 * released once it is stored. A write that fails (validation, admission, conflict, storage)
 * gives back what it took; a dry-run takes nothing. After a delete, the Endpoints of the same
 * name go too and everything the Service held is released.
 */
import { deepCopy } from '../../../apimachinery/deep-equal.js';
import { isReason, type Status } from '../../../apimachinery/errors.js';
import { normalizeClusterIPs } from '../../../apis/core/v1/service-defaults.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { DeleteOptionsBody } from '../../rest/strategy.js';
import { generateName, metaOf } from '../../generic/object-meta.js';
import { keyRootFor, newResourceStorage, type ResourceStorage, type StorageFactory } from '../../generic/resource-storage.js';
import { type CreateOptions, type DeleteOpts, Store, type StoreConfig, type TransformFunc, type UpdateOptions } from '../../generic/store.js';
import type { AllocationTransaction, ServiceAllocators } from './service-alloc.js';
import { patchAllocatedValues } from './service-fields.js';
import { serviceStrategy } from './strategy.js';

/** Reports a cleanup after delete that failed (Endpoints removal). */
export type ServiceCleanupErrorHandler = (err: unknown) => void;

/** A terminating object whose last finalizer went: the generic store deleted it after the update. */
function deletedByUpdate(obj: Obj): boolean {
  const meta = metaOf(obj);
  const finalizers = (meta.finalizers as string[] | undefined) ?? [];
  return !!meta.deletionTimestamp && finalizers.length === 0 && ((meta.deletionGracePeriodSeconds as number | undefined) ?? 0) === 0;
}

/** The generic store of Services with allocation (module doc). */
export class ServiceStore extends Store {
  constructor(
    cfg: StoreConfig,
    private readonly alloc: ServiceAllocators,
    private readonly endpoints: Store,
    private readonly onCleanupError: ServiceCleanupErrorHandler = () => undefined,
  ) {
    super(cfg);
  }

  override async create(ctx: RequestContext, namespace: string, obj: Obj, opts: CreateOptions = {}): Promise<Obj> {
    const meta = metaOf(obj);
    if (meta.generateName && !meta.name) meta.name = generateName(meta.generateName as string);
    normalizeClusterIPs(obj);
    const txn = await this.alloc.allocateCreate(obj, opts.dryRun ?? false);
    try {
      const created = await super.create(ctx, namespace, obj, opts);
      await txn.commit();
      return created;
    } catch (err) {
      await txn.revert();
      throw err;
    }
  }

  override async update(ctx: RequestContext, namespace: string, name: string, transform: TransformFunc, opts: UpdateOptions = {}): Promise<{ obj: Obj; created: boolean }> {
    const dryRun = opts.dryRun ?? false;
    let txn: AllocationTransaction | undefined;
    const allocating: TransformFunc = async (current) => {
      // A retry after a conflict starts again from the newer object: undo the previous attempt.
      await txn?.revert();
      txn = undefined;
      const old = current === null ? null : deepCopy(current);
      const obj = await transform(current);
      if (old === null) {
        normalizeClusterIPs(obj);
        txn = await this.alloc.allocateCreate(obj, dryRun);
      } else {
        patchAllocatedValues(obj, old);
        normalizeClusterIPs(obj, old);
        txn = await this.alloc.allocateUpdate(obj, old, dryRun);
      }
      return obj;
    };
    let result: { obj: Obj; created: boolean };
    try {
      result = await super.update(ctx, namespace, name, allocating, opts);
    } catch (err) {
      await txn?.revert();
      throw err;
    }
    await txn?.commit();
    if (!result.created && !dryRun && deletedByUpdate(result.obj)) await this.afterDelete(ctx, result.obj);
    return result;
  }

  override async delete(ctx: RequestContext, namespace: string, name: string, options: DeleteOptionsBody, opts: DeleteOpts = {}): Promise<{ body: Obj | Status; deleted: boolean }> {
    const res = await super.delete(ctx, namespace, name, options, opts);
    if (res.deleted && !opts.dryRun) await this.afterDelete(ctx, res.body as Obj);
    return res;
  }

  /** Upstream's `afterDelete`: the Endpoints of the same name are deleted and the allocations released. */
  private async afterDelete(ctx: RequestContext, svc: Obj): Promise<void> {
    const meta = metaOf(svc);
    try {
      await this.endpoints.delete(ctx, meta.namespace as string, meta.name as string, {});
    } catch (err) {
      if (!isReason(err, 'NotFound')) this.onCleanupError(err);
    }
    await this.alloc.releaseAll(svc);
  }
}

/**
 * The stores of `services` (and `services/status`, which allocates nothing): with allocation when
 * `alloc` is given, else the plain generic store (tools that only look at the served kinds).
 */
export function newServiceStorage(
  storageFor: StorageFactory,
  prefix: string,
  endpoints: ResourceStorage,
  alloc?: ServiceAllocators,
  onCleanupError?: ServiceCleanupErrorHandler,
): ResourceStorage {
  const plain = newResourceStorage(storageFor, prefix, serviceStrategy);
  if (!alloc) return plain;
  const keyRoot = keyRootFor(prefix, '', serviceStrategy.kind.resource);
  return { ...plain, store: new ServiceStore({ storage: plain.store.storage, keyRoot, strategy: serviceStrategy }, alloc, endpoints.store, onCleanupError) };
}
