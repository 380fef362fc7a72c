/**
 * StatefulSet validation with the upstream paths and messages (v1.30 `ValidateStatefulSetSpec`,
 * `ValidateStatefulSetUpdate`, `ValidateStatefulSetStatus`). As upstream, the pod template's
 * spec is not validated beyond its restart policy and active deadline (only the template's labels
 * and annotations are), nor are the claim templates; an absent selector or template is reported
 * by the schema.
 */
import { type FieldError, FieldPath, forbidden, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { validateAnnotations, validateLabels } from '../../../apimachinery/validation/object-meta.js';
import { num, obj, type Obj } from '../../core/v1/obj-access.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';
import {
  intOrPercentValue,
  toSelector,
  validateCollisionCount,
  validateIntOrPercent,
  validateNonnegativeCounts,
  validateNotAboveReplicas,
  validateNotMoreThan100Percent,
  validateRestartAlways,
  validateSelectorMatchesTemplate,
  validateSelectorObject,
} from './workload-validation.js';

const spec = FieldPath.of('spec');

/** The spec fields an update may change; any other change is forbidden. */
const MUTABLE_SPEC_FIELDS = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

const FORBIDDEN_UPDATE =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

const RETENTION_POLICIES = ['Retain', 'Delete'];

function validatePodManagementPolicy(policy: unknown, path: FieldPath): FieldError[] {
  if (policy === undefined || policy === '') return [required(path)];
  if (policy === 'OrderedReady' || policy === 'Parallel') return [];
  return [invalid(path, policy, "must be 'OrderedReady' or 'Parallel'")];
}

/** A non-negative partition; a set maxUnavailable is a non-zero int or percentage up to 100%. */
function validateRollingUpdate(ru: Obj, path: FieldPath): FieldError[] {
  const errs = validateNonnegative(ru.partition, path.child('partition'));
  if (ru.maxUnavailable == null) return errs;
  const p = path.child('maxUnavailable');
  errs.push(...validateIntOrPercent(ru.maxUnavailable, p));
  if (intOrPercentValue(ru.maxUnavailable) === 0) errs.push(invalid(p, ru.maxUnavailable, 'cannot be 0'));
  errs.push(...validateNotMoreThan100Percent(ru.maxUnavailable, p));
  return errs;
}

function validateUpdateStrategy(strategy: unknown, path: FieldPath): FieldError[] {
  const s = obj(strategy) ?? {};
  const ru = obj(s.rollingUpdate);
  switch (s.type) {
    case undefined:
    case '':
      return [required(path)];
    case 'OnDelete':
      return ru ? [invalid(path.child('rollingUpdate'), ru, "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate':
      return ru ? validateRollingUpdate(ru, path.child('rollingUpdate')) : [];
    default:
      return [invalid(path, s, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

function validateRetentionPolicy(policy: unknown, path: FieldPath): FieldError[] {
  const p = obj(policy);
  if (!p) return [];
  return (['whenDeleted', 'whenScaled'] as const).flatMap((k) =>
    RETENTION_POLICIES.includes(p[k] as string) ? [] : [notSupported(path.child(k), p[k] ?? '', RETENTION_POLICIES)],
  );
}

/** Selector syntax and match, template labels and annotations, restart policy and active deadline. */
function validateSelectorAndTemplate(s: Obj): FieldError[] {
  const template = obj(s.template) ?? {};
  const errs = validateSelectorObject(s.selector, spec.child('selector'), 'statefulset');
  const selector = toSelector(s.selector);
  const templatePath = spec.child('template');
  if (!selector) errs.push(invalid(spec.child('selector'), s.selector, ''));
  else {
    const meta = obj(template.metadata) ?? {};
    errs.push(...validateSelectorMatchesTemplate(selector, template, templatePath));
    errs.push(...validateLabels(meta.labels, templatePath.child('labels')), ...validateAnnotations(meta.annotations, templatePath.child('annotations')));
  }
  errs.push(...validateRestartAlways(template, templatePath, 'StatefulSet'));
  return errs;
}

/** Validates a StatefulSet's spec (create and update). */
export function validateStatefulSet(sts: Obj): FieldError[] {
  const s = obj(sts.spec) ?? {};
  const errs = validatePodManagementPolicy(s.podManagementPolicy, spec.child('podManagementPolicy'));
  errs.push(...validateUpdateStrategy(s.updateStrategy, spec.child('updateStrategy')));
  errs.push(...validateRetentionPolicy(s.persistentVolumeClaimRetentionPolicy, spec.child('persistentVolumeClaimRetentionPolicy')));
  errs.push(...validateNonnegative(s.replicas, spec.child('replicas')));
  errs.push(...validateNonnegative(s.minReadySeconds, spec.child('minReadySeconds')));
  const ordinals = obj(s.ordinals);
  if (ordinals) errs.push(...validateNonnegative(ordinals.start, spec.child('ordinals.start')));
  errs.push(...validateSelectorAndTemplate(s));
  return errs;
}

/** The spec without the fields an update may change. */
function fixedPart(s: Obj): Obj {
  return Object.fromEntries(Object.entries(s).filter(([k]) => !MUTABLE_SPEC_FIELDS.includes(k)));
}

/** Only replicas, ordinals, template, updateStrategy, the claim retention policy and minReadySeconds may change. */
export function validateStatefulSetUpdate(sts: Obj, old: Obj): FieldError[] {
  const changed = !semanticEqual(fixedPart(obj(sts.spec) ?? {}), fixedPart(obj(old.spec) ?? {}));
  return changed ? [forbidden(spec, FORBIDDEN_UPDATE)] : [];
}

const STATUS_COUNTS = ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'];

/** A status write: non-negative, consistent counters; collisionCount never decremented. */
export function validateStatefulSetStatusUpdate(sts: Obj, old: Obj): FieldError[] {
  const st = obj(sts.status) ?? {};
  const path = FieldPath.of('status');
  const errs = validateNonnegativeCounts(st, STATUS_COUNTS, path);
  errs.push(...validateNotAboveReplicas(st, ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'], path));
  const available = num(st.availableReplicas) ?? 0;
  if (available > (num(st.readyReplicas) ?? 0)) errs.push(invalid(path.child('availableReplicas'), available, 'cannot be greater than status.readyReplicas'));
  errs.push(...validateCollisionCount(sts, old));
  return errs;
}
