/**
 * storage/v1 CSINode: the CSI drivers installed on a node, named as the node (upstream v1.30
 * field structure and protobuf numbers). Cluster-scoped; `spec.drivers` merges by `name`.
 */
import { field, int32, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { csiNodePrinter } from '../../printers/storage.js';
import { validateCSINode, validateCSINodeUpdate } from './csi-node-validation.js';
import { STORAGE, STORAGE_GROUP } from './group.js';

/** Volume limits of a driver on a node. */
export const volumeNodeResources = struct(`${STORAGE}.VolumeNodeResources`, {
  count: field(1, int32, { description: 'Most volumes of the driver usable on the node; unbounded when unset.' }),
});

/** One CSI driver on the node. */
export const csiNodeDriver = struct(`${STORAGE}.CSINodeDriver`, {
  name: field(1, string, { required: true, omitEmpty: false, description: 'The driver name, as the driver reports it.' }),
  nodeID: field(2, string, { required: true, omitEmpty: false, description: 'The node as the storage system knows it.' }),
  // `json:"topologyKeys"` without omitempty: written as null when unset.
  topologyKeys: field(3, listOf(string, { listType: 'atomic' }), { omitEmpty: false }),
  allocatable: field(4, volumeNodeResources),
});

/** The CSI drivers of the node. */
export const csiNodeSpec = struct(`${STORAGE}.CSINodeSpec`, {
  drivers: field(1, listOf(csiNodeDriver, { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] }), { omitEmpty: false }),
});

/** The CSINode kind. */
export const csiNode = defineKind({
  group: STORAGE_GROUP,
  version: 'v1',
  kind: 'CSINode',
  resource: 'csinodes',
  singular: 'csinode',
  namespaced: false,
  description: 'The CSI drivers installed on a node; named as the node.',
  printerColumns: csiNodePrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, csiNodeSpec, { required: true, omitEmpty: false }),
  },
  validate: validateCSINode,
  validateUpdate: validateCSINodeUpdate,
});
