/**
 * PriorityClass validation with the upstream v1.30 paths and messages (scheduling validation
 * `ValidatePriorityClass`, `ValidatePriorityClassUpdate`). Create: a `system-` name must be one
 * of the system classes with its value and globalDefault; any other class is at most
 * 1000000000; a set preemptionPolicy is PreemptLowerPriority or Never. Update (which upstream
 * checks instead of the create rules): `value` and `preemptionPolicy` are immutable. ObjectMeta
 * is checked by the caller; that only one class is the global default is checked by the
 * PriorityClass store (upstream's Priority admission plugin).
 */
import { type FieldError, FieldPath, forbidden, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { num, obj, str, type Obj } from '../../core/v1/obj-access.js';
import { HIGHEST_USER_DEFINABLE_PRIORITY, SYSTEM_PRIORITY_CLASS_PREFIX, unknownSystemPriorityClass } from './system-priority-classes.js';

/** The preemption policies, in upstream's order. */
export const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** Create: the reserved prefix, the user value ceiling, the preemption policy. */
export function validatePriorityClass(pc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(obj(pc.metadata)?.name);
  const value = num(pc.value) ?? 0;
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const why = unknownSystemPriorityClass(name, value, pc.globalDefault === true);
    if (why)
      errs.push(forbidden(FieldPath.of('metadata', 'name'), `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${why}`));
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (typeof pc.preemptionPolicy === 'string') {
    const policy = pc.preemptionPolicy;
    if (policy === '') errs.push(required('preemptionPolicy'));
    else if (!PREEMPTION_POLICIES.includes(policy)) errs.push(notSupported('preemptionPolicy', policy, PREEMPTION_POLICIES));
  }
  return errs;
}

/** Update: `value` may not change, `preemptionPolicy` is immutable. */
export function validatePriorityClassUpdate(pc: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if ((num(pc.value) ?? 0) !== (num(old.value) ?? 0)) errs.push(forbidden('value', 'may not be changed in an update.'));
  if (pc.preemptionPolicy !== old.preemptionPolicy) errs.push(invalid('preemptionPolicy', pc.preemptionPolicy ?? null, 'field is immutable'));
  return errs;
}
