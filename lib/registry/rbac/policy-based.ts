/**
 * The stores of Role, ClusterRole, RoleBinding and ClusterRoleBinding with escalation prevention
 * (spec 001 § RBAC mode; upstream's `policybased` RBAC storage): a check handed down by the
 * control plane (the registry never imports authorization) runs before a create, and on update
 * against the current object inside the retried update, before validation — so a refused write
 * is 403 even when the object is also invalid, as upstream.
 */
import { deepCopy } from '../../apimachinery/deep-equal.js';
import type { Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import type { ResourceStorage } from '../generic/resource-storage.js';
import { type CreateOptions, Store, type TransformFunc, type UpdateOptions } from '../generic/store.js';

/** Refuses a write by throwing (a StatusError); `old` is null on create. */
export type WriteCheck = (ctx: RequestContext, obj: Obj, old: Obj | null) => Promise<void>;

/** A store whose creates and updates pass `check` first. */
export class PolicyBasedStore extends Store {
  constructor(
    inner: Store,
    private readonly check: WriteCheck,
  ) {
    super({ storage: inner.storage, strategy: inner.strategy, keyRoot: inner.prefixFor('').replace(/\/$/, '') });
  }

  override async create(ctx: RequestContext, namespace: string, obj: Obj, opts: CreateOptions = {}): Promise<Obj> {
    await this.check(ctx, obj, null);
    return super.create(ctx, namespace, obj, opts);
  }

  override async update(ctx: RequestContext, namespace: string, name: string, transform: TransformFunc, opts: UpdateOptions = {}): Promise<{ obj: Obj; created: boolean }> {
    const checked: TransformFunc = async (current) => {
      // A snapshot: the transform may change the object it is given.
      const old = current === null ? null : deepCopy(current);
      const obj = await transform(current);
      await this.check(ctx, obj, old);
      return obj;
    };
    return super.update(ctx, namespace, name, checked, opts);
  }
}

/** Replaces the main store of `rs` with one that runs `check` (in place, before the API is installed). */
export function withWriteCheck(rs: ResourceStorage, check: WriteCheck): void {
  rs.store = new PolicyBasedStore(rs.store, check);
}
