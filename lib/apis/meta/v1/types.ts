/**
 * Types of the meta group shared by every kind: ObjectMeta, ListMeta, OwnerReference,
 * ManagedFieldsEntry, LabelSelector, Condition (spec 000 § Type and object metadata,
 * § Managed-field entry). Protobuf numbers follow the upstream `generated.proto`.
 */
import { boolean, enumOf, field, int64, listOf, mapOf, raw, string, struct, time } from '../../../apimachinery/schema/builder.js';

const META = 'apimachinery.pkg.apis.meta.v1';

export const ownerReference = struct(`${META}.OwnerReference`, {
  apiVersion: field(5, string, { required: true, omitEmpty: false }),
  kind: field(1, string, { required: true, omitEmpty: false }),
  name: field(3, string, { required: true, omitEmpty: false }),
  uid: field(4, string, { required: true, omitEmpty: false }),
  controller: field(6, boolean),
  blockOwnerDeletion: field(7, boolean),
}, { mapType: 'atomic' });

export const managedFieldsEntry = struct(`${META}.ManagedFieldsEntry`, {
  manager: field(1, string),
  operation: field(2, string),
  apiVersion: field(3, string),
  time: field(4, time),
  fieldsType: field(6, string),
  fieldsV1: field(7, raw),
  subresource: field(8, string),
});

export const objectMeta = struct(`${META}.ObjectMeta`, {
  name: field(1, string),
  generateName: field(2, string),
  namespace: field(3, string),
  selfLink: field(4, string),
  uid: field(5, string),
  resourceVersion: field(6, string),
  generation: field(7, int64),
  creationTimestamp: field(8, time, { omitEmpty: false }),
  deletionTimestamp: field(9, time),
  deletionGracePeriodSeconds: field(10, int64),
  labels: field(11, mapOf(string)),
  annotations: field(12, mapOf(string)),
  ownerReferences: field(13, listOf(ownerReference, { patchStrategy: 'merge', patchMergeKey: 'uid', listType: 'map', listMapKeys: ['uid'] })),
  finalizers: field(14, listOf(string, { patchStrategy: 'merge', listType: 'set' })),
  managedFields: field(17, listOf(managedFieldsEntry)),
});

export const listMeta = struct(`${META}.ListMeta`, {
  selfLink: field(1, string),
  resourceVersion: field(2, string),
  continue: field(3, string),
  remainingItemCount: field(4, int64),
});

export const labelSelectorRequirement = struct(`${META}.LabelSelectorRequirement`, {
  key: field(1, string, { required: true, omitEmpty: false }),
  operator: field(2, string, { required: true, omitEmpty: false }),
  values: field(3, listOf(string, { listType: 'atomic' })),
});

export const labelSelector = struct(`${META}.LabelSelector`, {
  matchLabels: field(1, mapOf(string)),
  matchExpressions: field(2, listOf(labelSelectorRequirement, { listType: 'atomic' })),
}, { mapType: 'atomic' });

export const condition = struct(`${META}.Condition`, {
  type: field(1, string, { required: true, omitEmpty: false }),
  status: field(2, enumOf('True', 'False', 'Unknown'), { required: true, omitEmpty: false }),
  observedGeneration: field(3, int64),
  lastTransitionTime: field(4, time, { required: true, omitEmpty: false }),
  reason: field(5, string, { required: true, omitEmpty: false }),
  message: field(6, string, { required: true, omitEmpty: false }),
});

export const preconditions = struct(`${META}.Preconditions`, {
  uid: field(1, string),
  resourceVersion: field(2, string),
});

/** The body of a delete (DeleteOptions). */
export const deleteOptions = struct(`${META}.DeleteOptions`, {
  apiVersion: field(0, string),
  kind: field(0, string),
  gracePeriodSeconds: field(1, int64),
  preconditions: field(2, preconditions),
  orphanDependents: field(3, boolean),
  propagationPolicy: field(4, string),
  dryRun: field(5, listOf(string, { listType: 'atomic' })),
});
