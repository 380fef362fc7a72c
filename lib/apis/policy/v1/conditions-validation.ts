/**
 * Validation of a `[]metav1.Condition` status list (upstream meta/v1 ValidateConditions, used by
 * the PodDisruptionBudget status): unique types, each a qualified name; a non-negative
 * observedGeneration; a transition time; a CamelCase reason of at most 1024 characters; a message
 * of at most 32768. The status (True, False or Unknown) is checked by the declarative validation
 * of the meta Condition schema.
 */
import { duplicate, type FieldError, type FieldPath, invalid, required, tooLong } from '../../../apimachinery/field-errors.js';
import { isQualifiedName } from '../../../apimachinery/validation/names.js';
import { num, objs, str } from '../../core/v1/obj-access.js';

const REASON = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const REASON_MESSAGE =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";
const MAX_REASON = 1024;
const MAX_MESSAGE = 32768;

/** Validates the conditions at `path`, in upstream's order of checks. */
export function validateConditions(conditions: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objs(conditions).forEach((c, i) => {
    const p = path.index(i);
    const type = str(c.type);
    if (seen.has(type)) errs.push(duplicate(p.child('type'), type));
    seen.add(type);
    for (const msg of isQualifiedName(type)) errs.push(invalid(p.child('type'), type, msg));
    const gen = num(c.observedGeneration);
    if (gen !== undefined && gen < 0) errs.push(invalid(p.child('observedGeneration'), gen, 'must be greater than or equal to zero'));
    if (!str(c.lastTransitionTime)) errs.push(required(p.child('lastTransitionTime'), 'must be set'));
    const reason = str(c.reason);
    if (reason === '') errs.push(required(p.child('reason'), 'must be set'));
    else {
      if (!REASON.test(reason)) errs.push(invalid(p.child('reason'), reason, REASON_MESSAGE));
      if (reason.length > MAX_REASON) errs.push(tooLong(p.child('reason'), reason, MAX_REASON));
    }
    if (str(c.message).length > MAX_MESSAGE) errs.push(tooLong(p.child('message'), str(c.message), MAX_MESSAGE));
  });
  return errs;
}
