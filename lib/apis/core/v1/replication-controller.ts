/**
 * core/v1 ReplicationController: the original replica controller, selecting its pods with a
 * plain label map. Upstream v1.30 field structure and protobuf numbers. Defaults as
 * `SetDefaults_ReplicationController`: 1 replica; an empty selector, and empty object labels,
 * take the template's labels. Short name `rc`, category `all`, status subresource, field selector
 * `status.replicas`.
 */
import { field, int32, int64, mapOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { conditionList, workloadCondition } from '../../apps/v1/workload-types.js';
import { defineKind } from '../../define.js';
import { fieldValue } from '../../field-selectors.js';
import { objectMeta } from '../../meta/v1/types.js';
import { replicationControllerPrinter } from '../../printers/workloads.js';
import { obj, type Obj } from './obj-access.js';
import { CORE } from './references.js';
import { validateReplicationController, validateReplicationControllerStatusUpdate } from './replication-controller-validation.js';
import { podTemplateSpec } from './workloads.js';

/**
 * The template-label defaults of `SetDefaults_ReplicationController`, on the spec of a
 * ReplicationController object (`root`): the labels fill an empty selector and empty object labels.
 */
function defaultSpec(spec: Obj, root: Obj): void {
  if (root.spec !== spec) return;
  const labels = obj(obj(obj(spec.template)?.metadata)?.labels);
  if (!labels || Object.keys(labels).length === 0) return;
  if (Object.keys(obj(spec.selector) ?? {}).length === 0) spec.selector = { ...labels };
  const meta = (root.metadata ??= {}) as Obj;
  if (Object.keys(obj(meta.labels) ?? {}).length === 0) meta.labels = { ...labels };
}

/** The desired state of a ReplicationController. */
export const replicationControllerSpec = struct(
  `${CORE}.ReplicationControllerSpec`,
  {
    replicas: field(1, int32, { default: 1, description: 'Desired number of pods.' }),
    minReadySeconds: field(4, int32),
    selector: field(2, mapOf(string, { mapType: 'atomic' }), { description: 'Labels the pods must carry; defaults to the template labels.' }),
    template: field(3, podTemplateSpec, { description: 'The pods created when replicas are missing.' }),
  },
  { description: 'The desired behaviour of a ReplicationController.', defaulter: defaultSpec },
);

/** A condition of a ReplicationController (ReplicaFailure). */
export const replicationControllerCondition = workloadCondition(`${CORE}.ReplicationControllerCondition`, 'The state of a ReplicationController at a certain point.');

/** The observed state of a ReplicationController. */
export const replicationControllerStatus = struct(
  `${CORE}.ReplicationControllerStatus`,
  {
    replicas: field(1, int32, { omitEmpty: false }),
    fullyLabeledReplicas: field(2, int32),
    readyReplicas: field(4, int32),
    availableReplicas: field(5, int32),
    observedGeneration: field(3, int64),
    conditions: field(6, conditionList(replicationControllerCondition)),
  },
  { description: 'The most recently observed status of a ReplicationController.' },
);

/** The core/v1 ReplicationController kind (`rc`, category `all`, with a status subresource). */
export const replicationController = defineKind({
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
  resource: 'replicationcontrollers',
  singular: 'replicationcontroller',
  namespaced: true,
  shortNames: ['rc'],
  categories: ['all'],
  statusSubresource: true,
  nameRule: 'dns1123Subdomain',
  description: 'Keeps a given number of pods, selected by a label map, running from a template.',
  fieldSelectors: { 'status.replicas': (o) => fieldValue(o, 'status.replicas') || '0' },
  printerColumns: replicationControllerPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, replicationControllerSpec, { omitEmpty: false }),
    status: field(3, replicationControllerStatus, { omitEmpty: false }),
  },
  validate: validateReplicationController,
  validateStatusUpdate: validateReplicationControllerStatusUpdate,
});
