/**
 * Validation pieces shared by the replica controllers (upstream apps validation of v1.30 and
 * core `ValidatePodTemplateSpecForRC`): selector and pod template rules, int-or-percent values of
 * rolling updates, status counters and the immutable selector of apps/v1.
 */
import { type FieldError, FieldPath, forbidden, goStringMap, invalid, notSupported } from '../../../apimachinery/field-errors.js';
import { labelSelectorFromObject, type LabelSelector, type LabelSelectorObject } from '../../../apimachinery/labels/selector.js';
import { validateLabelSelectorObject } from '../../../apimachinery/labels/validation.js';
import { isValidPercent, validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { num, obj, str, strMap, type Obj } from '../../core/v1/obj-access.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';
import { validatePodTemplateSpec } from '../../core/v1/workloads.js';

/** The selector as a matcher (`null`/absent selects nothing), or undefined when it cannot be converted. */
export function toSelector(sel: unknown): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(obj(sel) as LabelSelectorObject | undefined);
  } catch {
    return undefined;
  }
}

/**
 * A set selector's syntax (upstream `ValidateLabelSelector`) and `empty selector is invalid for
 * <word>` when it has neither matchLabels nor matchExpressions. An absent selector is left to the
 * schema (`Required value`).
 */
export function validateSelectorObject(sel: unknown, path: FieldPath, word: string): FieldError[] {
  const s = obj(sel);
  if (!s) return [];
  const errs = validateLabelSelectorObject(s as LabelSelectorObject, path);
  const count = Object.keys(obj(s.matchLabels) ?? {}).length + (Array.isArray(s.matchExpressions) ? s.matchExpressions.length : 0);
  if (count === 0) errs.push(invalid(path, s, `empty selector is invalid for ${word}`));
  return errs;
}

/**
 * `` `selector` does not match template `labels` `` unless `selector` is empty or matches the
 * template labels, the labels printed as Go prints the map (`map[string]string{"app":"b"}`).
 * Deployments, ReplicaSets, StatefulSets, DaemonSets and Jobs (`path`: their `spec.template`).
 */
export function validateSelectorMatchesTemplate(selector: LabelSelector, template: Obj, path: FieldPath): FieldError[] {
  const raw = obj(template.metadata)?.labels;
  const labels = strMap(raw);
  if (selector.empty() || selector.matches(labels)) return [];
  return [invalid(path.child('metadata', 'labels'), goStringMap(raw === undefined || raw === null ? undefined : labels), '`selector` does not match template `labels`')];
}

/**
 * A replica controller's pod template (upstream `ValidatePodTemplateSpecForReplicaSet`, and the
 * same rules for DaemonSet and ReplicationController): a valid pod template that restarts
 * always and sets no active deadline (`activeDeadlineSeconds in <kind> is not Supported`).
 */
export function validateControllerTemplate(template: Obj, path: FieldPath, kind: string): FieldError[] {
  const errs = validatePodTemplateSpec(template, path);
  errs.push(...validateRestartAlways(template, path, kind));
  return errs;
}

/** `restartPolicy` must be `Always` and `activeDeadlineSeconds` unset in a controller's pod template. */
export function validateRestartAlways(template: Obj, path: FieldPath, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const podSpec = obj(template.spec) ?? {};
  if (str(podSpec.restartPolicy) !== 'Always') errs.push(notSupported(path.child('spec', 'restartPolicy'), str(podSpec.restartPolicy), ['Always']));
  if (podSpec.activeDeadlineSeconds != null) errs.push(forbidden(path.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
  return errs;
}

/** An int (≥ 0) or a percentage string (upstream `ValidatePositiveIntOrPercent`). */
export function validateIntOrPercent(v: unknown, path: FieldPath): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => invalid(path, v, m));
  return validateNonnegative(v, path);
}

/** The number of an int or the value of a percentage (`25%` → 25; an integer string counts as its number); 0 otherwise. */
export function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^[0-9]+%$/.test(v)) return Number.parseInt(v, 10);
  if (typeof v === 'string' && /^[+-]?[0-9]+$/.test(v)) return Number.parseInt(v, 10);
  return 0;
}

/** `must not be greater than 100%` for a percentage above 100 (upstream `IsNotMoreThan100Percent`). */
export function validateNotMoreThan100Percent(v: unknown, path: FieldPath): FieldError[] {
  return typeof v === 'string' && /^[0-9]+%$/.test(v) && Number.parseInt(v, 10) > 100 ? [invalid(path, v, 'must not be greater than 100%')] : [];
}

/** apps/v1 makes `spec.selector` immutable (`field is immutable`). */
export function validateSelectorUnchanged(o: Obj, old: Obj): FieldError[] {
  const sel = obj(o.spec)?.selector;
  return semanticEqual(sel, obj(old.spec)?.selector) ? [] : [invalid(FieldPath.of('spec', 'selector'), sel ?? null, 'field is immutable')];
}

/** `must be greater than or equal to 0` for each of the named status counters that is negative. */
export function validateNonnegativeCounts(status: Obj, names: readonly string[], path: FieldPath): FieldError[] {
  return names.flatMap((n) => validateNonnegative(status[n], path.child(n)));
}

/** `cannot be greater than status.replicas` for each named counter above `status.replicas`. */
export function validateNotAboveReplicas(status: Obj, names: readonly string[], path: FieldPath): FieldError[] {
  const replicas = num(status.replicas) ?? 0;
  return names.flatMap((n) => ((num(status[n]) ?? 0) > replicas ? [invalid(path.child(n), num(status[n]) ?? 0, 'cannot be greater than status.replicas')] : []));
}

/** `status.collisionCount` may not go down nor be removed once set (upstream `IsDecremented`). */
export function validateCollisionCount(o: Obj, old: Obj): FieldError[] {
  const before = num(obj(old.status)?.collisionCount);
  const after = num(obj(o.status)?.collisionCount);
  if (before === undefined || (after !== undefined && after >= before)) return [];
  return [invalid(FieldPath.of('status', 'collisionCount'), after ?? 0, 'cannot be decremented')];
}
