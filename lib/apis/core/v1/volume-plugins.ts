/**
 * core/v1 in-tree volume plugin sources (cloud disks, network filesystems, block devices):
 * AWS EBS, Azure disk and file, CephFS, Cinder, FC, FlexVolume, Flocker, GCE PD, Glusterfs,
 * iSCSI, NFS, Photon, Portworx, Quobyte, RBD, ScaleIO, StorageOS, vSphere. Numbers and
 * `+default` values as upstream v1.30.
 */
import { boolean, enumOf, field, int32, listOf, mapOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { CORE, localObjectReference } from './references.js';

const req = { required: true, omitEmpty: false } as const;

/** An AWS EBS disk attached to the node. */
export const awsElasticBlockStoreVolumeSource = struct(`${CORE}.AWSElasticBlockStoreVolumeSource`, {
  volumeID: field(1, string, req),
  fsType: field(2, string),
  partition: field(3, int32),
  readOnly: field(4, boolean),
});

/** An Azure data disk (caching ReadWrite, ext4, Shared kind by default). */
export const azureDiskVolumeSource = struct(`${CORE}.AzureDiskVolumeSource`, {
  diskName: field(1, string, req),
  diskURI: field(2, string, req),
  cachingMode: field(3, enumOf('None', 'ReadOnly', 'ReadWrite'), { default: 'ReadWrite' }),
  fsType: field(4, string, { default: 'ext4', pointer: true }),
  readOnly: field(5, boolean, { default: false }),
  kind: field(6, enumOf('Dedicated', 'Managed', 'Shared'), { default: 'Shared' }),
});

/** An Azure File share. */
export const azureFileVolumeSource = struct(`${CORE}.AzureFileVolumeSource`, {
  secretName: field(1, string, req),
  shareName: field(2, string, req),
  readOnly: field(3, boolean),
});

/** A CephFS mount. */
export const cephFSVolumeSource = struct(`${CORE}.CephFSVolumeSource`, {
  monitors: field(1, listOf(string, { listType: 'atomic' }), req),
  path: field(2, string),
  user: field(3, string),
  secretFile: field(4, string),
  secretRef: field(5, localObjectReference),
  readOnly: field(6, boolean),
});

/** An OpenStack Cinder volume. */
export const cinderVolumeSource = struct(`${CORE}.CinderVolumeSource`, {
  volumeID: field(1, string, req),
  fsType: field(2, string),
  readOnly: field(3, boolean),
  secretRef: field(4, localObjectReference),
});

/** A Fibre Channel disk (target WWNs and lun, or WWIDs). */
export const fcVolumeSource = struct(`${CORE}.FCVolumeSource`, {
  targetWWNs: field(1, listOf(string, { listType: 'atomic' })),
  lun: field(2, int32),
  fsType: field(3, string),
  readOnly: field(4, boolean),
  wwids: field(5, listOf(string, { listType: 'atomic' })),
});

/** A volume of an exec-based FlexVolume driver. */
export const flexVolumeSource = struct(`${CORE}.FlexVolumeSource`, {
  driver: field(1, string, req),
  fsType: field(2, string),
  secretRef: field(3, localObjectReference),
  readOnly: field(4, boolean),
  options: field(5, mapOf(string)),
});

/** A Flocker dataset (by name or UUID). */
export const flockerVolumeSource = struct(`${CORE}.FlockerVolumeSource`, {
  datasetName: field(1, string),
  datasetUUID: field(2, string),
});

/** A GCE persistent disk. */
export const gcePersistentDiskVolumeSource = struct(`${CORE}.GCEPersistentDiskVolumeSource`, {
  pdName: field(1, string, req),
  fsType: field(2, string),
  partition: field(3, int32),
  readOnly: field(4, boolean),
});

/** A Glusterfs mount. */
export const glusterfsVolumeSource = struct(`${CORE}.GlusterfsVolumeSource`, {
  endpoints: field(1, string, req),
  path: field(2, string, req),
  readOnly: field(3, boolean),
});

/** An iSCSI disk (interface `default` by default). */
export const iscsiVolumeSource = struct(`${CORE}.ISCSIVolumeSource`, {
  targetPortal: field(1, string, req),
  iqn: field(2, string, req),
  lun: field(3, int32, { omitEmpty: false }),
  iscsiInterface: field(4, string, { default: 'default' }),
  fsType: field(5, string),
  readOnly: field(6, boolean),
  portals: field(7, listOf(string, { listType: 'atomic' })),
  chapAuthDiscovery: field(8, boolean),
  chapAuthSession: field(11, boolean),
  secretRef: field(10, localObjectReference),
  initiatorName: field(12, string, { pointer: true }),
});

/** An NFS export. */
export const nfsVolumeSource = struct(`${CORE}.NFSVolumeSource`, {
  server: field(1, string, req),
  path: field(2, string, req),
  readOnly: field(3, boolean),
});

/** A Photon Controller persistent disk. */
export const photonPersistentDiskVolumeSource = struct(`${CORE}.PhotonPersistentDiskVolumeSource`, {
  pdID: field(1, string, req),
  fsType: field(2, string),
});

/** A Portworx volume. */
export const portworxVolumeSource = struct(`${CORE}.PortworxVolumeSource`, {
  volumeID: field(1, string, req),
  fsType: field(2, string),
  readOnly: field(3, boolean),
});

/** A Quobyte volume. */
export const quobyteVolumeSource = struct(`${CORE}.QuobyteVolumeSource`, {
  registry: field(1, string, { omitEmpty: false }),
  volume: field(2, string, req),
  readOnly: field(3, boolean),
  user: field(4, string),
  group: field(5, string),
  tenant: field(6, string),
});

/** A Ceph RBD image (pool rbd, user admin, keyring /etc/ceph/keyring by default). */
export const rbdVolumeSource = struct(`${CORE}.RBDVolumeSource`, {
  monitors: field(1, listOf(string, { listType: 'atomic' }), req),
  image: field(2, string, req),
  fsType: field(3, string),
  pool: field(4, string, { default: 'rbd' }),
  user: field(5, string, { default: 'admin' }),
  keyring: field(6, string, { default: '/etc/ceph/keyring' }),
  secretRef: field(7, localObjectReference),
  readOnly: field(8, boolean),
});

/** A ScaleIO volume (ThinProvisioned, xfs by default). */
export const scaleIOVolumeSource = struct(`${CORE}.ScaleIOVolumeSource`, {
  gateway: field(1, string, req),
  system: field(2, string, req),
  secretRef: field(3, localObjectReference, { omitEmpty: false, pointer: true }),
  sslEnabled: field(4, boolean),
  protectionDomain: field(5, string),
  storagePool: field(6, string),
  storageMode: field(7, string, { default: 'ThinProvisioned' }),
  volumeName: field(8, string),
  fsType: field(9, string, { default: 'xfs' }),
  readOnly: field(10, boolean),
});

/** A StorageOS volume. */
export const storageOSVolumeSource = struct(`${CORE}.StorageOSVolumeSource`, {
  volumeName: field(1, string),
  volumeNamespace: field(2, string),
  fsType: field(3, string),
  readOnly: field(4, boolean),
  secretRef: field(5, localObjectReference),
});

/** A vSphere virtual disk. */
export const vsphereVirtualDiskVolumeSource = struct(`${CORE}.VsphereVirtualDiskVolumeSource`, {
  volumePath: field(1, string, req),
  fsType: field(2, string),
  storagePolicyName: field(3, string),
  storagePolicyID: field(4, string),
});
