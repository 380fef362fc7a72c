/**
 * DaemonSet validation with the upstream paths and messages (v1.30 `ValidateDaemonSetSpec`,
 * `ValidateDaemonSetUpdateStrategy`, `ValidateRollingUpdateDaemonSet`, `validateDaemonSetStatus`
 * and the immutable selector of apps/v1). ObjectMeta is checked by the caller; an absent selector
 * or template is reported by the schema.
 */
import { type FieldError, FieldPath, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { obj, type Obj } from '../../core/v1/obj-access.js';
import {
  intOrPercentValue,
  toSelector,
  validateCollisionCount,
  validateControllerTemplate,
  validateIntOrPercent,
  validateNonnegativeCounts,
  validateNotMoreThan100Percent,
  validateSelectorMatchesTemplate,
  validateSelectorObject,
  validateSelectorUnchanged,
} from './workload-validation.js';

const spec = FieldPath.of('spec');

/** Both bounds are ints or percentages up to 100%, and exactly one of them is non-zero. */
function validateRollingUpdate(ru: Obj, path: FieldPath): FieldError[] {
  const unavailable = path.child('maxUnavailable');
  const surge = path.child('maxSurge');
  const errs = [...validateIntOrPercent(ru.maxUnavailable, unavailable), ...validateIntOrPercent(ru.maxSurge, surge)];
  errs.push(...validateNotMoreThan100Percent(ru.maxUnavailable, unavailable), ...validateNotMoreThan100Percent(ru.maxSurge, surge));
  const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errs.push(invalid(surge, ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errs.push(required(unavailable, 'cannot be 0 when maxSurge is 0'));
  return errs;
}

/** `OnDelete`, or `RollingUpdate` with its (defaulted) bounds. */
function validateUpdateStrategy(strategy: unknown, path: FieldPath): FieldError[] {
  const s = obj(strategy) ?? {};
  switch (s.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const ru = obj(s.rollingUpdate);
      return ru ? validateRollingUpdate(ru, path.child('rollingUpdate')) : [required(path.child('rollingUpdate'))];
    }
    default:
      return [notSupported(path, s, ['RollingUpdate', 'OnDelete'])];
  }
}

/** Validates a DaemonSet's spec (create and update). */
export function validateDaemonSet(ds: Obj): FieldError[] {
  const s = obj(ds.spec) ?? {};
  const template = obj(s.template) ?? {};
  const errs = validateSelectorObject(s.selector, spec.child('selector'), 'daemonset');
  const selector = toSelector(s.selector);
  if (selector) errs.push(...validateSelectorMatchesTemplate(selector, template, spec.child('template')));
  errs.push(...validateControllerTemplate(template, spec.child('template'), 'DaemonSet'));
  errs.push(...validateNonnegative(s.minReadySeconds, spec.child('minReadySeconds')));
  errs.push(...validateUpdateStrategy(s.updateStrategy, spec.child('updateStrategy')));
  errs.push(...validateNonnegative(s.revisionHistoryLimit, spec.child('revisionHistoryLimit')));
  return errs;
}

/** Updates keep the selector (apps/v1). */
export function validateDaemonSetUpdate(ds: Obj, old: Obj): FieldError[] {
  return validateSelectorUnchanged(ds, old);
}

const STATUS_COUNTS = [
  'currentNumberScheduled',
  'numberMisscheduled',
  'desiredNumberScheduled',
  'numberReady',
  'observedGeneration',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
  'collisionCount',
];

/** A status write: non-negative counters, collisionCount never decremented. */
export function validateDaemonSetStatusUpdate(ds: Obj, old: Obj): FieldError[] {
  return [...validateNonnegativeCounts(obj(ds.status) ?? {}, STATUS_COUNTS, FieldPath.of('status')), ...validateCollisionCount(ds, old)];
}
