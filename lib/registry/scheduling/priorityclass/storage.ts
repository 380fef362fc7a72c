/**
 * PriorityClass storage: the system classes may not be deleted (upstream priorityclass REST
 * `Delete`), and at most one class is the global default — a create, or an update that makes
 * another class the default, is 403 Forbidden while a default exists (upstream's Priority
 * admission plugin, validating phase, run here after the request's own validating admission).
 */
import { newForbidden, type Status } from '../../../apimachinery/errors.js';
import type { Obj } from '../../../apis/define.js';
import { isSystemPriorityClassName } from '../../../apis/scheduling/v1/index.js';
import type { RequestContext } from '../../../request/context.js';
import { EVERYTHING } from '../../../storage/interface.js';
import { type ResourceStorage, type StorageFactory, keyRootFor } from '../../generic/resource-storage.js';
import { type CreateOptions, type DeleteOpts, Store, type TransformFunc, type UpdateOptions, type ValidateObjectFunc } from '../../generic/store.js';
import type { DeleteOptionsBody } from '../../rest/strategy.js';
import { priorityClassStrategy } from './strategy.js';

const nameOf = (o: Obj): string => ((o.metadata as Obj | undefined)?.name as string | undefined) ?? '';

/** The PriorityClass store with upstream's delete protection and single-default rule. */
export class PriorityClassStore extends Store {
  /**
   * The current default class (the lowest value if a race left several), or undefined.
   * Upstream reads its informer; this reads storage.
   */
  private async defaultClass(): Promise<Obj | undefined> {
    const { items } = await this.storage.getList(this.prefixFor(''), { predicate: EVERYTHING });
    let found: Obj | undefined;
    for (const pc of items) if (pc.globalDefault === true && (!found || (found.value as number) > (pc.value as number))) found = pc;
    return found;
  }

  /** `validate` followed by the single-default rule for `obj` (a create when `old` is null). */
  private withDefaultRule(validate: ValidateObjectFunc | undefined): ValidateObjectFunc {
    return async (obj, old) => {
      await validate?.(obj, old);
      if (obj.globalDefault !== true) return;
      const current = await this.defaultClass();
      if (current && (old === null || nameOf(current) !== nameOf(obj)))
        throw newForbidden(this.gr, nameOf(obj), `PriorityClass ${nameOf(current)} is already marked as default. Only one default can exist`);
    };
  }

  override create(ctx: RequestContext, namespace: string, obj: Obj, opts: CreateOptions = {}): Promise<Obj> {
    return super.create(ctx, namespace, obj, { ...opts, validate: this.withDefaultRule(opts.validate) });
  }

  override update(ctx: RequestContext, namespace: string, name: string, transform: TransformFunc, opts: UpdateOptions = {}): Promise<{ obj: Obj; created: boolean }> {
    return super.update(ctx, namespace, name, transform, {
      ...opts,
      createValidation: this.withDefaultRule(opts.createValidation),
      updateValidation: this.withDefaultRule(opts.updateValidation),
    });
  }

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
