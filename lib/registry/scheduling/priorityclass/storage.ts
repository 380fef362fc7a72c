/**
 * PriorityClass storage: the system classes may not be deleted (upstream priorityclass REST
 * `Delete`). The single-global-default rule is the Priority admission plugin's, as upstream.
 */
import { newForbidden, type Status } from '../../../apimachinery/errors.js';
import type { Obj } from '../../../apis/define.js';
import { isSystemPriorityClassName } from '../../../apis/scheduling/v1/index.js';
import type { RequestContext } from '../../../request/context.js';
import { type ResourceStorage, type StorageFactory, keyRootFor } from '../../generic/resource-storage.js';
import { type DeleteOpts, Store } from '../../generic/store.js';
import type { DeleteOptionsBody } from '../../rest/strategy.js';
import { priorityClassStrategy } from './strategy.js';

/** The PriorityClass store with upstream's delete protection. */
export class PriorityClassStore extends Store {
  override delete(ctx: RequestContext, namespace: string, name: string, options: DeleteOptionsBody, opts: DeleteOpts = {}): Promise<{ body: Obj | Status; deleted: boolean }> {
    if (isSystemPriorityClassName(name)) throw newForbidden(this.gr, name, 'this is a system priority class and cannot be deleted');
    return super.delete(ctx, namespace, name, options, opts);
  }
}

/** Builds the priorityclasses store. */
export function newPriorityClassStorage(storageFor: StorageFactory, prefix: string): ResourceStorage {
  const kind = priorityClassStrategy.kind;
  const keyRoot = keyRootFor(prefix, kind.group, kind.resource);
  return { store: new PriorityClassStore({ storage: storageFor(keyRoot, kind), keyRoot, strategy: priorityClassStrategy }), subresources: new Map() };
}
