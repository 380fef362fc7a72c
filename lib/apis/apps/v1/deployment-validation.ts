/**
 * Deployment validation with the upstream paths and messages (`ValidateDeploymentSpec`,
 * `ValidateDeploymentStatus` and the immutable selector of apps/v1). Required selector and
 * template are reported by the schema.
 */
import { type FieldError, FieldPath, forbidden, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { labelSelectorFromObject, type LabelSelector, type LabelSelectorObject } from '../../../apimachinery/labels/selector.js';
import { validateLabelSelectorObject } from '../../../apimachinery/labels/validation.js';
import { isValidPercent, validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { num, obj, str, type Obj } from '../../core/v1/obj-access.js';
import { validateSelectorMatchesTemplate } from './workload-validation.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';
import { validatePodTemplateSpec } from '../../core/v1/workloads.js';

const spec = FieldPath.of('spec');
const status = FieldPath.of('status');

/** The selector as a matcher, or undefined when it cannot be converted (invalid operator or values). */
function toSelector(sel: unknown): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(obj(sel) as LabelSelectorObject | undefined);
  } catch {
    return undefined;
  }
}

/**
 * Selector and pod template (upstream ValidatePodTemplateSpecForReplicaSet): a non-empty selector
 * that matches the template labels, a valid template that restarts always, no active deadline.
 */
function validateSelectorAndTemplate(s: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const sel = obj(s.selector);
  if (sel) {
    errs.push(...validateLabelSelectorObject(sel as LabelSelectorObject, path.child('selector')));
    if (Object.keys(sel.matchLabels ?? {}).length + ((sel.matchExpressions as unknown[] | undefined)?.length ?? 0) === 0)
      errs.push(invalid(path.child('selector'), sel, 'empty selector is invalid for deployment'));
  }
  const selector = toSelector(s.selector);
  if (!selector) return [...errs, invalid(path.child('selector'), sel, 'invalid label selector')];
  const template = obj(s.template);
  if (!template) return errs;
  errs.push(...validateSelectorMatchesTemplate(selector, template, path.child('template')));
  errs.push(...validatePodTemplateSpec(template, path.child('template')));
  const podSpec = obj(template.spec) ?? {};
  if (str(podSpec.restartPolicy) !== 'Always') errs.push(notSupported(path.child('template', 'spec', 'restartPolicy'), str(podSpec.restartPolicy), ['Always']));
  if (podSpec.activeDeadlineSeconds !== undefined)
    errs.push(forbidden(path.child('template', 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  return errs;
}

/** An int (≥ 0) or a percentage string (upstream ValidatePositiveIntOrPercent). */
function validateIntOrPercent(v: unknown, path: FieldPath): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => invalid(path, v, m));
  return validateNonnegative(v, path);
}

/** The number of an int or the value of a percentage (`25%` → 25); 0 otherwise. */
function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return /^[0-9]+%$/.test(v) ? Number.parseInt(v, 10) : /^-?[0-9]+$/.test(v) ? Number.parseInt(v, 10) : 0;
  return 0;
}

/** A percentage above 100% is invalid. */
function notMoreThan100Percent(v: unknown, path: FieldPath): FieldError[] {
  return typeof v === 'string' && /^[0-9]+%$/.test(v) && Number.parseInt(v, 10) > 100 ? [invalid(path, v, 'must not be greater than 100%')] : [];
}

function validateStrategy(strategy: unknown, path: FieldPath): FieldError[] {
  const s = obj(strategy) ?? {};
  switch (s.type) {
    case 'Recreate':
      return s.rollingUpdate !== undefined ? [forbidden(path.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      const ru = obj(s.rollingUpdate);
      if (!ru) return [required(path.child('rollingUpdate'), 'this should be defaulted and never be nil')];
      const p = path.child('rollingUpdate');
      const errs = [...validateIntOrPercent(ru.maxUnavailable, p.child('maxUnavailable')), ...validateIntOrPercent(ru.maxSurge, p.child('maxSurge'))];
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0)
        errs.push(invalid(p.child('maxUnavailable'), ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
      errs.push(...notMoreThan100Percent(ru.maxUnavailable, p.child('maxUnavailable')));
      return errs;
    }
    default:
      return [notSupported(path, s, ['Recreate', 'RollingUpdate'])];
  }
}

/** Validates a Deployment's spec (create and update). */
export function validateDeployment(d: Obj): FieldError[] {
  const s = obj(d.spec) ?? {};
  const errs = validateNonnegative(s.replicas, spec.child('replicas'));
  errs.push(...validateSelectorAndTemplate(s, spec));
  errs.push(...validateStrategy(s.strategy, spec.child('strategy')));
  errs.push(...validateNonnegative(s.minReadySeconds, spec.child('minReadySeconds')));
  errs.push(...validateNonnegative(s.revisionHistoryLimit, spec.child('revisionHistoryLimit')));
  const deadline = num(s.progressDeadlineSeconds);
  if (deadline !== undefined) {
    errs.push(...validateNonnegative(deadline, spec.child('progressDeadlineSeconds')));
    if (deadline <= (num(s.minReadySeconds) ?? 0)) errs.push(invalid(spec.child('progressDeadlineSeconds'), deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** apps/v1 makes `spec.selector` immutable. */
export function validateDeploymentUpdate(d: Obj, old: Obj): FieldError[] {
  const sel = obj(d.spec)?.selector;
  return semanticEqual(sel, obj(old.spec)?.selector) ? [] : [invalid(spec.child('selector'), sel ?? null, 'field is immutable')];
}

const STATUS_COUNTS = ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'];

/** Validates a status write: non-negative counts, consistent counts, collisionCount never decremented. */
export function validateDeploymentStatusUpdate(d: Obj, old: Obj): FieldError[] {
  const st = obj(d.status) ?? {};
  const errs = validateNonnegative(st.observedGeneration, status.child('observedGeneration'));
  for (const k of STATUS_COUNTS) errs.push(...validateNonnegative(st[k], status.child(k)));
  const replicas = num(st.replicas) ?? 0;
  const ready = num(st.readyReplicas) ?? 0;
  const available = num(st.availableReplicas) ?? 0;
  const over = 'cannot be greater than status.replicas';
  const updated = num(st.updatedReplicas) ?? 0;
  if (updated > replicas) errs.push(invalid(status.child('updatedReplicas'), updated, over));
  if (ready > replicas) errs.push(invalid(status.child('readyReplicas'), ready, over));
  if (available > replicas) errs.push(invalid(status.child('availableReplicas'), available, over));
  if (available > ready) errs.push(invalid(status.child('availableReplicas'), available, 'cannot be greater than readyReplicas'));
  const before = num(obj(old.status)?.collisionCount);
  const after = num(st.collisionCount);
  if (before !== undefined && (after === undefined || after < before)) errs.push(invalid(status.child('collisionCount'), after ?? 0, 'cannot be decremented'));
  return errs;
}
