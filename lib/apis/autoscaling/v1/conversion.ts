/**
 * autoscaling/v1 ↔ autoscaling/v2 HorizontalPodAutoscaler, losslessly, as upstream v1.30
 * converts v1 through the internal version (`pkg/apis/autoscaling/v1/conversion.go`; the internal
 * version is v2's shape, and v2 drops the round-trip annotations both ways,
 * `pkg/apis/autoscaling/v2/conversion.go`):
 *
 * - v2 → v1: the first CPU utilization target becomes `targetCPUUtilizationPercentage` and the
 *   last CPU utilization observed `currentCPUUtilizationPercentage`; every other metric spec, every
 *   current metric, the conditions and the behavior are kept as JSON in the annotations of
 *   vendor.ts (HPA_*_ANNOTATION), replacing any the object already had.
 * - v1 → v2: the CPU target becomes a Resource metric, after the metrics of the annotation; no
 *   metric at all is an 80% CPU utilization target (the implicit v1 default); the annotations
 *   restore the current metrics, conditions and behavior and are then dropped. An annotation that
 *   does not decode is ignored, as upstream ignores it.
 */
import type { Obj } from '../../define.js';
import { HPA_BEHAVIOR_ANNOTATION, HPA_CONDITIONS_ANNOTATION, HPA_CURRENT_METRICS_ANNOTATION, HPA_METRICS_ANNOTATION } from '../../vendor.js';
import { defaultCPUMetric } from '../v2/types.js';
import {
  AnnotationDecodeError,
  behaviorFromInternal,
  behaviorToInternal,
  conditionFromV1,
  conditionToV1,
  goJSON,
  metricSpecFromV1,
  metricSpecToV1,
  metricStatusFromV1,
  metricStatusToV1,
  parseObjectList,
} from './metric-annotations.js';

/** The annotations only conversion writes (upstream DropRoundTripHorizontalPodAutoscalerAnnotations). */
export const ROUND_TRIP_ANNOTATIONS: readonly string[] = [HPA_METRICS_ANNOTATION, HPA_BEHAVIOR_ANNOTATION, HPA_CURRENT_METRICS_ANNOTATION, HPA_CONDITIONS_ANNOTATION];

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const objOf = (v: unknown): Obj => (isObj(v) ? v : {});
const listOf = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** `annotations` without the round-trip ones (a copy). */
function withoutRoundTrip(annotations: unknown): Record<string, string> {
  const out: Record<string, string> = { ...(objOf(annotations) as Record<string, string>) };
  for (const key of ROUND_TRIP_ANNOTATIONS) delete out[key];
  return out;
}

/** A Resource metric (spec or status) on CPU. */
function isCPU(m: Obj): boolean {
  return m.type === 'Resource' && isObj(m.resource) && m.resource.name === 'cpu';
}

/** A CPU metric spec with a utilization target: what `targetCPUUtilizationPercentage` stands for. */
function isCPUUtilizationTarget(m: Obj): boolean {
  return isCPU(m) && objOf(objOf(m.resource).target).averageUtilization != null;
}

/** An autoscaling/v2 object as autoscaling/v1 serves it (the type meta and canonical form are added by the caller). */
export function horizontalPodAutoscalerToV1(hpa: Obj): Obj {
  const meta = objOf(hpa.metadata);
  const spec = objOf(hpa.spec);
  const status = objOf(hpa.status);
  const metrics = listOf(spec.metrics);
  const currentMetrics = listOf(status.currentMetrics);
  const conditions = listOf(status.conditions);
  const annotations = withoutRoundTrip(meta.annotations);
  const others = metrics.filter((m) => !isCPUUtilizationTarget(m));
  if (others.length > 0) annotations[HPA_METRICS_ANNOTATION] = goJSON(others.map(metricSpecToV1));
  if (currentMetrics.length > 0) annotations[HPA_CURRENT_METRICS_ANNOTATION] = goJSON(currentMetrics.map(metricStatusToV1));
  if (isObj(spec.behavior)) annotations[HPA_BEHAVIOR_ANNOTATION] = goJSON(behaviorToInternal(spec.behavior));
  if (conditions.length > 0) annotations[HPA_CONDITIONS_ANNOTATION] = goJSON(conditions.map(conditionToV1));
  const cpuTarget = metrics.find(isCPUUtilizationTarget);
  let currentCPU: unknown;
  for (const m of currentMetrics) {
    const utilization = objOf(objOf(m.resource).current).averageUtilization;
    if (isCPU(m) && utilization != null) currentCPU = utilization;
  }
  return {
    metadata: { ...meta, annotations },
    spec: {
      scaleTargetRef: spec.scaleTargetRef,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      targetCPUUtilizationPercentage: cpuTarget ? objOf(objOf(cpuTarget.resource).target).averageUtilization : undefined,
    },
    status: {
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentCPUUtilizationPercentage: currentCPU,
    },
  };
}

/** The value of a round-trip annotation decoded by `decode`, or undefined when absent or undecodable. */
function fromAnnotation<T>(annotations: Obj, key: string, decode: (text: string) => T): T | undefined {
  const text = annotations[key];
  if (typeof text !== 'string') return undefined;
  try {
    return decode(text);
  } catch (err) {
    if (err instanceof AnnotationDecodeError) return undefined;
    throw err;
  }
}

/** An autoscaling/v1 object as autoscaling/v2 stores it (the type meta, defaults and canonical form are added by the caller). */
export function horizontalPodAutoscalerFromV1(hpa: Obj): Obj {
  const meta = objOf(hpa.metadata);
  const spec = objOf(hpa.spec);
  const status = objOf(hpa.status);
  const annotations = objOf(meta.annotations);
  const cpuTarget = spec.targetCPUUtilizationPercentage;
  let metrics: Obj[] = cpuTarget == null ? [] : [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpuTarget } } }];
  const others = fromAnnotation(annotations, HPA_METRICS_ANNOTATION, (t) => parseObjectList(t).map(metricSpecFromV1));
  if (others) metrics = [...others, ...metrics.slice(0, 1)];
  if (metrics.length === 0) metrics = [defaultCPUMetric()];
  const behavior = fromAnnotation(annotations, HPA_BEHAVIOR_ANNOTATION, behaviorFromInternal);
  const currentCPU = status.currentCPUUtilizationPercentage;
  let currentMetrics: Obj[] | undefined = currentCPU == null ? undefined : [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: currentCPU } } }];
  currentMetrics = fromAnnotation(annotations, HPA_CURRENT_METRICS_ANNOTATION, (t) => parseObjectList(t).map(metricStatusFromV1)) ?? currentMetrics;
  const conditions = fromAnnotation(annotations, HPA_CONDITIONS_ANNOTATION, (t) => parseObjectList(t).map(conditionFromV1));
  return {
    metadata: { ...meta, annotations: withoutRoundTrip(annotations) },
    spec: { scaleTargetRef: spec.scaleTargetRef, minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas, metrics, behavior },
    status: {
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      // v2 leaves a zero count out (`omitempty`).
      currentReplicas: status.currentReplicas || undefined,
      desiredReplicas: status.desiredReplicas,
      currentMetrics,
      conditions,
    },
  };
}
