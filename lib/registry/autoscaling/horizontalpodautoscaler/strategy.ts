/**
 * HorizontalPodAutoscaler strategy (upstream v1.30
 * `pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go`): status cleared on create and
 * kept on main writes, status writes change only the status; no generation; not created by PUT.
 * Validation is upstream's ValidateHorizontalPodAutoscaler and its update and status variants
 * (lib/apis/autoscaling/v2/validation.ts, ObjectMeta included) in place of the declarative checks,
 * whose `required` markers serve the OpenAPI documents: upstream's own messages say more. The
 * same stores serve autoscaling/v1, whose objects arrive converted to v2.
 */
import type { FieldError } from '../../../apimachinery/field-errors.js';
import {
  horizontalPodAutoscaler,
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerStatusUpdate,
  validateHorizontalPodAutoscalerUpdate,
} from '../../../apis/autoscaling/v2/index.js';
import type { Obj } from '../../../apis/define.js';
import { newKindStrategy, newStatusStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Create, update and delete rules of HorizontalPodAutoscaler. */
export const horizontalPodAutoscalerStrategy: Strategy = newKindStrategy(
  horizontalPodAutoscaler,
  { tracksGeneration: false },
  {
    validate: (_ctx, obj: Obj): FieldError[] => validateHorizontalPodAutoscaler(obj),
    validateUpdate: (_ctx, obj: Obj, old: Obj): FieldError[] => validateHorizontalPodAutoscalerUpdate(obj, old),
  },
);

/** Status writes: only the status changes; the replica counts may not be negative. */
export const horizontalPodAutoscalerStatusStrategy: Strategy = newStatusStrategy(horizontalPodAutoscalerStrategy, {
  validateUpdate: (_ctx, obj: Obj, old: Obj): FieldError[] => validateHorizontalPodAutoscalerStatusUpdate(obj, old),
});
