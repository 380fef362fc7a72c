/**
 * autoscaling/v1 HorizontalPodAutoscaler: served over the autoscaling/v2 objects (./conversion.ts;
 * upstream v1.30 `staging/src/k8s.io/api/autoscaling/v1/types.go`: field order, JSON names,
 * protobuf numbers). CPU utilization is its only metric field; the v2 data it has no field for is
 * kept in annotations. Defaults: `minReplicas` 1; no `targetCPUUtilizationPercentage` is an 80%
 * target, set when converting (v1 objects read back with it). Validation is v2's, on the converted
 * object, as upstream validates the internal one.
 */
import { field, int32, int64, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { horizontalPodAutoscalerV1Printer } from '../../printers/autoscaling.js';
import { AUTOSCALING_GROUP } from './scale.js';

const V1 = 'api.autoscaling.v1';

/** The scaled object (atomic as a whole, upstream `+structType=atomic`). */
export const crossVersionObjectReferenceV1 = struct(
  `${V1}.CrossVersionObjectReference`,
  {
    kind: field(1, string, { required: true, omitEmpty: false, description: 'The kind of the referent.' }),
    name: field(2, string, { required: true, omitEmpty: false, description: 'The name of the referent.' }),
    apiVersion: field(3, string, { description: 'The API version of the referent.' }),
  },
  { mapType: 'atomic' },
);

/** The desired autoscaling of autoscaling/v1. */
export const horizontalPodAutoscalerSpecV1 = struct(`${V1}.HorizontalPodAutoscalerSpec`, {
  scaleTargetRef: field(1, crossVersionObjectReferenceV1, { required: true, omitEmpty: false, description: 'The scaled object, which has a scale subresource.' }),
  minReplicas: field(2, int32, { default: 1, description: 'The fewest replicas the autoscaler scales to; defaults to 1.' }),
  maxReplicas: field(3, int32, { required: true, omitEmpty: false, description: 'The most replicas the autoscaler scales to; not below minReplicas.' }),
  targetCPUUtilizationPercentage: field(4, int32, { description: 'The target average CPU utilization, in percent of the requested CPU; 80 when unset.' }),
});

/** The observed state of autoscaling/v1. */
export const horizontalPodAutoscalerStatusV1 = struct(`${V1}.HorizontalPodAutoscalerStatus`, {
  observedGeneration: field(1, int64, { description: 'The generation the autoscaler last observed.' }),
  lastScaleTime: field(2, time, { description: 'When the autoscaler last changed the replicas.' }),
  currentReplicas: field(3, int32, { required: true, omitEmpty: false, description: 'The replicas the autoscaler last saw.' }),
  desiredReplicas: field(4, int32, { required: true, omitEmpty: false, description: 'The replicas the autoscaler last computed.' }),
  currentCPUUtilizationPercentage: field(5, int32, { description: 'The current average CPU utilization, in percent of the requested CPU.' }),
});

/** The HorizontalPodAutoscaler kind of autoscaling/v1: namespaced, short name `hpa`, category `all`. */
export const horizontalPodAutoscalerV1 = defineKind({
  group: AUTOSCALING_GROUP,
  version: 'v1',
  kind: 'HorizontalPodAutoscaler',
  resource: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  statusSubresource: true,
  description: 'The configuration of an autoscaler that sets the replicas of a scalable object from its CPU utilization.',
  printerColumns: horizontalPodAutoscalerV1Printer,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, horizontalPodAutoscalerSpecV1, { omitEmpty: false, description: 'The desired autoscaling.' }),
    status: field(3, horizontalPodAutoscalerStatusV1, { omitEmpty: false, description: 'The observed state of the autoscaler.' }),
  },
});
