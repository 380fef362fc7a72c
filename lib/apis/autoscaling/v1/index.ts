/**
 * The kinds of autoscaling/v1 (issue #12 item 1): Scale (the scale subresource's body) and
 * HorizontalPodAutoscaler, served over the autoscaling/v2 objects through
 * horizontalPodAutoscalerV1Conversion (the functions of ./conversion.ts bound to the two kinds).
 */
import type { KindDefinition } from '../../define.js';
import { defineVersionConversion, type VersionConversion } from '../../version-conversion.js';
import { horizontalPodAutoscaler } from '../v2/horizontal-pod-autoscaler.js';
import { horizontalPodAutoscalerFromV1, horizontalPodAutoscalerToV1 } from './conversion.js';
import { horizontalPodAutoscalerV1 } from './horizontal-pod-autoscaler.js';

export { horizontalPodAutoscalerFromV1, horizontalPodAutoscalerToV1, ROUND_TRIP_ANNOTATIONS } from './conversion.js';
export { horizontalPodAutoscalerV1 } from './horizontal-pod-autoscaler.js';

/** autoscaling/v1 HorizontalPodAutoscaler served over autoscaling/v2 storage. */
export const horizontalPodAutoscalerV1Conversion: VersionConversion = defineVersionConversion({
  storageKind: horizontalPodAutoscaler,
  servedKind: horizontalPodAutoscalerV1,
  toStorage: horizontalPodAutoscalerFromV1,
  toServed: horizontalPodAutoscalerToV1,
});

/** The stored kinds of the group version, for the catalogue (Scale is only a subresource body). */
export const autoscalingV1Kinds: readonly KindDefinition[] = [horizontalPodAutoscalerV1];
