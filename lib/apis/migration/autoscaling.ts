/**
 * HorizontalPodAutoscaler `autoscaling/v2beta1` → `autoscaling/v2` (spec 001 § Removed API
 * versions, 1.25 row; upstream `pkg/apis/autoscaling/v2beta1/conversion.go`). v2beta1 spells each
 * metric's target and current value as flat fields; v2 groups them:
 *
 * - Object: `target` → `describedObject`, `metricName`/`selector` → `metric.{name,selector}`,
 *   `targetValue` → `target` of type Value, or `averageValue` → type AverageValue.
 * - Pods: `metricName`/`selector` → `metric`, `targetAverageValue` → AverageValue target.
 * - Resource and ContainerResource: `targetAverageUtilization` → Utilization target,
 *   `targetAverageValue` → AverageValue target.
 * - External: `metricName`/`metricSelector` → `metric`, `targetValue` → Value target,
 *   `targetAverageValue` → AverageValue target.
 * - Current metrics alike (`currentValue`, `currentAverageValue`, `currentAverageUtilization`
 *   → `current.{value,averageValue,averageUtilization}`).
 * - The behavior, which v2beta1 has no field for, comes from the round-trip annotation
 *   (HPA_BEHAVIOR_ANNOTATION) when it decodes; the annotation is dropped either way.
 */
import { AnnotationDecodeError, behaviorFromInternal } from '../autoscaling/v1/metric-annotations.js';
import { AUTOSCALING_GROUP } from '../autoscaling/v1/scale.js';
import type { Obj } from '../define.js';
import { HPA_BEHAVIOR_ANNOTATION } from '../vendor.js';
import { type MigrationRow, isObj } from './types.js';

/** The set fields of `o` (undefined dropped). */
function compact(o: Obj): Obj {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** `{name, selector}` of a metric identifier. */
function metricId(name: unknown, selector: unknown): Obj {
  return compact({ name, selector });
}

/** A v2 MetricTarget from v2beta1's flat target fields (AverageValue wins over Value, as upstream). */
function target(value: unknown, averageValue: unknown, averageUtilization?: unknown): Obj {
  if (averageUtilization !== undefined) return compact({ type: 'Utilization', averageUtilization, averageValue });
  if (averageValue !== undefined) return compact({ type: 'AverageValue', averageValue, value });
  return compact({ type: 'Value', value });
}

/** The source blocks of a v2beta1 MetricSpec or MetricStatus, each undefined when absent or not an object. */
function metricSources(m: Obj): { o?: Obj; p?: Obj; r?: Obj; c?: Obj; e?: Obj } {
  const of = (v: unknown) => (isObj(v) ? v : undefined);
  return { o: of(m.object), p: of(m.pods), r: of(m.resource), c: of(m.containerResource), e: of(m.external) };
}

/** One v2beta1 MetricSpec in v2's shape. */
export function metricSpecToV2(m: Obj): Obj {
  const out: Obj = { type: m.type };
  const { o, p, r, c, e } = metricSources(m);
  if (o) out.object = { describedObject: o.target, metric: metricId(o.metricName, o.selector), target: target(o.targetValue, o.averageValue) };
  if (p) out.pods = { metric: metricId(p.metricName, p.selector), target: target(undefined, p.targetAverageValue) };
  if (r) out.resource = { name: r.name, target: target(undefined, r.targetAverageValue, r.targetAverageUtilization) };
  if (c) out.containerResource = { name: c.name, container: c.container, target: target(undefined, c.targetAverageValue, c.targetAverageUtilization) };
  if (e) out.external = { metric: metricId(e.metricName, e.metricSelector), target: target(e.targetValue, e.targetAverageValue) };
  return out;
}

/** One v2beta1 MetricStatus in v2's shape. */
export function metricStatusToV2(m: Obj): Obj {
  const out: Obj = { type: m.type };
  const { o, p, r, c, e } = metricSources(m);
  if (o) out.object = { describedObject: o.target, metric: metricId(o.metricName, o.selector), current: compact({ value: o.currentValue, averageValue: o.averageValue }) };
  if (p) out.pods = { metric: metricId(p.metricName, p.selector), current: compact({ averageValue: p.currentAverageValue }) };
  if (r) out.resource = { name: r.name, current: compact({ averageValue: r.currentAverageValue, averageUtilization: r.currentAverageUtilization }) };
  if (c) out.containerResource = { name: c.name, container: c.container, current: compact({ averageValue: c.currentAverageValue, averageUtilization: c.currentAverageUtilization }) };
  if (e) out.external = { metric: metricId(e.metricName, e.metricSelector), current: compact({ value: e.currentValue, averageValue: e.currentAverageValue }) };
  return out;
}

/** Rewrites an autoscaling/v2beta1 HorizontalPodAutoscaler into v2 (see the file comment). */
export function horizontalPodAutoscalerV2beta1ToV2(obj: Obj): Obj {
  const spec = isObj(obj.spec) ? obj.spec : undefined;
  if (spec && Array.isArray(spec.metrics)) spec.metrics = spec.metrics.filter(isObj).map(metricSpecToV2);
  const status = isObj(obj.status) ? obj.status : undefined;
  if (status && Array.isArray(status.currentMetrics)) status.currentMetrics = status.currentMetrics.filter(isObj).map(metricStatusToV2);
  const meta = isObj(obj.metadata) ? obj.metadata : undefined;
  const annotations = meta && isObj(meta.annotations) ? meta.annotations : undefined;
  const text = annotations?.[HPA_BEHAVIOR_ANNOTATION];
  if (annotations && text !== undefined) {
    delete annotations[HPA_BEHAVIOR_ANNOTATION];
    if (Object.keys(annotations).length === 0) delete meta!.annotations;
    if (spec && typeof text === 'string') {
      try {
        const behavior = behaviorFromInternal(text);
        if (behavior) spec.behavior = behavior;
      } catch (e) {
        if (!(e instanceof AnnotationDecodeError)) throw e;
      }
    }
  }
  return obj;
}

/** The v2beta1 row. */
export const autoscalingRows: readonly MigrationRow[] = [
  {
    from: { group: AUTOSCALING_GROUP, version: 'v2beta1', kind: 'HorizontalPodAutoscaler' },
    to: { group: AUTOSCALING_GROUP, version: 'v2', kind: 'HorizontalPodAutoscaler' },
    removedIn: '1.25',
    convert: horizontalPodAutoscalerV2beta1ToV2,
  },
];
