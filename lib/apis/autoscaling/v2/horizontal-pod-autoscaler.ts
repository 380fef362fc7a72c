/**
 * autoscaling/v2 HorizontalPodAutoscaler, the version HorizontalPodAutoscalers are stored in:
 * scales a workload's replicas through its scale subresource from the metrics it names (upstream
 * v1.30 types and protobuf numbers: ./types.ts). Validation is upstream's whole
 * ValidateHorizontalPodAutoscaler (./validation.ts, ObjectMeta included), which the registry
 * strategy runs instead of the declarative checks (lib/registry/autoscaling). Short name `hpa`,
 * category `all`, status subresource; also served as autoscaling/v1 (../v1).
 */
import { field } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { horizontalPodAutoscalerPrinter } from '../../printers/autoscaling.js';
import { AUTOSCALING_GROUP } from '../v1/scale.js';
import { horizontalPodAutoscalerSpec, horizontalPodAutoscalerStatus } from './types.js';

/** The HorizontalPodAutoscaler kind of autoscaling/v2: namespaced, short name `hpa`, category `all`. */
export const horizontalPodAutoscaler = defineKind({
  group: AUTOSCALING_GROUP,
  version: 'v2',
  kind: 'HorizontalPodAutoscaler',
  resource: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  statusSubresource: true,
  description: 'The configuration of an autoscaler that sets the replicas of a scalable object from the metrics it names.',
  printerColumns: horizontalPodAutoscalerPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, horizontalPodAutoscalerSpec, { omitEmpty: false, description: 'The desired autoscaling.' }),
    status: field(3, horizontalPodAutoscalerStatus, { omitEmpty: false, description: 'The observed state of the autoscaler.' }),
  },
});
