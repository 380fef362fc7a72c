/**
 * The finalizer handling shared by the pvc-protection and pv-protection controllers (upstream
 * pkg/controller/volume/protectionutil): which objects are waiting for their protection
 * finalizer to go, and its removal through the resource's store.
 */
import type { Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { updateObject } from '../writes.js';

/** The finalizers of an object (non-string entries ignored). */
function finalizersOf(o: Obj): string[] {
  const f = (o.metadata as Obj | undefined)?.finalizers;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

/** Upstream IsDeletionCandidate: `o` is being deleted and still carries `finalizer`. */
export function isDeletionCandidate(o: Obj, finalizer: string): boolean {
  return !!(o.metadata as Obj | undefined)?.deletionTimestamp && finalizersOf(o).includes(finalizer);
}

/** Thrown inside the update to leave the object as it is. */
class KeepFinalizer extends Error {}

/**
 * Removes `finalizer` from the current object `namespace/name` (namespace '' for cluster-scoped
 * ones) on the condition that `removable(current)` still holds, retrying on conflict with the
 * newer object; an object that is gone, or no longer removable, is left alone. The store deletes
 * an object whose last finalizer went while it was terminating.
 * @throws StatusError from the store for anything but NotFound.
 */
export async function removeFinalizer(
  ctx: RequestContext,
  store: Store,
  namespace: string,
  name: string,
  finalizer: string,
  removable: (current: Obj) => boolean,
): Promise<void> {
  try {
    await updateObject(ctx, store, namespace, name, (current) => {
      if (!isDeletionCandidate(current, finalizer) || !removable(current)) throw new KeepFinalizer();
      const meta = current.metadata as Obj;
      const rest = finalizersOf(current).filter((f) => f !== finalizer);
      if (rest.length > 0) meta.finalizers = rest;
      else delete meta.finalizers;
    });
  } catch (err) {
    if (!(err instanceof KeepFinalizer)) throw err;
  }
}
