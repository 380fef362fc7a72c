/**
 * PodDisruptionBudget strategy (upstream `pkg/registry/policy/poddisruptionbudget/strategy.go`):
 * status cleared on create and kept on main writes, generation 1 on create and bumped when the
 * spec changes; the spec stays mutable; status writes change only the status. Not created by PUT.
 */
import type { FieldError } from '../../../apimachinery/field-errors.js';
import { podDisruptionBudget } from '../../../apis/policy/v1/index.js';
import { newKindStrategy, newStatusStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Create, update and delete rules of PodDisruptionBudget. */
export const podDisruptionBudgetStrategy: Strategy = newKindStrategy(podDisruptionBudget);

const statusBase = newStatusStrategy(podDisruptionBudgetStrategy);
const EMPTY_CONDITION_MESSAGE = /^status\.conditions\[\d+\]\.message$/;

/**
 * Status writes: the derived status strategy, except that a condition may have an empty message —
 * upstream's native ValidateConditions allows it (the disruption controller and the eviction
 * subresource write the DisruptionAllowed condition without one), while the shared Condition
 * schema lists `message` as required for OpenAPI.
 */
export const podDisruptionBudgetStatusStrategy: Strategy = newStatusStrategy(podDisruptionBudgetStrategy, {
  validateUpdate: (ctx, obj, old): FieldError[] =>
    statusBase.validateUpdate(ctx, obj, old).filter((e) => !(e.type === 'Required' && EMPTY_CONDITION_MESSAGE.test(e.field))),
});
