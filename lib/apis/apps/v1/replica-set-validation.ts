/**
 * ReplicaSet validation with the upstream paths and messages (v1.30 `ValidateReplicaSetSpec`,
 * `ValidatePodTemplateSpecForReplicaSet`, `ValidateReplicaSetStatus`, and the immutable selector
 * the apps/v1 registry adds). An absent selector is reported by the schema.
 */
import { type FieldError, FieldPath, invalid } from '../../../apimachinery/field-errors.js';
import { validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { num, obj, type Obj } from '../../core/v1/obj-access.js';
import {
  toSelector,
  validateControllerTemplate,
  validateNonnegativeCounts,
  validateNotAboveReplicas,
  validateSelectorMatchesTemplate,
  validateSelectorObject,
  validateSelectorUnchanged,
} from './workload-validation.js';

const spec = FieldPath.of('spec');

/** Validates a ReplicaSet's spec (create and update). */
export function validateReplicaSet(rs: Obj): FieldError[] {
  const s = obj(rs.spec) ?? {};
  const errs = validateNonnegative(s.replicas, spec.child('replicas'));
  errs.push(...validateNonnegative(s.minReadySeconds, spec.child('minReadySeconds')));
  errs.push(...validateSelectorObject(s.selector, spec.child('selector'), 'deployment'));
  const selector = toSelector(s.selector);
  if (!selector) return [...errs, invalid(spec.child('selector'), s.selector, 'invalid label selector')];
  const template = obj(s.template) ?? {};
  errs.push(...validateSelectorMatchesTemplate(selector, template, spec.child('template')));
  errs.push(...validateControllerTemplate(template, spec.child('template'), 'ReplicaSet'));
  return errs;
}

/** Updates keep the selector (apps/v1). */
export function validateReplicaSetUpdate(rs: Obj, old: Obj): FieldError[] {
  return validateSelectorUnchanged(rs, old);
}

/**
 * The status counters of a ReplicaSet or ReplicationController (upstream
 * `ValidateReplicaSetStatus` / `ValidateReplicationControllerStatus`): non-negative, none above
 * `replicas`, available not above ready.
 */
export function validateReplicaCounts(status: Obj): FieldError[] {
  const path = FieldPath.of('status');
  const errs = validateNonnegativeCounts(status, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'], path);
  errs.push(...validateNotAboveReplicas(status, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], path));
  const available = num(status.availableReplicas) ?? 0;
  if (available > (num(status.readyReplicas) ?? 0)) errs.push(invalid(path.child('availableReplicas'), available, 'cannot be greater than readyReplicas'));
  return errs;
}

/** A status write of a ReplicaSet. */
export function validateReplicaSetStatusUpdate(rs: Obj): FieldError[] {
  return validateReplicaCounts(obj(rs.status) ?? {});
}
