/**
 * storage/v1 StorageClass: a class of dynamically provisioned volumes (upstream v1.30 field
 * structure and protobuf numbers). Defaults as `SetDefaults_StorageClass`: reclaim policy
 * `Delete`, binding mode `Immediate`. Cluster-scoped, short name `sc`. spec 000 § Resources.
 */
import { boolean, field, listOf, mapOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { CORE } from '../../core/v1/references.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { storageClassPrinter } from '../../printers/storage.js';
import { STORAGE_GROUP } from './group.js';
import { validateStorageClass, validateStorageClassUpdate } from './storage-class-validation.js';

/** A topology label and the values any of which matches. */
export const topologySelectorLabelRequirement = struct(`${CORE}.TopologySelectorLabelRequirement`, {
  key: field(1, string, { required: true, omitEmpty: false }),
  values: field(2, listOf(string, { listType: 'atomic' }), { required: true, omitEmpty: false }),
});

/** A conjunction of topology label requirements; atomic. */
export const topologySelectorTerm = struct(
  `${CORE}.TopologySelectorTerm`,
  { matchLabelExpressions: field(1, listOf(topologySelectorLabelRequirement, { listType: 'atomic' })) },
  { mapType: 'atomic', description: 'Topology label requirements, all of which must hold.' },
);

/** The StorageClass kind (`sc`). */
export const storageClass = defineKind({
  group: STORAGE_GROUP,
  version: 'v1',
  kind: 'StorageClass',
  resource: 'storageclasses',
  singular: 'storageclass',
  namespaced: false,
  shortNames: ['sc'],
  description: 'The parameters of a class of storage for which volumes can be provisioned dynamically.',
  printerColumns: storageClassPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    provisioner: field(2, string, { required: true, omitEmpty: false, description: 'The provisioner of volumes of this class.' }),
    parameters: field(3, mapOf(string), { description: 'Parameters for the provisioner.' }),
    reclaimPolicy: field(4, string, { default: 'Delete', description: 'Reclaim policy of provisioned volumes: Delete or Retain.' }),
    mountOptions: field(5, listOf(string, { listType: 'atomic' })),
    allowVolumeExpansion: field(6, boolean),
    volumeBindingMode: field(7, string, { default: 'Immediate', description: 'Immediate or WaitForFirstConsumer.' }),
    allowedTopologies: field(8, listOf(topologySelectorTerm, { listType: 'atomic' })),
  },
  validate: validateStorageClass,
  validateUpdate: validateStorageClassUpdate,
});
