/**
 * ReplicationController validation with the upstream paths and messages (v1.30 core
 * `ValidateReplicationControllerSpec`, `ValidatePodTemplateSpecForRC`,
 * `ValidateReplicationControllerStatus`). The selector is a plain label map and, unlike apps/v1,
 * may change on update.
 */
import { type FieldError, FieldPath, goStringMap, invalid, required } from '../../../apimachinery/field-errors.js';
import { validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { validateReplicaCounts } from '../../apps/v1/replica-set-validation.js';
import { validateControllerTemplate } from '../../apps/v1/workload-validation.js';
import { obj, strMap, type Obj } from './obj-access.js';

const spec = FieldPath.of('spec');

/** Whether every pair of the selector map is among the template labels (upstream `labels.Set(m).AsSelector().Matches`). */
function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => Object.hasOwn(labels, k) && labels[k] === v);
}

/** Validates a ReplicationController's spec (create and update). */
export function validateReplicationController(rc: Obj): FieldError[] {
  const s = obj(rc.spec) ?? {};
  const errs = validateNonnegative(s.minReadySeconds, spec.child('minReadySeconds'));
  const selector = strMap(s.selector);
  const empty = Object.keys(selector).length === 0;
  if (empty) errs.push(required(spec.child('selector')));
  errs.push(...validateNonnegative(s.replicas, spec.child('replicas')));
  const template = obj(s.template);
  if (!template) return [...errs, required(spec.child('template'))];
  const raw = obj(template.metadata)?.labels;
  const labels = strMap(raw);
  if (!empty && !selects(selector, labels))
    errs.push(invalid(spec.child('template', 'metadata', 'labels'), goStringMap(raw === undefined || raw === null ? undefined : labels), '`selector` does not match template `labels`'));
  errs.push(...validateControllerTemplate(template, spec.child('template'), 'ReplicationController'));
  return errs;
}

/** A status write of a ReplicationController: the ReplicaSet counter rules. */
export function validateReplicationControllerStatusUpdate(rc: Obj): FieldError[] {
  return validateReplicaCounts(obj(rc.status) ?? {});
}
