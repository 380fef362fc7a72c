/**
 * The structs of autoscaling/v2 HorizontalPodAutoscaler (upstream v1.30
 * `staging/src/k8s.io/api/autoscaling/v2/types.go` and `generated.proto`: field order, JSON names,
 * `omitempty`, pointers, protobuf numbers, list markers) and their defaulters
 * (`pkg/apis/autoscaling/v2/defaults.go`): `minReplicas` 1, an 80% average CPU utilization
 * metric when none is given, and a given `behavior`'s unset scaling rules filled in.
 */
import { field, int32, int64, listOf, quantity, string, struct, time } from '../../../apimachinery/schema/builder.js';
import type { Obj } from '../../define.js';
import { labelSelector } from '../../meta/v1/types.js';

const V2 = 'api.autoscaling.v2';

/** The CPU utilization, in percent of the requested CPU, a metric-less autoscaler targets (upstream DefaultCPUUtilization). */
export const DEFAULT_CPU_UTILIZATION = 80;

/** The scaled object: kind, name and API version. */
export const crossVersionObjectReference = struct(`${V2}.CrossVersionObjectReference`, {
  kind: field(1, string, { required: true, omitEmpty: false, description: 'The kind of the referent.' }),
  name: field(2, string, { required: true, omitEmpty: false, description: 'The name of the referent.' }),
  apiVersion: field(3, string, { description: 'The API version of the referent.' }),
});

/** A metric's name and optional label selector. */
export const metricIdentifier = struct(`${V2}.MetricIdentifier`, {
  name: field(1, string, { required: true, omitEmpty: false, description: 'The name of the metric.' }),
  selector: field(2, labelSelector, { description: 'Narrows the metric to the series these labels select.' }),
});

/** A metric's target: a value, an average value or an average utilization. */
export const metricTarget = struct(`${V2}.MetricTarget`, {
  type: field(1, string, { required: true, omitEmpty: false, description: 'Utilization, Value or AverageValue.' }),
  value: field(2, quantity, { description: 'The target value of the metric.' }),
  averageValue: field(3, quantity, { description: 'The target value of the metric averaged over the pods.' }),
  averageUtilization: field(4, int32, { description: 'The target average utilization, in percent of the requested resource (Resource metrics).' }),
});

/** A metric's current value. */
export const metricValueStatus = struct(`${V2}.MetricValueStatus`, {
  value: field(1, quantity, { description: 'The current value of the metric.' }),
  averageValue: field(2, quantity, { description: 'The current value averaged over the pods.' }),
  averageUtilization: field(3, int32, { description: 'The current average utilization, in percent of the requested resource.' }),
});

const metricField = (proto: number) => field(proto, metricIdentifier, { required: true, omitEmpty: false, description: 'The metric, by name and selector.' });
const targetField = (proto: number) => field(proto, metricTarget, { required: true, omitEmpty: false, description: 'The target value of the metric.' });
const currentField = (proto: number) => field(proto, metricValueStatus, { required: true, omitEmpty: false, description: 'The current value of the metric.' });
const describedObjectField = (proto: number) => field(proto, crossVersionObjectReference, { required: true, omitEmpty: false, description: 'The object the metric describes.' });
const resourceNameField = field(1, string, { required: true, omitEmpty: false, description: 'The name of the resource (cpu, memory).' });
const containerField = (proto: number) => field(proto, string, { required: true, omitEmpty: false, description: 'The container of the scaled pods whose resource counts.' });

