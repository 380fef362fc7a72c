/**
 * For kinds whose upstream update validation replaces the create validation instead of adding
 * to it (Ingress: the class annotation rule is create-only and stored invalid data is
 * tolerated; PriorityClass: only immutability is checked on update): a `validateUpdate` that runs
 * ObjectMeta update rules, the declarative schema rules and the kind's `validateUpdate`, but not
 * its create-time `validate`.
 */
import type { FieldError } from '../../apimachinery/field-errors.js';
import { validateDeclarative } from '../../apimachinery/schema/validate.js';
import { validateObjectMetaUpdate } from '../../apimachinery/validation/object-meta.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import { metaOf } from '../generic/object-meta.js';
import type { Strategy } from '../rest/strategy.js';

/** The strategy override that validates updates with `kind.validateUpdate` alone (plus ObjectMeta and schema). */
export function updateOnlyValidation(kind: KindDefinition): Pick<Strategy, 'validateUpdate'> {
  return {
    validateUpdate(_ctx: RequestContext, obj: Obj, old: Obj): FieldError[] {
      const { apiVersion: _a, kind: _k, metadata: _m, status: _s, ...spec } = obj;
      return [...validateObjectMetaUpdate(metaOf(obj), metaOf(old)), ...validateDeclarative(kind.schema, spec), ...(kind.validateUpdate?.(obj, old) ?? [])];
    },
  };
}
