/**
 * How the CRD controllers write a CustomResourceDefinition: a compare-and-swap update through a
 * store (the main resource or its `status` subresource) that recomputes the change from the
 * current stored object on every try, so a conflict is retried with the newer object (the store's
 * guaranteedUpdate re-reads it). Managed fields are recorded under the context's manager (the
 * server's name, as upstream's `kube-apiserver`).
 */
import type { CustomResourceDefinition } from '../../apiextensions/types.js';
import { deepCopy } from '../../apimachinery/deep-equal.js';
import { isReason, newNotFound } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import { recordManagedFields } from '../../registry/generic/managed-fields.js';
import type { Store } from '../../registry/generic/store.js';

/** Thrown inside the update to leave the object as it is. */
class Unchanged extends Error {}

/**
 * Updates the CRD `name` through `store`: `mutate` changes a private copy of the current object in
 * place and returns false to write nothing (it may run again with a newer object). `subresource`
 * is `'status'` for the status store, `''` for the main one. Resolves the stored object, or
 * undefined when nothing was written or the CRD does not exist.
 * @throws StatusError from the store for anything but NotFound.
 */
export async function updateCRD(
  ctx: RequestContext,
  store: Store,
  subresource: '' | 'status',
  name: string,
  mutate: (crd: CustomResourceDefinition) => boolean,
): Promise<CustomResourceDefinition | undefined> {
  try {
    const { obj } = await store.update(ctx, '', name, async (current) => {
      if (!current) throw newNotFound(store.gr, name);
      const next = deepCopy(current);
      if (!mutate(next as unknown as CustomResourceDefinition)) throw new Unchanged();
      recordManagedFields(store.strategy.kind, subresource, current, next, ctx.userAgent);
      return next as Obj;
    });
    return obj as unknown as CustomResourceDefinition;
  } catch (err) {
    if (err instanceof Unchanged || isReason(err, 'NotFound')) return undefined;
    throw err;
  }
}

/** What the CRD status controllers (naming, establishing) work with. */
export interface CRDStatusControllerDeps {
  /** CustomResourceDefinitions (cluster-scoped: cached by name). */
  informer: Informer;
  /** The store of the `status` subresource of customresourcedefinitions. */
  statusStore: Store;
  /** Context of the writes (a privileged internal user; its userAgent is the field manager). */
  ctx: RequestContext;
  /** Told of every failed sync (the key is retried with backoff). */
  onError: (err: unknown) => void;
  /** The clock of condition times (default: the system clock). */
  now?: () => Date;
}

/** The name of a CRD as cached (its informer key). */
export function crdName(crd: CustomResourceDefinition): string {
  return String(crd.metadata?.name ?? '');
}
