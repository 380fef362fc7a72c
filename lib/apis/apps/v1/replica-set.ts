/**
 * apps/v1 ReplicaSet: keeps a number of pods from a template running (what a Deployment rolls
 * out). Declared once here with the upstream v1.30 field structure and protobuf numbers. Defaults
 * as `SetDefaults_ReplicaSet`: 1 replica. Short name `rs`, category `all`, status subresource,
 * field selector `status.replicas`.
 */
import { field, int32, int64, struct } from '../../../apimachinery/schema/builder.js';
import { podTemplateSpec } from '../../core/v1/workloads.js';
import { defineKind } from '../../define.js';
import { fieldValue } from '../../field-selectors.js';
import { labelSelector, objectMeta } from '../../meta/v1/types.js';
import { replicaSetPrinter } from '../../printers/workloads.js';
import { validateReplicaSet, validateReplicaSetStatusUpdate, validateReplicaSetUpdate } from './replica-set-validation.js';
import { APPS, conditionList, workloadCondition } from './workload-types.js';

/** The desired state of a ReplicaSet. */
export const replicaSetSpec = struct(
  `${APPS}.ReplicaSetSpec`,
  {
    replicas: field(1, int32, { default: 1, description: 'Desired number of pods.' }),
    minReadySeconds: field(4, int32),
    selector: field(2, labelSelector, { required: true, omitEmpty: false, pointer: true, description: 'Selects the pods counted as replicas; must match the template labels.' }),
    template: field(3, podTemplateSpec, { omitEmpty: false, description: 'The pods created when replicas are missing.' }),
  },
  { description: 'The desired behaviour of a ReplicaSet.' },
);

/** A condition of a ReplicaSet (ReplicaFailure). */
export const replicaSetCondition = workloadCondition(`${APPS}.ReplicaSetCondition`, 'The state of a ReplicaSet at a certain point.');

/** The observed state of a ReplicaSet. */
export const replicaSetStatus = struct(
  `${APPS}.ReplicaSetStatus`,
  {
    replicas: field(1, int32, { omitEmpty: false }),
    fullyLabeledReplicas: field(2, int32),
    readyReplicas: field(4, int32),
    availableReplicas: field(5, int32),
    observedGeneration: field(3, int64),
    conditions: field(6, conditionList(replicaSetCondition)),
  },
  { description: 'The most recently observed status of a ReplicaSet.' },
);

/** The apps/v1 ReplicaSet kind (`rs`, category `all`, with a status subresource). */
export const replicaSet = defineKind({
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  resource: 'replicasets',
  singular: 'replicaset',
  namespaced: true,
  shortNames: ['rs'],
  categories: ['all'],
  statusSubresource: true,
  nameRule: 'dns1123Subdomain',
  description: 'Keeps a given number of pods from a template running.',
  fieldSelectors: { 'status.replicas': (o) => fieldValue(o, 'status.replicas') || '0' },
  printerColumns: replicaSetPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, replicaSetSpec, { omitEmpty: false }),
    status: field(3, replicaSetStatus, { omitEmpty: false }),
  },
  validate: validateReplicaSet,
  validateUpdate: validateReplicaSetUpdate,
  validateStatusUpdate: validateReplicaSetStatusUpdate,
});