/** A metric of one object (hits per second of an Ingress). */
export const objectMetricSource = struct(`${V2}.ObjectMetricSource`, { describedObject: describedObjectField(1), target: targetField(2), metric: metricField(3) });
/** A metric of each scaled pod, averaged. */
export const podsMetricSource = struct(`${V2}.PodsMetricSource`, { metric: metricField(1), target: targetField(2) });
/** A resource (requests and limits) of each scaled pod. */
export const resourceMetricSource = struct(`${V2}.ResourceMetricSource`, { name: resourceNameField, target: targetField(2) });
/** A resource of one container of each scaled pod. */
export const containerResourceMetricSource = struct(`${V2}.ContainerResourceMetricSource`, { name: resourceNameField, target: targetField(2), container: containerField(3) });
/** A metric of nothing in the cluster (a queue length). */
export const externalMetricSource = struct(`${V2}.ExternalMetricSource`, { metric: metricField(1), target: targetField(2) });

/** One metric to scale on: its `type` and the matching source. */
export const metricSpec = struct(`${V2}.MetricSpec`, {
  type: field(1, string, { required: true, omitEmpty: false, description: 'ContainerResource, External, Object, Pods or Resource: which source is set.' }),
  object: field(2, objectMetricSource),
  pods: field(3, podsMetricSource),
  resource: field(4, resourceMetricSource),
  containerResource: field(7, containerResourceMetricSource),
  external: field(5, externalMetricSource),
});

/** The current value of an object metric. */
export const objectMetricStatus = struct(`${V2}.ObjectMetricStatus`, { metric: metricField(1), current: currentField(2), describedObject: describedObjectField(3) });
/** The current value of a pods metric. */
export const podsMetricStatus = struct(`${V2}.PodsMetricStatus`, { metric: metricField(1), current: currentField(2) });
/** The current value of a resource metric. */
export const resourceMetricStatus = struct(`${V2}.ResourceMetricStatus`, { name: resourceNameField, current: currentField(2) });
/** The current value of a container resource metric. */
export const containerResourceMetricStatus = struct(`${V2}.ContainerResourceMetricStatus`, { name: resourceNameField, current: currentField(2), container: containerField(3) });
/** The current value of an external metric. */
export const externalMetricStatus = struct(`${V2}.ExternalMetricStatus`, { metric: metricField(1), current: currentField(2) });

/** The last read state of one metric. */
export const metricStatus = struct(`${V2}.MetricStatus`, {
  type: field(1, string, { required: true, omitEmpty: false, description: 'ContainerResource, External, Object, Pods or Resource: which status is set.' }),
  object: field(2, objectMetricStatus),
  pods: field(3, podsMetricStatus),
  resource: field(4, resourceMetricStatus),
  containerResource: field(7, containerResourceMetricStatus),
  external: field(5, externalMetricStatus),
});

/** One scaling policy: at most `value` pods or percent per `periodSeconds`. */
export const hpaScalingPolicy = struct(`${V2}.HPAScalingPolicy`, {
  type: field(1, string, { required: true, omitEmpty: false, description: 'Pods or Percent.' }),
  value: field(2, int32, { required: true, omitEmpty: false, description: 'The change the policy permits; greater than zero.' }),
  periodSeconds: field(3, int32, { required: true, omitEmpty: false, description: 'The window the policy holds over (1 to 1800 seconds).' }),
});

