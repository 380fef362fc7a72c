/**
 * core/v1 Volume and VolumeSource: the API-object sources (ConfigMap, Secret, downward API,
 * projected, claims, ephemeral claims, CSI, emptyDir, hostPath, gitRepo) and the in-tree plugins
 * of volume-plugins.ts. Numbers and defaults as upstream v1.30 (`SetDefaults_Volume`: no source
 * means emptyDir; `defaultMode` 0644 for Secret, ConfigMap, downward API and projected volumes;
 * service account tokens last one hour; claim templates default to `Filesystem` mode).
 */
import { boolean, enumOf, field, int32, int64, listOf, mapOf, quantity, string, struct } from '../../../apimachinery/schema/builder.js';
import { structFields } from '../../../apimachinery/schema/types.js';
import { labelSelector, objectMeta } from '../../meta/v1/types.js';
import { objectFieldSelector, resourceFieldSelector } from './env.js';
import { CORE, inlined, keyToPath, localObjectReference, typedLocalObjectReference, typedObjectReference } from './references.js';
import { volumeResourceRequirements } from './resources.js';
import * as plugin from './volume-plugins.js';

/** 0644: the default file mode of projected keys. */
export const DEFAULT_FILE_MODE = 0o644;

/** A scratch directory that lives as long as the pod. */
export const emptyDirVolumeSource = struct(`${CORE}.EmptyDirVolumeSource`, {
  medium: field(1, string),
  sizeLimit: field(2, quantity),
});

/** Host path types; `""` performs no check. */
export const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

/** A file or directory of the node. */
export const hostPathVolumeSource = struct(`${CORE}.HostPathVolumeSource`, {
  path: field(1, string, { required: true, omitEmpty: false }),
  // `*HostPathType` defaulted to a pointer to "", which Go writes (`"type":""`).
  type: field(2, enumOf(...HOST_PATH_TYPES), { default: '', pointer: true }),
});

/** A git repository cloned into the volume (deprecated upstream). */
export const gitRepoVolumeSource = struct(`${CORE}.GitRepoVolumeSource`, {
  repository: field(1, string, { required: true, omitEmpty: false }),
  revision: field(2, string),
  directory: field(3, string),
});

/** The keys of a Secret as files. */
export const secretVolumeSource = struct(`${CORE}.SecretVolumeSource`, {
  secretName: field(1, string),
  items: field(2, listOf(keyToPath, { listType: 'atomic' })),
  defaultMode: field(3, int32, { default: DEFAULT_FILE_MODE }),
  optional: field(4, boolean),
});

/** The keys of a ConfigMap as files. */
export const configMapVolumeSource = struct(`${CORE}.ConfigMapVolumeSource`, {
  ...inlined(1, localObjectReference),
  items: field(2, listOf(keyToPath, { listType: 'atomic' })),
  defaultMode: field(3, int32, { default: DEFAULT_FILE_MODE }),
  optional: field(4, boolean),
});

/** One file holding a pod field or container resource. */
export const downwardAPIVolumeFile = struct(`${CORE}.DownwardAPIVolumeFile`, {
  path: field(1, string, { required: true, omitEmpty: false }),
  fieldRef: field(2, objectFieldSelector),
  resourceFieldRef: field(3, resourceFieldSelector),
  mode: field(4, int32),
});

/** Pod fields and container resources as files. */
export const downwardAPIVolumeSource = struct(`${CORE}.DownwardAPIVolumeSource`, {
  items: field(1, listOf(downwardAPIVolumeFile, { listType: 'atomic' })),
  defaultMode: field(2, int32, { default: DEFAULT_FILE_MODE }),
});

/** Secret keys in a projected volume. */
export const secretProjection = struct(`${CORE}.SecretProjection`, {
  ...inlined(1, localObjectReference),
  items: field(2, listOf(keyToPath, { listType: 'atomic' })),
  optional: field(4, boolean),
});

/** ConfigMap keys in a projected volume. */
export const configMapProjection = struct(`${CORE}.ConfigMapProjection`, {
  ...inlined(1, localObjectReference),
  items: field(2, listOf(keyToPath, { listType: 'atomic' })),
  optional: field(4, boolean),
});

/** Downward API files in a projected volume. */
export const downwardAPIProjection = struct(`${CORE}.DownwardAPIProjection`, {
  items: field(1, listOf(downwardAPIVolumeFile, { listType: 'atomic' })),
});

/** A service account token in a projected volume (one hour by default). */
export const serviceAccountTokenProjection = struct(`${CORE}.ServiceAccountTokenProjection`, {
  audience: field(1, string),
  expirationSeconds: field(2, int64, { default: 3600 }),
  path: field(3, string, { required: true, omitEmpty: false }),
});

/** ClusterTrustBundle certificates in a projected volume. */
export const clusterTrustBundleProjection = struct(`${CORE}.ClusterTrustBundleProjection`, {
  name: field(1, string, { pointer: true }),
  signerName: field(2, string, { pointer: true }),
  labelSelector: field(3, labelSelector),
  optional: field(5, boolean),
  path: field(4, string, { required: true, omitEmpty: false }),
});

/** One source of a projected volume: exactly one of its fields. */
export const volumeProjection = struct(`${CORE}.VolumeProjection`, {
  secret: field(1, secretProjection),
  downwardAPI: field(2, downwardAPIProjection),
  configMap: field(3, configMapProjection),
  serviceAccountToken: field(4, serviceAccountTokenProjection),
  clusterTrustBundle: field(5, clusterTrustBundleProjection),
});

