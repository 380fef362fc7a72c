/**
 * Lease validation with the upstream paths and messages (upstream coordination validation
 * `ValidateLeaseSpec` of v1.30). ObjectMeta (DNS subdomain names) is checked by the caller.
 */
import { type FieldError, FieldPath, invalid } from '../../../apimachinery/field-errors.js';
import { validateNonnegative } from '../../../apimachinery/validation/formats.js';
import type { Obj } from '../../define.js';

/** Create and update: a set `leaseDurationSeconds` is positive, a set `leaseTransitions` non-negative. */
export function validateLease(lease: Obj): FieldError[] {
  const spec = (lease.spec as Obj | undefined) ?? {};
  const errs: FieldError[] = [];
  const path = FieldPath.of('spec');
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0)
    errs.push(invalid(path.child('leaseDurationSeconds'), spec.leaseDurationSeconds, 'must be greater than 0'));
  errs.push(...validateNonnegative(spec.leaseTransitions, path.child('leaseTransitions')));
  return errs;
}
