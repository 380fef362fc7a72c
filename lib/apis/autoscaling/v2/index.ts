/** The kinds of autoscaling/v2 (issue #12 item 1). */
import type { KindDefinition } from '../../define.js';
import { horizontalPodAutoscaler } from './horizontal-pod-autoscaler.js';

export { horizontalPodAutoscaler } from './horizontal-pod-autoscaler.js';
export * from './types.js';
export * from './validation.js';

/** Every kind of the group version, for the catalogue. */
export const autoscalingV2Kinds: readonly KindDefinition[] = [horizontalPodAutoscaler];
