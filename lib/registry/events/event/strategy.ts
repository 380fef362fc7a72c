/**
 * The rules of Events written through `events.<vendor>/v1` (upstream v1.30
 * `pkg/registry/core/event/strategy.go`, which validates by request version): the core Event
 * strategy on the stored (core/v1) object, with names checked as DNS subdomains instead of path
 * segments (upstream's strict ObjectMeta validation) and the events/v1 create and update rules
 * (lib/apis/events/v1/event-validation.ts). Everything else — create on PUT, no generation, field
 * selectors on the stored object — is the core strategy's.
 */
import type { FieldError } from '../../../apimachinery/field-errors.js';
import { validateObjectMeta } from '../../../apimachinery/validation/object-meta.js';
import type { Obj } from '../../../apis/define.js';
import { validateEventV1Create, validateEventV1Update } from '../../../apis/events/v1/index.js';
import type { RequestContext } from '../../../request/context.js';
import type { Strategy } from '../../rest/strategy.js';
import { eventStrategy } from '../../simple-strategies.js';

/** True for an error about the object's name or its generateName prefix. */
function isNameError(e: FieldError): boolean {
  return e.field === 'metadata.name' || e.field === 'metadata.generateName';
}

/** The strategy of the events/v1 stores. */
export const eventV1Strategy: Strategy = {
  ...eventStrategy,
  validate(ctx: RequestContext, obj: Obj): FieldError[] {
    const names = validateObjectMeta(obj.metadata as Obj | undefined, true, 'dns1123Subdomain').filter(isNameError);
    return [...names, ...eventStrategy.validate(ctx, obj).filter((e) => !isNameError(e)), ...validateEventV1Create(obj)];
  },
  validateUpdate(ctx: RequestContext, obj: Obj, old: Obj): FieldError[] {
    return [...eventStrategy.validateUpdate(ctx, obj, old), ...validateEventV1Update(obj, old)];
  },
};
