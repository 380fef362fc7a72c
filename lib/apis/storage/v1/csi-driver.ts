/**
 * storage/v1 CSIDriver: how the cluster treats a CSI volume driver (upstream v1.30 field structure
 * and protobuf numbers; `nodeAllocatableUpdatePeriodSeconds` and `serviceAccountTokenInSecrets`
 * came after 1.30). Defaults as `SetDefaults_CSIDriver` with SELinuxMountReadWriteOncePod on (beta
 * in 1.30): attach required, no pod info on mount, no storage capacity, fsGroup policy
 * `ReadWriteOnceWithFSType`, lifecycle modes `[Persistent]`, no republish, no SELinux mount.
 */
import { boolean, field, int64, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { defineKind, type Obj } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { csiDriverPrinter } from '../../printers/storage.js';
import { validateCSIDriver, validateCSIDriverUpdate } from './csi-driver-validation.js';
import { STORAGE, STORAGE_GROUP } from './group.js';

/** A service-account token the driver needs for the pods it mounts volumes for. */
export const tokenRequest = struct(`${STORAGE}.TokenRequest`, {
  // Not `required` although upstream's OpenAPI lists it: one token may have the empty audience.
  audience: field(1, string, { omitEmpty: false, description: 'Intended audience of the token; empty: the server\'s audiences.' }),
  expirationSeconds: field(2, int64, { description: 'Validity of the token, in seconds.' }),
});

/** `SetDefaults_CSIDriver` for the list field: no lifecycle mode means `Persistent`. */
function defaultModes(spec: Obj): void {
  if (!Array.isArray(spec.volumeLifecycleModes) || spec.volumeLifecycleModes.length === 0) spec.volumeLifecycleModes = ['Persistent'];
}

/** The specification of a CSIDriver. */
export const csiDriverSpec = struct(
  `${STORAGE}.CSIDriverSpec`,
  {
    attachRequired: field(1, boolean, { default: true, description: 'The driver needs an attach operation (immutable).' }),
    podInfoOnMount: field(2, boolean, { default: false, description: 'The driver needs pod information on mount.' }),
    volumeLifecycleModes: field(3, listOf(string, { listType: 'set' }), { description: 'Persistent and/or Ephemeral (immutable).' }),
    storageCapacity: field(4, boolean, { default: false, description: 'Scheduling considers the capacity the driver reports.' }),
    fsGroupPolicy: field(5, string, { default: 'ReadWriteOnceWithFSType', description: 'ReadWriteOnceWithFSType, File or None.' }),
    tokenRequests: field(6, listOf(tokenRequest, { listType: 'atomic' })),
    requiresRepublish: field(7, boolean, { default: false }),
    seLinuxMount: field(8, boolean, { default: false }),
  },
  { defaulter: defaultModes, description: 'The specification of a CSI driver.' },
);

/** The CSIDriver kind. */
export const csiDriver = defineKind({
  group: STORAGE_GROUP,
  version: 'v1',
  kind: 'CSIDriver',
  resource: 'csidrivers',
  singular: 'csidriver',
  namespaced: false,
  description: 'A CSI volume driver deployed on the cluster, named as the driver reports itself.',
  printerColumns: csiDriverPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, csiDriverSpec, { required: true, omitEmpty: false }),
  },
  validate: validateCSIDriver,
  validateUpdate: validateCSIDriverUpdate,
});
