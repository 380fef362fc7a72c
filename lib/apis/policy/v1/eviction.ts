/**
 * policy/v1 Eviction: the body of `POST …/pods/<name>/eviction`, which deletes the pod unless a
 * PodDisruptionBudget forbids it (lib/registry/core/pod/eviction.ts). Not a resource of its own:
 * `resource`, `singular` and `namespaced` name what it would be. Upstream v1.30 field structure and
 * protobuf numbers.
 */
import { field } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { deleteOptions, objectMeta } from '../../meta/v1/types.js';
import { POLICY_GROUP } from './pod-disruption-budget.js';

/** Eviction: which pod to evict (metadata name and namespace) and how to delete it. */
export const eviction = defineKind({
  group: POLICY_GROUP,
  version: 'v1',
  kind: 'Eviction',
  resource: 'evictions',
  singular: 'eviction',
  namespaced: true,
  description: 'A request to evict a pod: a delete that respects the disruption budgets selecting it.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    deleteOptions: field(2, deleteOptions, { description: 'How the pod is deleted (grace period, preconditions, dry run).' }),
  },
});
