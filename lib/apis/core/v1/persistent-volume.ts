/**
 * core/v1 PersistentVolume: a piece of cluster storage, cluster-scoped, bound to at most one
 * claim. Upstream v1.30 field structure and protobuf numbers (the volume source is inlined at
 * field 2 of the spec). Defaults as `SetDefaults_PersistentVolume`: reclaim policy `Retain`,
 * volume mode `Filesystem`, status phase `Pending`. Short name `pv`, no category, status
 * subresource; no field selectors beyond `metadata.name`.
 */
import { enumOf, field, listOf, mapOf, quantity, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { persistentVolumePrinter } from '../../printers/storage-core.js';
import { nodeSelector } from './affinity.js';
import { persistentVolumeSource } from './persistent-volume-sources.js';
import { validatePersistentVolume, validatePersistentVolumeUpdate } from './persistent-volume-validation.js';
import { CORE, inlined, objectReference } from './references.js';

/** The nodes a volume can be reached from. */
export const volumeNodeAffinity = struct(`${CORE}.VolumeNodeAffinity`, {
  required: field(1, nodeSelector),
});

/** What the volume offers and to whom it is bound. */
export const persistentVolumeSpec = struct(
  `${CORE}.PersistentVolumeSpec`,
  {
    capacity: field(1, mapOf(quantity), { description: 'The resources of the volume; only `storage`.' }),
    ...inlined(2, persistentVolumeSource),
    accessModes: field(3, listOf(string, { listType: 'atomic' })),
    claimRef: field(4, objectReference, { description: 'The claim bound to this volume.' }),
    persistentVolumeReclaimPolicy: field(5, enumOf('Delete', 'Recycle', 'Retain'), { default: 'Retain' }),
    storageClassName: field(6, string),
    mountOptions: field(7, listOf(string, { listType: 'atomic' })),
    volumeMode: field(8, enumOf('Block', 'Filesystem'), { default: 'Filesystem' }),
    nodeAffinity: field(9, volumeNodeAffinity),
    volumeAttributesClassName: field(10, string, { pointer: true }),
  },
  { description: 'The specification of a persistent volume.' },
);

/** The observed state of a volume; `phase` defaults to `Pending`. */
export const persistentVolumeStatus = struct(
  `${CORE}.PersistentVolumeStatus`,
  {
    phase: field(1, string, { default: 'Pending', description: 'Pending, Available, Bound, Released or Failed.' }),
    message: field(2, string),
    reason: field(3, string),
    lastPhaseTransitionTime: field(4, time),
  },
  { description: 'The current status of a persistent volume.' },
);

/** The PersistentVolume kind (`pv`, cluster-scoped, with a status subresource). */
export const persistentVolume = defineKind({
  group: '',
  version: 'v1',
  kind: 'PersistentVolume',
  resource: 'persistentvolumes',
  singular: 'persistentvolume',
  namespaced: false,
  shortNames: ['pv'],
  statusSubresource: true,
  description: 'A storage resource provisioned by an administrator, bound to at most one claim.',
  printerColumns: persistentVolumePrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, persistentVolumeSpec, { omitEmpty: false }),
    status: field(3, persistentVolumeStatus, { default: {}, omitEmpty: false }),
  },
  validate: validatePersistentVolume,
  validateUpdate: validatePersistentVolumeUpdate,
});
