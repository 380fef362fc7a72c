/**
 * core/v1 PersistentVolumeClaim: a user's request for storage, bound to a PersistentVolume.
 * Upstream v1.30 field structure and protobuf numbers (core/v1 `types.go`).
 * Defaults as `SetDefaults_PersistentVolumeClaim(Spec)`: volume mode `Filesystem` (declared on
 * the shared spec struct of volume.ts), status phase `Pending`. Short name `pvc`, no category,
 * status subresource; no field selectors beyond name and namespace.
 */
import { field, listOf, mapOf, quantity, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { persistentVolumeClaimPrinter } from '../../printers/storage-core.js';
import {
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimStatusUpdate,
  validatePersistentVolumeClaimUpdate,
} from './persistent-volume-claim-validation.js';
import { CORE } from './references.js';
import { persistentVolumeClaimSpec } from './volume.js';

export { persistentVolumeClaimSpec, persistentVolumeClaimTemplate } from './volume.js';

/** A condition of a claim (Resizing, FileSystemResizePending, ModifyVolumeError, ModifyingVolume). */
export const persistentVolumeClaimCondition = struct(`${CORE}.PersistentVolumeClaimCondition`, {
  type: field(1, string, { required: true, omitEmpty: false }),
  status: field(2, string, { required: true, omitEmpty: false }),
  lastProbeTime: field(3, time),
  lastTransitionTime: field(4, time),
  reason: field(5, string),
  message: field(6, string),
});

/** The state of a ControllerModifyVolume operation (VolumeAttributesClass). */
export const modifyVolumeStatus = struct(`${CORE}.ModifyVolumeStatus`, {
  targetVolumeAttributesClassName: field(1, string),
  status: field(2, string, { required: true, omitEmpty: false, description: 'Pending, InProgress or Infeasible.' }),
});

/** The observed state of a claim; `phase` defaults to `Pending`. */
export const persistentVolumeClaimStatus = struct(
  `${CORE}.PersistentVolumeClaimStatus`,
  {
    phase: field(1, string, { default: 'Pending', description: 'Pending, Bound or Lost.' }),
    accessModes: field(2, listOf(string, { listType: 'atomic' })),
    capacity: field(3, mapOf(quantity)),
    conditions: field(4, listOf(persistentVolumeClaimCondition, { listType: 'map', listMapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' })),
    allocatedResources: field(5, mapOf(quantity)),
    allocatedResourceStatuses: field(7, mapOf(string, { mapType: 'granular' })),
    currentVolumeAttributesClassName: field(8, string, { pointer: true }),
    modifyVolumeStatus: field(9, modifyVolumeStatus),
  },
  { description: 'The current information and status of a persistent volume claim.' },
);

/** The PersistentVolumeClaim kind (`pvc`, with a status subresource). */
export const persistentVolumeClaim = defineKind({
  group: '',
  version: 'v1',
  kind: 'PersistentVolumeClaim',
  resource: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  namespaced: true,
  shortNames: ['pvc'],
  statusSubresource: true,
  description: "A user's request for and claim to a persistent volume.",
  printerColumns: persistentVolumeClaimPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, persistentVolumeClaimSpec, { omitEmpty: false }),
    status: field(3, persistentVolumeClaimStatus, { default: {}, omitEmpty: false }),
  },
  validate: validatePersistentVolumeClaim,
  validateUpdate: validatePersistentVolumeClaimUpdate,
  validateStatusUpdate: validatePersistentVolumeClaimStatusUpdate,
});
