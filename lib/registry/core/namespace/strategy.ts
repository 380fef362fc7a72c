/**
 * Namespace strategies: create puts the namespace finalizer in `spec.finalizers` and phase Active;
 * main writes keep spec.finalizers and status; `/status` writes only status; `/finalize` writes
 * only spec.finalizers (spec 000 § Object deletion lifecycle).
 */
import type { Obj } from '../../../apis/define.js';
import { namespace } from '../../../apis/core/v1/cluster-kinds.js';
import { prepareNamespaceForCreate, prepareNamespaceForUpdate } from '../../../apis/core/v1/namespace-defaults.js';
import { validateNamespaceFinalizeUpdate } from '../../../apis/core/v1/namespace-validation.js';
import { validateObjectMetaUpdate } from '../../../apimachinery/validation/object-meta.js';
import type { FieldError } from '../../../apimachinery/field-errors.js';
import type { RequestContext } from '../../../request/context.js';
import { newKindStrategy, newStatusStrategy, resetToStored } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Main-resource strategy. */
export const namespaceStrategy: Strategy = newKindStrategy(namespace, {
  tracksGeneration: false,
  returnDeletedObject: true,
  prepareForCreate: prepareNamespaceForCreate,
  prepareForUpdate: prepareNamespaceForUpdate,
});

/** `/status` strategy. */
export const namespaceStatusStrategy: Strategy = newStatusStrategy(namespaceStrategy);

/** `/finalize` strategy: only `spec.finalizers` changes. */
export const namespaceFinalizeStrategy: Strategy = {
  ...namespaceStatusStrategy,
  prepareForUpdate(_ctx: RequestContext, obj: Obj, old: Obj): void {
    const finalizers = (obj.spec as Obj | undefined)?.finalizers;
    resetToStored(obj, old);
    obj.spec = { ...((obj.spec as Obj | undefined) ?? {}) };
    if (finalizers === undefined) delete (obj.spec as Obj).finalizers;
    else (obj.spec as Obj).finalizers = finalizers;
  },
  validateUpdate(_ctx: RequestContext, obj: Obj, old: Obj): FieldError[] {
    return [...validateObjectMetaUpdate(obj.metadata as Obj, old.metadata as Obj), ...validateNamespaceFinalizeUpdate(obj)];
  },
};
