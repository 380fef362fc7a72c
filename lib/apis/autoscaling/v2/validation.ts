/**
 * HorizontalPodAutoscaler validation (upstream v1.30 `pkg/apis/autoscaling/validation`
 * ValidateHorizontalPodAutoscaler, …Update, …StatusUpdate, with upstream's messages), on the
 * autoscaling/v2 object — the shape of upstream's internal one, so objects written through
 * autoscaling/v1 are validated after conversion, with the same paths, as upstream does. The
 * HPAScaleToZero gate is off: `minReplicas` is at least 1, unless the stored object already has 0.
 */
import { type FieldError, FieldPath, forbidden, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { Quantity } from '../../../apimachinery/quantity.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../apimachinery/validation/object-meta.js';
import { isDNS1123Label, isValidPathSegmentName } from '../../../apimachinery/validation/names.js';
import { validateContainerResourceName } from '../../core/v1/resource-quota-names.js';
import { obj, objs, str, type Obj } from '../../core/v1/obj-access.js';

/** The longest scaling policy period and stabilization window (seconds). */
export const MAX_PERIOD_SECONDS = 1800;
export const MAX_STABILIZATION_WINDOW_SECONDS = 3600;

const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
/** Each metric source type and the field holding its source, in the order upstream checks them. */
const SOURCE_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['Object', 'object'],
  ['External', 'external'],
  ['Pods', 'pods'],
  ['Resource', 'resource'],
  ['ContainerResource', 'containerResource'],
];

const int = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
/** The sign of a quantity (values are decoded, so they parse). */
const sign = (q: unknown): number => Quantity.parse(String(q)).sign();

/** Upstream ValidateCrossVersionObjectReference: kind and name set, each a valid path segment. */
export function validateCrossVersionObjectReference(ref: Obj | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const name of ['kind', 'name']) {
    const value = str(ref?.[name]);
    if (value === '') errs.push(required(path.child(name)));
    else errs.push(...isValidPathSegmentName(value).map((m) => invalid(path.child(name), value, m)));
  }
  return errs;
}

