/**
 * How the in-process controllers write: through the resource's store, as a client's request
 * would reach it (defaults applied, managed fields recorded under the context's manager), and the
 * namespace check admission would make for a client (NamespaceLifecycle does not run for them).
 */
import { deepCopy } from '../apimachinery/deep-equal.js';
import { isReason, newNotFound } from '../apimachinery/errors.js';
import { applyDefaults } from '../apimachinery/schema/defaults.js';
import type { Obj } from '../apis/define.js';
import type { Informer } from '../client/informer.js';
import type { RequestContext } from '../request/context.js';
import { recordManagedFields } from '../registry/generic/managed-fields.js';
import type { Store } from '../registry/generic/store.js';
import { EVERYTHING } from '../storage/interface.js';

/**
 * Whether the namespace `name` exists in `namespaces` (an informer's cache) and is Active, i.e.
 * not being deleted: objects may only be created in such a namespace.
 */
export function isNamespaceActive(namespaces: Informer, name: string): boolean {
  const ns = namespaces.get(name);
  if (!ns || (ns.metadata as Obj | undefined)?.deletionTimestamp) return false;
  return ((ns.status as Obj | undefined)?.phase ?? 'Active') === 'Active';
}

/**
 * Creates `obj` in `namespace`; resolves false when an object of that name exists already.
 * @throws StatusError from the store (e.g. 422 Invalid) for anything else.
 */
export async function createObject(ctx: RequestContext, store: Store, namespace: string, obj: Obj): Promise<boolean> {
  const kind = store.strategy.kind;
  const fresh: Obj = { apiVersion: kind.apiVersion, kind: kind.kind, ...deepCopy(obj) };
  applyDefaults(kind.schema, fresh);
  recordManagedFields(kind, '', undefined, fresh, ctx.userAgent);
  try {
    await store.create(ctx, namespace, fresh);
    return true;
  } catch (err) {
    if (isReason(err, 'AlreadyExists')) return false;
    throw err;
  }
}

/**
 * Creates `obj` in `namespace` unless the watch cache holds an object of its name (read at
 * `resourceVersion=0`, as upstream's bootstrap controllers read their listers), so that a start
 * that finds its objects makes no etcd request for them. Resolves true when it created `obj`.
 * @throws StatusError from the store other than NotFound and AlreadyExists.
 */
export async function createIfMissing(ctx: RequestContext, store: Store, namespace: string, obj: Obj): Promise<boolean> {
  try {
    await store.get(ctx, namespace, (obj.metadata as { name: string }).name, { resourceVersion: '0' });
    return false;
  } catch (err) {
    if (!isReason(err, 'NotFound')) throw err;
  }
  return createObject(ctx, store, namespace, obj);
}

/**
 * Updates the current object `namespace/name`: `mutate` changes a copy of it in place (it may run
 * again on a conflict, with the newer object). Resolves false when the object does not exist.
 * @throws StatusError from the store for anything but NotFound.
 */
export async function updateObject(ctx: RequestContext, store: Store, namespace: string, name: string, mutate: (obj: Obj) => Promise<void> | void): Promise<boolean> {
  const kind = store.strategy.kind;
  try {
    await store.update(ctx, namespace, name, async (current) => {
      if (!current) throw newNotFound(store.gr, name);
      const next = deepCopy(current);
      await mutate(next);
      recordManagedFields(kind, '', current, next, ctx.userAgent);
      return next;
    });
    return true;
  } catch (err) {
    if (isReason(err, 'NotFound')) return false;
    throw err;
  }
}

/**
 * The objects of `store` in `namespace` ('' for all, or for a cluster-scoped kind) by name, read
 * with one quorum list: a controller that reconciles many objects at start reads them all in one
 * etcd range instead of one get each. The objects may be shared with the cache: copy before
 * changing them.
 * @throws StatusError from the store.
 */
export async function listByName(ctx: RequestContext, store: Store, namespace: string): Promise<Map<string, Obj>> {
  const { items } = await store.list(ctx, namespace, { predicate: EVERYTHING });
  return new Map(items.map((o) => [(o.metadata as { name: string }).name, o]));
}
