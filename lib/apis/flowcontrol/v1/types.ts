/**
 * Names and structures shared by the kinds of `flowcontrol.apiserver.<vendor>/v1` (API Priority
 * and Fairness; upstream `k8s.io/api/flowcontrol/v1` of v1.30): the group, the wildcards, the
 * names of the mandatory objects, the condition struct both kinds' statuses carry.
 */
import { field, listOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import type { ListSchema, StructSchema } from '../../../apimachinery/schema/types.js';
import { vendorGroup } from '../../vendor.js';

/** The API group of FlowSchema and PriorityLevelConfiguration. */
export const FLOWCONTROL_GROUP = vendorGroup('flowcontrol.apiserver');

/** Definition id prefix of the group's structs. */
export const FLOWCONTROL = 'api.flowcontrol.v1';

/** The wildcard of verbs, API groups, resources, non-resource URLs, subject names and namespaces. */
export const WILDCARD = '*';

/** Names of the mandatory objects (upstream `PriorityLevelConfigurationNameExempt` etc.). */
export const EXEMPT = 'exempt';
export const CATCH_ALL = 'catch-all';

/** The FlowSchema condition telling that its priority level does not exist (the printer's MissingPL). */
export const FLOW_SCHEMA_CONDITION_DANGLING = 'Dangling';

/** The highest `matchingPrecedence` (the lowest priority); 1 is reserved for `exempt`. */
export const MAX_MATCHING_PRECEDENCE = 10000;

/**
 * A status condition struct named `id` (upstream `FlowSchemaCondition`,
 * `PriorityLevelConfigurationCondition`: every string omitempty, the transition time a
 * non-pointer metav1.Time written as `null` when unset).
 */
export function flowControlCondition(id: string): StructSchema {
  return struct(id, {
    type: field(1, string, { description: 'Type of the condition.' }),
    status: field(2, string, { description: 'True, False or Unknown.' }),
    lastTransitionTime: field(3, time, { omitEmpty: false, description: 'Last time the condition changed status.' }),
    reason: field(4, string, { description: 'One-word CamelCase reason of the last transition.' }),
    message: field(5, string, { description: 'Human-readable details of the last transition.' }),
  });
}

/** `status.conditions`: a list map keyed by `type`, merged on `type` by strategic merge. */
export function conditionList(condition: StructSchema): ListSchema {
  return listOf(condition, { listType: 'map', listMapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' });
}