/** The defaults of a behavior's scale-up rules (upstream defaultHPAScaleUpRules). */
function scaleUpDefaults(): Obj {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

/** The defaults of a behavior's scale-down rules (upstream defaultHPAScaleDownRules: no window, the controller's flag decides). */
function scaleDownDefaults(): Obj {
  return { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}

/** Upstream copyHPAScalingRules: the defaults with every field `rules` sets. */
function withRuleDefaults(rules: unknown, defaults: Obj): Obj {
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) return defaults;
  const r = rules as Obj;
  for (const k of ['selectPolicy', 'stabilizationWindowSeconds', 'policies']) if (r[k] !== undefined && r[k] !== null) defaults[k] = r[k];
  return defaults;
}

/** The rules of one scaling direction. */
export const hpaScalingRules = struct(`${V2}.HPAScalingRules`, {
  stabilizationWindowSeconds: field(3, int32, { description: 'Seconds of past recommendations considered (0 to 3600); defaults 0 up, 300 down.' }),
  selectPolicy: field(1, string, { description: 'Max, Min or Disabled; defaults to Max.' }),
  policies: field(2, listOf(hpaScalingPolicy, { listType: 'atomic' }), { description: 'The scaling policies, at least one.' }),
});

/** Scale-up and scale-down rules; every unset rule of a given behavior defaulted (SetDefaults_HorizontalPodAutoscalerBehavior). */
export const horizontalPodAutoscalerBehavior = struct(
  `${V2}.HorizontalPodAutoscalerBehavior`,
  {
    scaleUp: field(1, hpaScalingRules, { description: 'How the target scales up; defaults to 4 pods or 100% per 15s, whichever is more.' }),
    scaleDown: field(2, hpaScalingRules, { description: 'How the target scales down; defaults to 100% per 15s.' }),
  },
  {
    defaulter: (b) => {
      b.scaleUp = withRuleDefaults(b.scaleUp, scaleUpDefaults());
      b.scaleDown = withRuleDefaults(b.scaleDown, scaleDownDefaults());
    },
  },
);

/** The 80% average CPU utilization metric of an autoscaler without metrics. */
export function defaultCPUMetric(): Obj {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } };
}

/** The desired autoscaling. */
export const horizontalPodAutoscalerSpec = struct(
  `${V2}.HorizontalPodAutoscalerSpec`,
  {
    scaleTargetRef: field(1, crossVersionObjectReference, { required: true, omitEmpty: false, description: 'The scaled object, which has a scale subresource.' }),
    minReplicas: field(2, int32, { default: 1, description: 'The fewest replicas the autoscaler scales to; defaults to 1.' }),
    maxReplicas: field(3, int32, { required: true, omitEmpty: false, description: 'The most replicas the autoscaler scales to; not below minReplicas.' }),
    metrics: field(4, listOf(metricSpec, { listType: 'atomic' }), { description: 'The metrics the desired replicas are computed from; defaults to 80% average CPU utilization.' }),
    behavior: field(5, horizontalPodAutoscalerBehavior, { description: 'How fast to scale up and down.' }),
  },
  {
    defaulter: (spec) => {
      if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) spec.metrics = [defaultCPUMetric()];
    },
    description: 'The desired functionality of the autoscaler.',
  },
);

/** A condition of an autoscaler (AbleToScale, ScalingActive, ScalingLimited). */
export const horizontalPodAutoscalerCondition = struct(`${V2}.HorizontalPodAutoscalerCondition`, {
  type: field(1, string, { required: true, omitEmpty: false, description: 'The type of the condition.' }),
  status: field(2, string, { required: true, omitEmpty: false, description: 'True, False or Unknown.' }),
  lastTransitionTime: field(3, time, { omitEmpty: false, description: 'When the condition last changed status.' }),
  reason: field(4, string, { description: "Machine-readable reason of the condition's last change." }),
  message: field(5, string, { description: 'Human-readable details of the last change.' }),
});

/** The observed state of an autoscaler. */
export const horizontalPodAutoscalerStatus = struct(`${V2}.HorizontalPodAutoscalerStatus`, {
  observedGeneration: field(1, int64, { description: 'The generation the autoscaler last observed.' }),
  lastScaleTime: field(2, time, { description: 'When the autoscaler last changed the replicas.' }),
  currentReplicas: field(3, int32, { description: 'The replicas the autoscaler last saw.' }),
  desiredReplicas: field(4, int32, { required: true, omitEmpty: false, description: 'The replicas the autoscaler last computed.' }),
  currentMetrics: field(5, listOf(metricStatus, { listType: 'atomic' }), { omitEmpty: false, description: 'The last read state of the metrics.' }),
  conditions: field(6, listOf(horizontalPodAutoscalerCondition, { listType: 'map', listMapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }), {
    description: 'Whether the autoscaler can scale and why.',
  }),
});