function validateMetricIdentifier(id: Obj | undefined, path: FieldPath): FieldError[] {
  const name = str(id?.name);
  if (name === '') return [required(path.child('name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((m) => invalid(path.child('name'), name, m));
}

function validateMetricTarget(t: Obj | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(t?.type);
  if (type === '') errs.push(required(path.child('type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(invalid(path.child('type'), type, 'must be either Utilization, Value, or AverageValue'));
  if (t?.value != null && sign(t.value) !== 1) errs.push(invalid(path.child('value'), t.value, 'must be positive'));
  if (t?.averageValue != null && sign(t.averageValue) !== 1) errs.push(invalid(path.child('averageValue'), t.averageValue, 'must be positive'));
  const utilization = int(t?.averageUtilization);
  if (utilization !== undefined && utilization < 1) errs.push(invalid(path.child('averageUtilization'), utilization, 'must be greater than 0'));
  return errs;
}

function validateObjectSource(src: Obj, path: FieldPath): FieldError[] {
  const target = obj(src.target);
  const errs = [
    ...validateCrossVersionObjectReference(obj(src.describedObject), path.child('describedObject')),
    ...validateMetricIdentifier(obj(src.metric), path.child('metric')),
    ...validateMetricTarget(target, path.child('target')),
  ];
  if (target?.value == null && target?.averageValue == null) errs.push(required(path.child('target', 'averageValue'), 'must set either a target value or averageValue'));
  return errs;
}

function validateExternalSource(src: Obj, path: FieldPath): FieldError[] {
  const target = obj(src.target);
  const errs = [...validateMetricIdentifier(obj(src.metric), path.child('metric')), ...validateMetricTarget(target, path.child('target'))];
  if (target?.value == null && target?.averageValue == null) errs.push(required(path.child('target', 'averageValue'), 'must set either a target value for metric or a per-pod target'));
  if (target?.value != null && target?.averageValue != null) errs.push(forbidden(path.child('target', 'value'), 'may not set both a target value for metric and a per-pod target'));
  return errs;
}

function validatePodsSource(src: Obj, path: FieldPath): FieldError[] {
  const target = obj(src.target);
  const errs = [...validateMetricIdentifier(obj(src.metric), path.child('metric')), ...validateMetricTarget(target, path.child('target'))];
  if (target?.averageValue == null) errs.push(required(path.child('target', 'averageValue'), 'must specify a positive target averageValue'));
  return errs;
}

/** The utilization-or-value rule shared by resource and container resource sources. */
function validateResourceTarget(target: Obj | undefined, path: FieldPath): FieldError[] {
  const errs = validateMetricTarget(target, path);
  if (target?.averageUtilization == null && target?.averageValue == null) errs.push(required(path.child('averageUtilization'), 'must set either a target raw value or a target utilization'));
  if (target?.averageUtilization != null && target?.averageValue != null) errs.push(forbidden(path.child('averageValue'), 'may not set both a target raw value and a target utilization'));
  return errs;
}

function validateResourceSource(src: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(src.name) === '') errs.push(required(path.child('name'), 'must specify a resource name'));
  return [...errs, ...validateResourceTarget(obj(src.target), path.child('target'))];
}

function validateContainerResourceSource(src: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(src.name);
  if (name === '') errs.push(required(path.child('name'), 'must specify a resource name'));
  else errs.push(...validateContainerResourceName(name, path.child('name')));
  const container = str(src.container);
  if (container === '') errs.push(required(path.child('container'), 'must specify a container'));
  else errs.push(...isDNS1123Label(container).map((m) => invalid(path.child('container'), container, m)));
  return [...errs, ...validateResourceTarget(obj(src.target), path.child('target'))];
}

const SOURCE_VALIDATORS: Record<string, (src: Obj, path: FieldPath) => FieldError[]> = {
  object: validateObjectSource,
  external: validateExternalSource,
  pods: validatePodsSource,
  resource: validateResourceSource,
  containerResource: validateContainerResourceSource,
};

/** Upstream validateMetricSpec: a known type, its source set and validated, no other source set. */
function validateMetricSpec(spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec.type);
  if (type === '') errs.push(required(path.child('type'), 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errs.push(notSupported(path.child('type'), type, METRIC_SOURCE_TYPES));
  const present: string[] = [];
  for (const [, name] of SOURCE_FIELDS) {
    const src = obj(spec[name]);
    if (!src) continue;
    present.push(name);
    if (present.length === 1) errs.push(...SOURCE_VALIDATORS[name]!(src, path.child(name)));
  }
  const expected = SOURCE_FIELDS.find(([t]) => t === type)?.[1];
  if (expected === undefined) errs.push(notSupported(path.child('type'), type, METRIC_SOURCE_TYPES));
  else if (!present.includes(expected)) errs.push(required(path.child(expected), 'must populate information for the given metric source'));
  if (present.length !== 1) for (const name of present.filter((n) => n !== expected)) errs.push(forbidden(path.child(name), 'must populate the given metric source only'));
  return errs;
}

function validateMetrics(metrics: Obj[], path: FieldPath, minReplicas: number | undefined): FieldError[] {
  const errs = metrics.flatMap((m, i) => validateMetricSpec(m, path.index(i)));
  const scalesOnObjects = metrics.some((m) => m.type === 'Object' || m.type === 'External');
  if (minReplicas === 0 && !scalesOnObjects) errs.push(forbidden(path, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  return errs;
}

function validateScalingPolicy(policy: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(policy.type);
  if (!POLICY_TYPES.includes(type)) errs.push(notSupported(path.child('type'), type, POLICY_TYPES));
  const value = int(policy.value) ?? 0;
  if (value <= 0) errs.push(invalid(path.child('value'), value, 'must be greater than zero'));
  const period = int(policy.periodSeconds) ?? 0;
  if (period <= 0) errs.push(invalid(path.child('periodSeconds'), period, 'must be greater than zero'));
  if (period > MAX_PERIOD_SECONDS) errs.push(invalid(path.child('periodSeconds'), period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  return errs;
}

function validateScalingRules(rules: Obj | undefined, path: FieldPath): FieldError[] {
  if (!rules) return [];
  const errs: FieldError[] = [];
  const window = int(rules.stabilizationWindowSeconds);
  if (window !== undefined && window < 0) errs.push(invalid(path.child('stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(invalid(path.child('stabilizationWindowSeconds'), window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (rules.selectPolicy != null && !SELECT_POLICIES.includes(str(rules.selectPolicy))) errs.push(notSupported(path.child('selectPolicy'), rules.selectPolicy, SELECT_POLICIES));
  const policies = objs(rules.policies);
  if (policies.length === 0) errs.push(required(path.child('policies'), 'must specify at least one Policy'));
  policies.forEach((p, i) => errs.push(...validateScalingPolicy(p, path.child('policies').index(i))));
  return errs;
}

/** Upstream validateHorizontalPodAutoscalerSpec with the lowest `minReplicas` allowed. */
function validateSpec(spec: Obj, minReplicasLowerBound: number): FieldError[] {
  const path = FieldPath.of('spec');
  const errs: FieldError[] = [];
  const min = int(spec.minReplicas);
  const max = int(spec.maxReplicas) ?? 0;
  if (min !== undefined && min < minReplicasLowerBound) errs.push(invalid(path.child('minReplicas'), min, `must be greater than or equal to ${minReplicasLowerBound}`));
  if (max < 1) errs.push(invalid(path.child('maxReplicas'), max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(invalid(path.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(obj(spec.scaleTargetRef), path.child('scaleTargetRef')));
  errs.push(...validateMetrics(objs(spec.metrics), path.child('metrics'), min));
  const behavior = obj(spec.behavior);
  if (behavior) {
    errs.push(...validateScalingRules(obj(behavior.scaleUp), path.child('behavior', 'scaleUp')));
    errs.push(...validateScalingRules(obj(behavior.scaleDown), path.child('behavior', 'scaleDown')));
  }
  return errs;
}

/** Upstream ValidateHorizontalPodAutoscaler: ObjectMeta (DNS-subdomain name) and the spec. */
export function validateHorizontalPodAutoscaler(hpa: Obj): FieldError[] {
  return [...validateObjectMeta(obj(hpa.metadata), true, 'dns1123Subdomain'), ...validateSpec(obj(hpa.spec) ?? {}, 1)];
}

/** Upstream ValidateHorizontalPodAutoscalerUpdate: ObjectMeta update and the spec (`minReplicas` 0 stays allowed once stored). */
export function validateHorizontalPodAutoscalerUpdate(hpa: Obj, old: Obj): FieldError[] {
  const bound = int(obj(old.spec)?.minReplicas) === 0 ? 0 : 1;
  return [...validateObjectMetaUpdate(obj(hpa.metadata) ?? {}, obj(old.metadata) ?? {}), ...validateSpec(obj(hpa.spec) ?? {}, bound)];
}

/** Upstream ValidateHorizontalPodAutoscalerStatusUpdate: ObjectMeta update, replica counts not negative. */
export function validateHorizontalPodAutoscalerStatusUpdate(hpa: Obj, old: Obj): FieldError[] {
  const errs = validateObjectMetaUpdate(obj(hpa.metadata) ?? {}, obj(old.metadata) ?? {});
  const status = obj(hpa.status) ?? {};
  for (const name of ['currentReplicas', 'desiredReplicas']) {
    const value = int(status[name]) ?? 0;
    if (value < 0) errs.push(invalid(FieldPath.of('status', name), value, 'must be greater than or equal to 0'));
  }
  return errs;
}
