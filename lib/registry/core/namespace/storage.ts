/**
 * Namespace storage: deleting a namespace first marks it Terminating (deletionTimestamp set,
 * phase Terminating) and keeps it while `spec.finalizers` or `metadata.finalizers` remain; the
 * namespace controller empties it and removes the finalizer through `/finalize`; a delete of a
 * finalized, terminating namespace removes it (spec 000 § Object deletion lifecycle).
 */
import type { Status } from '../../../apimachinery/errors.js';
import { formatTime } from '../../../apimachinery/schema/decode.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { StoredObject } from '../../../storage/interface.js';
import { type ResourceStorage, type StorageFactory, keyRootFor } from '../../generic/resource-storage.js';
import { interpretStorageError } from '../../generic/storage-errors.js';
import { type DeleteOpts, Store } from '../../generic/store.js';
import type { DeleteOptionsBody } from '../../rest/strategy.js';
import { namespaceFinalizeStrategy, namespaceStatusStrategy, namespaceStrategy } from './strategy.js';

/** A namespace is removed by an update only once `spec.finalizers` is empty too (upstream `ShouldDeleteNamespaceDuringUpdate`). */
function finalizedSpec(obj: StoredObject): boolean {
  return (((obj.spec as Obj | undefined)?.finalizers as string[] | undefined) ?? []).length === 0;
}

/** The `/status` and `/finalize` stores of namespaces: an update removes a namespace only once finalized. */
class NamespaceSubresourceStore extends Store {
  protected override shouldDeleteAfterUpdate(obj: StoredObject): boolean {
    return finalizedSpec(obj) && super.shouldDeleteAfterUpdate(obj);
  }
}

/** The namespace store with upstream deletion semantics. */
export class NamespaceStore extends Store {
  protected override shouldDeleteAfterUpdate(obj: StoredObject): boolean {
    return finalizedSpec(obj) && super.shouldDeleteAfterUpdate(obj);
  }

  override async delete(ctx: RequestContext, _namespace: string, name: string, options: DeleteOptionsBody, opts: DeleteOpts = {}): Promise<{ body: Obj | Status; deleted: boolean }> {
    const existing = await this.get(ctx, '', name);
    const meta = existing.metadata as Obj;
    if (!meta.deletionTimestamp) {
      let updated: Obj;
      try {
        updated = await this.storage.guaranteedUpdate(this.keyFor('', name), { preconditions: options.preconditions, dryRun: opts.dryRun }, async (cur) => {
          await opts.validate?.(cur);
          const m = cur.metadata as Obj;
          if (!m.deletionTimestamp) {
            m.deletionTimestamp = formatTime(new Date());
            m.deletionGracePeriodSeconds = 0;
          }
          cur.status = { ...((cur.status as Obj | undefined) ?? {}), phase: 'Terminating' };
          return cur;
        });
      } catch (err) {
        throw interpretStorageError(err, this.gr, name, 'delete');
      }
      return { body: { kind: this.strategy.kind.kind, apiVersion: this.strategy.kind.apiVersion, ...updated }, deleted: false };
    }
    const specFinalizers = ((existing.spec as Obj | undefined)?.finalizers as string[] | undefined) ?? [];
    const finalizers = (meta.finalizers as string[] | undefined) ?? [];
    if (specFinalizers.length > 0 || finalizers.length > 0) return { body: existing, deleted: false };
    return super.delete(ctx, '', name, options, opts);
  }
}

/** Builds the namespace stores: main, `/status`, `/finalize`. */
export function newNamespaceStorage(storageFor: StorageFactory, prefix: string): ResourceStorage {
  const keyRoot = keyRootFor(prefix, '', 'namespaces');
  const storage = storageFor(keyRoot, namespaceStrategy.kind);
  return {
    store: new NamespaceStore({ storage, keyRoot, strategy: namespaceStrategy }),
    subresources: new Map([
      ['status', new NamespaceSubresourceStore({ storage, keyRoot, strategy: namespaceStatusStrategy })],
      ['finalize', new NamespaceSubresourceStore({ storage, keyRoot, strategy: namespaceFinalizeStrategy })],
    ]),
  };
}
