/**
 * core/v1 PersistentVolumeSource: where a PersistentVolume's storage lives, exactly one member
 * set. Shares the in-tree plugin structs of volume.ts / volume-plugins.ts where upstream does
 * (GCE PD, AWS EBS, hostPath, NFS, FC, Flocker, vSphere, Quobyte, Azure disk, Photon, Portworx)
 * and declares the PV-only variants, which reference secrets across namespaces
 * (`SecretReference`), plus `local` and the CSI persistent source. Numbers and `+default` values
 * as upstream v1.30 (`SetDefaults_ISCSIPersistentVolumeSource`, `..._RBDPersistentVolumeSource`,
 * `..._ScaleIOPersistentVolumeSource`).
 */
import { boolean, field, int32, listOf, mapOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { structFields } from '../../../apimachinery/schema/types.js';
import { CORE, objectReference } from './references.js';
import { hostPathVolumeSource } from './volume.js';
import * as plugin from './volume-plugins.js';

const req = { required: true, omitEmpty: false } as const;

/** A Secret by name and namespace (PV sources live outside any namespace); atomic. */
export const secretReference = struct(
  `${CORE}.SecretReference`,
  {
    name: field(1, string),
    namespace: field(2, string),
  },
  { mapType: 'atomic', description: 'A reference to a Secret in any namespace.' },
);

/** A Glusterfs volume; its endpoints may live in another namespace. */
export const glusterfsPersistentVolumeSource = struct(`${CORE}.GlusterfsPersistentVolumeSource`, {
  endpoints: field(1, string, req),
  path: field(2, string, req),
  readOnly: field(3, boolean),
  endpointsNamespace: field(4, string, { pointer: true }),
});

/** A Ceph RBD image (pool `rbd`, user `admin`, keyring `/etc/ceph/keyring` by default). */
export const rbdPersistentVolumeSource = struct(`${CORE}.RBDPersistentVolumeSource`, {
  monitors: field(1, listOf(string, { listType: 'atomic' }), req),
  image: field(2, string, req),
  fsType: field(3, string),
  pool: field(4, string, { default: 'rbd' }),
  user: field(5, string, { default: 'admin' }),
  keyring: field(6, string, { default: '/etc/ceph/keyring' }),
  secretRef: field(7, secretReference),
  readOnly: field(8, boolean),
});

/** An iSCSI disk (interface `default` by default). */
export const iscsiPersistentVolumeSource = struct(`${CORE}.ISCSIPersistentVolumeSource`, {
  targetPortal: field(1, string, req),
  iqn: field(2, string, req),
  lun: field(3, int32, { omitEmpty: false }),
  iscsiInterface: field(4, string, { default: 'default' }),
  fsType: field(5, string),
  readOnly: field(6, boolean),
  portals: field(7, listOf(string, { listType: 'atomic' })),
  chapAuthDiscovery: field(8, boolean),
  chapAuthSession: field(11, boolean),
  secretRef: field(10, secretReference),
  initiatorName: field(12, string, { pointer: true }),
});

/** An OpenStack Cinder volume. */
export const cinderPersistentVolumeSource = struct(`${CORE}.CinderPersistentVolumeSource`, {
  volumeID: field(1, string, req),
  fsType: field(2, string),
  readOnly: field(3, boolean),
  secretRef: field(4, secretReference),
});

/** A CephFS mount. */
export const cephFSPersistentVolumeSource = struct(`${CORE}.CephFSPersistentVolumeSource`, {
  monitors: field(1, listOf(string, { listType: 'atomic' }), req),
  path: field(2, string),
  user: field(3, string),
  secretFile: field(4, string),
  secretRef: field(5, secretReference),
  readOnly: field(6, boolean),
});

/** A volume of an exec-based FlexVolume driver. */
export const flexPersistentVolumeSource = struct(`${CORE}.FlexPersistentVolumeSource`, {
  driver: field(1, string, req),
  fsType: field(2, string),
  secretRef: field(3, secretReference),
  readOnly: field(4, boolean),
  options: field(5, mapOf(string)),
});

/** An Azure File share; `secretNamespace` has no `omitempty` upstream (written as null). */
export const azureFilePersistentVolumeSource = struct(`${CORE}.AzureFilePersistentVolumeSource`, {
  secretName: field(1, string, req),
  shareName: field(2, string, req),
  readOnly: field(3, boolean),
  secretNamespace: field(4, string, { omitEmpty: false, pointer: true }),
});

/** A ScaleIO volume (ThinProvisioned, xfs by default). */
export const scaleIOPersistentVolumeSource = struct(`${CORE}.ScaleIOPersistentVolumeSource`, {
  gateway: field(1, string, req),
  system: field(2, string, req),
  secretRef: field(3, secretReference, { omitEmpty: false, pointer: true }),
  sslEnabled: field(4, boolean),
  protectionDomain: field(5, string),
  storagePool: field(6, string),
  storageMode: field(7, string, { default: 'ThinProvisioned' }),
  volumeName: field(8, string),
  fsType: field(9, string, { default: 'xfs' }),
  readOnly: field(10, boolean),
});

/** Directly-attached storage of one node (requires node affinity). */
export const localVolumeSource = struct(`${CORE}.LocalVolumeSource`, {
  path: field(1, string, req),
  fsType: field(2, string, { pointer: true }),
});

/** A StorageOS volume; the secret may live in another namespace. */
export const storageOSPersistentVolumeSource = struct(`${CORE}.StorageOSPersistentVolumeSource`, {
  volumeName: field(1, string),
  volumeNamespace: field(2, string),
  fsType: field(3, string),
  readOnly: field(4, boolean),
  secretRef: field(5, objectReference),
});

/** A volume of an external CSI driver, with the secrets of each CSI call. */
export const csiPersistentVolumeSource = struct(`${CORE}.CSIPersistentVolumeSource`, {
  driver: field(1, string, req),
  volumeHandle: field(2, string, req),
  readOnly: field(3, boolean),
  fsType: field(4, string),
  volumeAttributes: field(5, mapOf(string)),
  controllerPublishSecretRef: field(6, secretReference),
  nodeStageSecretRef: field(7, secretReference),
  nodePublishSecretRef: field(8, secretReference),
  controllerExpandSecretRef: field(9, secretReference),
  nodeExpandSecretRef: field(10, secretReference),
});

/** The backing storage of a PersistentVolume: exactly one of these fields. */
export const persistentVolumeSource = struct(`${CORE}.PersistentVolumeSource`, {
  gcePersistentDisk: field(1, plugin.gcePersistentDiskVolumeSource),
  awsElasticBlockStore: field(2, plugin.awsElasticBlockStoreVolumeSource),
  hostPath: field(3, hostPathVolumeSource),
  glusterfs: field(4, glusterfsPersistentVolumeSource),
  nfs: field(5, plugin.nfsVolumeSource),
  rbd: field(6, rbdPersistentVolumeSource),
  iscsi: field(7, iscsiPersistentVolumeSource),
  cinder: field(8, cinderPersistentVolumeSource),
  cephfs: field(9, cephFSPersistentVolumeSource),
  fc: field(10, plugin.fcVolumeSource),
  flocker: field(11, plugin.flockerVolumeSource),
  flexVolume: field(12, flexPersistentVolumeSource),
  azureFile: field(13, azureFilePersistentVolumeSource),
  vsphereVolume: field(14, plugin.vsphereVirtualDiskVolumeSource),
  quobyte: field(15, plugin.quobyteVolumeSource),
  azureDisk: field(16, plugin.azureDiskVolumeSource),
  photonPersistentDisk: field(17, plugin.photonPersistentDiskVolumeSource),
  portworxVolume: field(18, plugin.portworxVolumeSource),
  scaleIO: field(19, scaleIOPersistentVolumeSource),
  local: field(20, localVolumeSource),
  storageos: field(21, storageOSPersistentVolumeSource),
  csi: field(22, csiPersistentVolumeSource),
});

/** The names of the PersistentVolumeSource fields, in declaration order. */
export const PERSISTENT_VOLUME_SOURCE_KEYS = Object.keys(structFields(persistentVolumeSource));