/** Several sources projected into one directory. */
export const projectedVolumeSource = struct(`${CORE}.ProjectedVolumeSource`, {
  sources: field(1, listOf(volumeProjection, { listType: 'atomic' }), { omitEmpty: false }),
  defaultMode: field(2, int32, { default: DEFAULT_FILE_MODE }),
});

/** A PersistentVolumeClaim of the pod's namespace. */
export const persistentVolumeClaimVolumeSource = struct(`${CORE}.PersistentVolumeClaimVolumeSource`, {
  claimName: field(1, string, { required: true, omitEmpty: false }),
  readOnly: field(2, boolean),
});

/** The claim part of a PersistentVolumeClaim, as used by ephemeral volumes. */
export const persistentVolumeClaimSpec = struct(`${CORE}.PersistentVolumeClaimSpec`, {
  accessModes: field(1, listOf(string, { listType: 'atomic' })),
  selector: field(4, labelSelector),
  resources: field(2, volumeResourceRequirements, { omitEmpty: false }),
  volumeName: field(3, string),
  storageClassName: field(5, string, { pointer: true }),
  volumeMode: field(6, enumOf('Block', 'Filesystem'), { default: 'Filesystem' }),
  dataSource: field(7, typedLocalObjectReference),
  dataSourceRef: field(8, typedObjectReference),
  volumeAttributesClassName: field(9, string, { pointer: true }),
});

/** The claim an ephemeral volume creates: labels, annotations and spec. */
export const persistentVolumeClaimTemplate = struct(`${CORE}.PersistentVolumeClaimTemplate`, {
  metadata: field(1, objectMeta, { omitEmpty: false }),
  spec: field(2, persistentVolumeClaimSpec, { required: true, omitEmpty: false }),
});

/** A claim created for, and deleted with, the pod. */
export const ephemeralVolumeSource = struct(`${CORE}.EphemeralVolumeSource`, {
  volumeClaimTemplate: field(1, persistentVolumeClaimTemplate),
});

/** An inline volume of a CSI driver. */
export const csiVolumeSource = struct(`${CORE}.CSIVolumeSource`, {
  driver: field(1, string, { omitEmpty: false }),
  readOnly: field(2, boolean),
  fsType: field(3, string, { pointer: true }),
  volumeAttributes: field(4, mapOf(string)),
  nodePublishSecretRef: field(5, localObjectReference),
});

/** Where a volume's content comes from: exactly one of these fields. */
export const volumeSource = struct(`${CORE}.VolumeSource`, {
  hostPath: field(1, hostPathVolumeSource),
  emptyDir: field(2, emptyDirVolumeSource),
  gcePersistentDisk: field(3, plugin.gcePersistentDiskVolumeSource),
  awsElasticBlockStore: field(4, plugin.awsElasticBlockStoreVolumeSource),
  gitRepo: field(5, gitRepoVolumeSource),
  secret: field(6, secretVolumeSource),
  nfs: field(7, plugin.nfsVolumeSource),
  iscsi: field(8, plugin.iscsiVolumeSource),
  glusterfs: field(9, plugin.glusterfsVolumeSource),
  persistentVolumeClaim: field(10, persistentVolumeClaimVolumeSource),
  rbd: field(11, plugin.rbdVolumeSource),
  flexVolume: field(12, plugin.flexVolumeSource),
  cinder: field(13, plugin.cinderVolumeSource),
  cephfs: field(14, plugin.cephFSVolumeSource),
  flocker: field(15, plugin.flockerVolumeSource),
  downwardAPI: field(16, downwardAPIVolumeSource),
  fc: field(17, plugin.fcVolumeSource),
  azureFile: field(18, plugin.azureFileVolumeSource),
  configMap: field(19, configMapVolumeSource),
  vsphereVolume: field(20, plugin.vsphereVirtualDiskVolumeSource),
  quobyte: field(21, plugin.quobyteVolumeSource),
  azureDisk: field(22, plugin.azureDiskVolumeSource),
  photonPersistentDisk: field(23, plugin.photonPersistentDiskVolumeSource),
  projected: field(26, projectedVolumeSource),
  portworxVolume: field(24, plugin.portworxVolumeSource),
  scaleIO: field(25, plugin.scaleIOVolumeSource),
  storageos: field(27, plugin.storageOSVolumeSource),
  csi: field(28, csiVolumeSource),
  ephemeral: field(29, ephemeralVolumeSource),
});

/** The names of the VolumeSource fields, in declaration order. */
export const VOLUME_SOURCE_KEYS = Object.keys(structFields(volumeSource));

/** `SetDefaults_Volume`: a volume without any source is an emptyDir. */
function defaultVolume(v: Record<string, unknown>): void {
  if (VOLUME_SOURCE_KEYS.every((k) => v[k] === undefined || v[k] === null)) v.emptyDir = {};
}

/** A named volume of a pod that its containers can mount. */
export const volume = struct(
  `${CORE}.Volume`,
  {
    name: field(1, string, { required: true, omitEmpty: false, description: 'DNS label, unique within the pod.' }),
    ...inlined(2, volumeSource),
  },
  { defaulter: defaultVolume, description: 'A named volume in a pod that any container of the pod may mount.' },
);
