/** The kinds of `policy/v1` (issue #12 item 1): PodDisruptionBudget, and Eviction, the body of `pods/eviction`. */
import type { KindDefinition } from '../../define.js';
import { eviction } from './eviction.js';
import { podDisruptionBudget } from './pod-disruption-budget.js';

export { eviction, podDisruptionBudget };
export { POLICY_GROUP, podDisruptionBudgetSpec, podDisruptionBudgetStatus } from './pod-disruption-budget.js';
export { UNHEALTHY_POD_EVICTION_POLICIES, validatePodDisruptionBudget, validatePodDisruptionBudgetStatusUpdate } from './pod-disruption-budget-validation.js';

/** The served kinds of the group version, for the catalogue. */
export const policyV1Kinds: readonly KindDefinition[] = [podDisruptionBudget];
