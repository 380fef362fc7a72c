/**
 * apps/v1 StatefulSet: pods with stable identities (ordinal names, per-pod claims from
 * `volumeClaimTemplates`). Declared once here with the upstream v1.30 field structure and protobuf
 * numbers. Defaults as `SetDefaults_StatefulSet` (StatefulSetAutoDeletePVC on, as in v1.30): 1
 * replica, `OrderedReady` pod management, a RollingUpdate strategy with partition 0, claims
 * retained when deleted and when scaled, history limit 10; each claim template gets the
 * PersistentVolumeClaim defaults and, as upstream writes it, its own apiVersion and kind. Short name `sts`, category `all`, status subresource.
 */
import { field, int32, int64, intOrString, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { persistentVolumeClaim } from '../../core/v1/persistent-volume-claim.js';
import { podTemplateSpec } from '../../core/v1/workloads.js';
import { defineKind, type Obj } from '../../define.js';
import { labelSelector, objectMeta } from '../../meta/v1/types.js';
import { statefulSetPrinter } from '../../printers/workloads.js';
import { validateStatefulSet, validateStatefulSetStatusUpdate, validateStatefulSetUpdate } from './stateful-set-validation.js';
import { APPS, conditionList, workloadCondition } from './workload-types.js';

/** Where a rolling update stops (`partition`) and how many pods it may take down at once. */
export const rollingUpdateStatefulSetStrategy = struct(`${APPS}.RollingUpdateStatefulSetStrategy`, {
  partition: field(1, int32, { description: 'Ordinal at and above which pods are updated.' }),
  maxUnavailable: field(2, intOrString, { description: 'Pods that may be unavailable during the update (alpha MaxUnavailableStatefulSet; dropped while the gate is off).' }),
});

/** `SetDefaults_StatefulSet`: no type means RollingUpdate with a rollingUpdate; a rolling update's partition is 0. */
function defaultUpdateStrategy(s: Obj): void {
  if (!s.type) {
    s.type = 'RollingUpdate';
    s.rollingUpdate ??= {};
  }
  const ru = s.rollingUpdate;
  if (s.type === 'RollingUpdate' && ru !== null && typeof ru === 'object') (ru as Obj).partition ??= 0;
}

/** How pods are replaced when the template changes: `RollingUpdate` or `OnDelete`. */
export const statefulSetUpdateStrategy = struct(
  `${APPS}.StatefulSetUpdateStrategy`,
  {
    type: field(1, string, { description: 'RollingUpdate or OnDelete.' }),
    rollingUpdate: field(2, rollingUpdateStatefulSetStrategy),
  },
  { defaulter: defaultUpdateStrategy },
);

/** `SetDefaults_StatefulSet`: claims are retained (`Retain`) unless told otherwise. */
function defaultRetentionPolicy(p: Obj): void {
  if (!p.whenDeleted) p.whenDeleted = 'Retain';
  if (!p.whenScaled) p.whenScaled = 'Retain';
}

/** What happens to the claims of `volumeClaimTemplates` when the set is deleted or scaled down. */
export const statefulSetPersistentVolumeClaimRetentionPolicy = struct(
  `${APPS}.StatefulSetPersistentVolumeClaimRetentionPolicy`,
  {
    whenDeleted: field(1, string, { description: 'Retain or Delete the claims when the StatefulSet is deleted.' }),
    whenScaled: field(2, string, { description: 'Retain or Delete the claims of pods removed by a scale-down.' }),
  },
  { defaulter: defaultRetentionPolicy },
);

/** The numbering of replicas: the first ordinal. */
export const statefulSetOrdinals = struct(`${APPS}.StatefulSetOrdinals`, {
  start: field(1, int32, { omitEmpty: false, description: 'Ordinal of the first replica (default 0).' }),
});

/**
 * `SetDefaults_StatefulSet`: an empty pod management policy is OrderedReady. And, as upstream's
 * apps/v1 conversion does (issue 87583), every claim template carries `apiVersion: v1` and
 * `kind: PersistentVolumeClaim`, whatever the client sent.
 */
function defaultSpec(s: Obj): void {
  if (!s.podManagementPolicy) s.podManagementPolicy = 'OrderedReady';
  if (!Array.isArray(s.volumeClaimTemplates)) return;
  for (const claim of s.volumeClaimTemplates as unknown[]) {
    if (claim === null || typeof claim !== 'object' || Array.isArray(claim)) continue;
    Object.assign(claim, { apiVersion: 'v1', kind: 'PersistentVolumeClaim' });
  }
}

/** The desired state of a StatefulSet. */
export const statefulSetSpec = struct(
  `${APPS}.StatefulSetSpec`,
  {
    replicas: field(1, int32, { default: 1, description: 'Desired number of pods.' }),
    selector: field(2, labelSelector, { required: true, omitEmpty: false, pointer: true, description: 'Selects the pods of the set; must match the template labels.' }),
    template: field(3, podTemplateSpec, { required: true, omitEmpty: false, description: 'The pods to create, each with its own identity.' }),
    volumeClaimTemplates: field(4, listOf(persistentVolumeClaim.schema, { listType: 'atomic' }), { description: 'Claims each pod gets, matched by name to its volume mounts.' }),
    serviceName: field(5, string, { omitEmpty: false, description: 'The service that governs the network identity of the pods.' }),
    podManagementPolicy: field(6, string, { description: 'OrderedReady or Parallel.' }),
    updateStrategy: field(7, statefulSetUpdateStrategy, { default: {}, omitEmpty: false }),
    revisionHistoryLimit: field(8, int32, { default: 10 }),
    minReadySeconds: field(9, int32),
    persistentVolumeClaimRetentionPolicy: field(10, statefulSetPersistentVolumeClaimRetentionPolicy, { default: {} }),
    ordinals: field(11, statefulSetOrdinals),
  },
  { description: 'The desired behaviour of a StatefulSet.', defaulter: defaultSpec },
);

/** A condition of a StatefulSet. */
export const statefulSetCondition = workloadCondition(`${APPS}.StatefulSetCondition`, 'The state of a StatefulSet at a certain point.');

/** The observed state of a StatefulSet. */
export const statefulSetStatus = struct(
  `${APPS}.StatefulSetStatus`,
  {
    observedGeneration: field(1, int64),
    replicas: field(2, int32, { omitEmpty: false }),
    readyReplicas: field(3, int32),
    currentReplicas: field(4, int32),
    updatedReplicas: field(5, int32),
    currentRevision: field(6, string),
    updateRevision: field(7, string),
    collisionCount: field(9, int32),
    conditions: field(10, conditionList(statefulSetCondition)),
    availableReplicas: field(11, int32, { omitEmpty: false }),
  },
  { description: 'The most recently observed status of a StatefulSet.' },
);

/** The apps/v1 StatefulSet kind (`sts`, category `all`, with a status subresource). */
export const statefulSet = defineKind({
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  resource: 'statefulsets',
  singular: 'statefulset',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  statusSubresource: true,
  nameRule: 'dns1123Subdomain',
  description: 'A set of pods with stable network identities and storage.',
  printerColumns: statefulSetPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, statefulSetSpec, { omitEmpty: false }),
    status: field(3, statefulSetStatus, { omitEmpty: false }),
  },
  validate: validateStatefulSet,
  validateUpdate: validateStatefulSetUpdate,
  validateStatusUpdate: validateStatefulSetStatusUpdate,
});
