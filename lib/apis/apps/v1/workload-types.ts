/**
 * Pieces shared by the structures of the apps/v1 workload kinds (and core/v1
 * ReplicationController): the definition-id prefix of apps/v1 and the condition struct every
 * controller status carries (upstream `<Kind>Condition`: type, status, lastTransitionTime, reason,
 * message; protobuf 1–5), listed as a map keyed by `type`.
 */
import { field, listOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import type { ListSchema, StructSchema } from '../../../apimachinery/schema/types.js';

/** Definition id prefix of apps/v1 structs. */
export const APPS = 'api.apps.v1';

/**
 * A controller condition struct named `id` (e.g. `api.apps.v1.StatefulSetCondition`): `type` and
 * `status` always written and required, the transition time written as `null` when unset (a
 * non-pointer metav1.Time).
 */
export function workloadCondition(id: string, description: string): StructSchema {
  return struct(
    id,
    {
      type: field(1, string, { required: true, omitEmpty: false, description: 'Type of the condition.' }),
      status: field(2, string, { required: true, omitEmpty: false, description: 'True, False or Unknown.' }),
      lastTransitionTime: field(3, time, { omitEmpty: false, description: 'Last time the condition changed status.' }),
      reason: field(4, string, { description: 'Machine-readable reason of the last transition.' }),
      message: field(5, string, { description: 'Human-readable details of the last transition.' }),
    },
    { description },
  );
}

/** `conditions` of a controller status: a list map keyed by `type` (`+listType=map`, strategic merge on `type`). */
export function conditionList(condition: StructSchema): ListSchema {
  return listOf(condition, { listType: 'map', listMapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' });
}
