/**
 * storage/v1 CSIStorageCapacity: the capacity a CSI driver reports for one storage class in one
 * topology segment (upstream v1.30 field structure and protobuf numbers). Namespaced; the
 * topology and class are immutable.
 */
import { field, quantity, string } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { labelSelector, objectMeta } from '../../meta/v1/types.js';
import { csiStorageCapacityPrinter } from '../../printers/storage.js';
import { validateCSIStorageCapacity, validateCSIStorageCapacityUpdate } from './csi-storage-capacity-validation.js';
import { STORAGE_GROUP } from './group.js';

/** The CSIStorageCapacity kind. */
export const csiStorageCapacity = defineKind({
  group: STORAGE_GROUP,
  version: 'v1',
  kind: 'CSIStorageCapacity',
  resource: 'csistoragecapacities',
  singular: 'csistoragecapacity',
  namespaced: true,
  description: 'The result of one CSI GetCapacity call: capacity of a storage class in a topology segment.',
  printerColumns: csiStorageCapacityPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    nodeTopology: field(2, labelSelector, { description: 'The nodes with access to the storage (immutable).' }),
    storageClassName: field(3, string, { required: true, omitEmpty: false, description: 'The StorageClass the capacity is for (immutable).' }),
    capacity: field(4, quantity, { description: 'Available capacity.' }),
    maximumVolumeSize: field(5, quantity, { description: 'Largest volume that can be created.' }),
  },
  validate: validateCSIStorageCapacity,
  validateUpdate: validateCSIStorageCapacityUpdate,
});
