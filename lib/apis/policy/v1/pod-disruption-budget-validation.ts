/**
 * PodDisruptionBudget validation with the upstream v1.30 paths and messages
 * (`pkg/apis/policy/validation`): ValidatePodDisruptionBudgetSpec on create and update (the spec
 * is mutable), ValidatePodDisruptionBudgetStatusUpdate on status writes. spec 001 § Errors.
 */
import { type FieldError, FieldPath, invalid, notSupported } from '../../../apimachinery/field-errors.js';
import { type LabelSelectorObject } from '../../../apimachinery/labels/selector.js';
import { validateLabelSelectorObject } from '../../../apimachinery/labels/validation.js';
import { isValidPercent, validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { obj, type Obj } from '../../core/v1/obj-access.js';
import { validateConditions } from './conditions-validation.js';

/** The values of `spec.unhealthyPodEvictionPolicy`, sorted as upstream lists them. */
export const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'] as const;

const specPath = FieldPath.of('spec');
const statusPath = FieldPath.of('status');

/** An int (≥ 0) or a percentage string of at most 100% (upstream ValidatePositiveIntOrPercent + IsNotMoreThan100Percent). */
function validateIntOrPercent(v: unknown, path: FieldPath): FieldError[] {
  if (typeof v === 'string') {
    const errs = isValidPercent(v).map((m) => invalid(path, v, m));
    if (errs.length === 0 && Number.parseInt(v, 10) > 100) errs.push(invalid(path, v, 'must not be greater than 100%'));
    return errs;
  }
  return validateNonnegative(v, path);
}

/**
 * Upstream ValidatePodDisruptionBudgetSpec: minAvailable and maxUnavailable exclusive, each an
 * int ≥ 0 or a percentage ≤ 100%; the selector; a supported unhealthyPodEvictionPolicy.
 */
export function validatePodDisruptionBudget(pdb: Obj): FieldError[] {
  const spec = obj(pdb.spec) ?? {};
  const errs: FieldError[] = [];
  const has = (k: string) => spec[k] !== undefined && spec[k] !== null;
  if (has('minAvailable') && has('maxUnavailable')) errs.push(invalid(specPath, spec, 'minAvailable and maxUnavailable cannot be both set'));
  if (has('minAvailable')) errs.push(...validateIntOrPercent(spec.minAvailable, specPath.child('minAvailable')));
  if (has('maxUnavailable')) errs.push(...validateIntOrPercent(spec.maxUnavailable, specPath.child('maxUnavailable')));
  errs.push(...validateLabelSelectorObject(spec.selector as LabelSelectorObject | null | undefined, specPath.child('selector')));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (has('unhealthyPodEvictionPolicy') && !(UNHEALTHY_POD_EVICTION_POLICIES as readonly unknown[]).includes(policy)) {
    errs.push(notSupported(specPath.child('unhealthyPodEvictionPolicy'), policy, UNHEALTHY_POD_EVICTION_POLICIES));
  }
  return errs;
}

/** Upstream ValidatePodDisruptionBudgetStatusUpdate (v1): the conditions, and non-negative counts. */
export function validatePodDisruptionBudgetStatusUpdate(pdb: Obj): FieldError[] {
  const status = obj(pdb.status) ?? {};
  const errs = validateConditions(status.conditions, statusPath.child('conditions'));
  for (const k of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']) errs.push(...validateNonnegative(status[k], statusPath.child(k)));
  return errs;
}
