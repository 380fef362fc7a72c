/**
 * Validation of a PersistentVolume's volume source with the upstream paths and messages (the
 * source part of `ValidatePersistentVolumeSpec` and the per-source `validate*PersistentVolumeSource`
 * checks of v1.30): exactly one source (`may not specify more than 1 volume type`, `must specify a
 * volume type`), absolute NFS paths, iSCSI names, cross-namespace secret references, CSI driver
 * names, `local` only with node affinity. Checks the schema already makes (`required` strings,
 * enums) are not restated.
 */
import { type FieldError, type FieldPath, forbidden, invalid, required, tooLong } from '../../../apimachinery/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { num, obj, str, type Obj } from './obj-access.js';
import { validateAzureDisk, validateFc, validateFlex, validatePartition, validatePathNoBacksteps, validateQuobyte } from './volume-validation.js';

const ONE_TYPE = 'may not specify more than 1 volume type';

const labelErrs = (v: string, path: FieldPath): FieldError[] => isDNS1123Label(v).map((m) => invalid(path, v, m));
const subdomainErrs = (v: string, path: FieldPath): FieldError[] => isDNS1123Subdomain(v).map((m) => invalid(path, v, m));

/** A list the schema requires but that is present and empty (the schema only sees absence). */
const emptyList = (v: unknown, path: FieldPath): FieldError[] => (Array.isArray(v) && v.length === 0 ? [required(path)] : []);

const ISCSI_FORMATS: Record<string, RegExp> = {
  iqn: /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/,
  eui: /^eui.[A-Za-z0-9]{16}$/,
  naa: /^naa.[A-Za-z0-9]{32}$/,
};

/** An iSCSI qualified name: `iqn.…`, `eui.…` or `naa.…` in its format. */
function iscsiName(value: string, path: FieldPath): FieldError[] {
  const re = ISCSI_FORMATS[value.slice(0, 3)];
  return re?.test(value) ? [] : [invalid(path, value, 'must be valid format')];
}

function iscsi(s: Obj, path: FieldPath, pvName: string): FieldError[] {
  const errs: FieldError[] = [];
  const portal = str(s.targetPortal);
  if (typeof s.initiatorName === 'string' && `${pvName}:${portal}`.length > 64)
    errs.push(invalid(path.child('targetportal'), portal, 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.'));
  if (str(s.iqn)) errs.push(...iscsiName(str(s.iqn), path.child('iqn')));
  const lun = num(s.lun) ?? 0;
  if (lun < 0 || lun > 255) errs.push(invalid(path.child('lun'), lun, 'must be between 0 and 255, inclusive'));
  const secretRef = obj(s.secretRef);
  if ((s.chapAuthDiscovery === true || s.chapAuthSession === true) && !secretRef) errs.push(required(path.child('secretRef')));
  if (secretRef && !str(secretRef.name)) errs.push(required(path.child('secretRef', 'name')));
  if (typeof s.initiatorName === 'string') errs.push(...iscsiName(s.initiatorName, path.child('initiatorname')));
  return errs;
}

function flocker(s: Obj, path: FieldPath): FieldError[] {
  const name = str(s.datasetName);
  const uuid = str(s.datasetUUID);
  const errs: FieldError[] = [];
  if (!name && !uuid) errs.push(required(path, 'one of datasetName and datasetUUID is required'));
  if (name && uuid) errs.push(invalid(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errs.push(invalid(path.child('datasetName'), name, "must not contain '/'"));
  return errs;
}

/** Name and namespace of a PV secret reference (upstream `validatePVSecretReference`). */
function pvSecretReference(ref: Obj, path: FieldPath): FieldError[] {
  const name = str(ref.name);
  const namespace = str(ref.namespace);
  return [
    ...(name ? subdomainErrs(name, path.child('name')) : [required(path.child('name'))]),
    ...(namespace ? labelErrs(namespace, path.child('namespace')) : [required(path.child('namespace'))]),
  ];
}

/** Name and namespace set on a secret reference (cinder, storageos). */
function namedSecretRef(s: Obj, path: FieldPath): FieldError[] {
  const ref = obj(s.secretRef);
  if (!ref) return [];
  return [...(str(ref.name) ? [] : [required(path.child('secretRef', 'name'))]), ...(str(ref.namespace) ? [] : [required(path.child('secretRef', 'namespace'))])];
}

function csi(s: Obj, path: FieldPath): FieldError[] {
  const driver = str(s.driver);
  const p = path.child('driver');
  const errs: FieldError[] = driver.length > 63 ? [tooLong(p, driver, 63)] : [];
  errs.push(...isDNS1123Subdomain(driver.toLowerCase()).map((m) => invalid(p, driver, m)));
  for (const ref of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef']) {
    const r = obj(s[ref]);
    if (r) errs.push(...pvSecretReference(r, path.child(ref)));
  }
  return errs;
}

function storageOS(s: Obj, path: FieldPath): FieldError[] {
  const name = str(s.volumeName);
  const ns = str(s.volumeNamespace);
  return [
    ...(name ? labelErrs(name, path.child('volumeName')) : [required(path.child('volumeName'))]),
    ...(ns ? labelErrs(ns, path.child('volumeNamespace')) : []),
    ...namedSecretRef(s, path),
  ];
}

function glusterfs(s: Obj, path: FieldPath): FieldError[] {
  if (typeof s.endpointsNamespace !== 'string') return [];
  const ns = s.endpointsNamespace;
  const p = path.child('endpointsNamespace');
  return ns === '' ? [invalid(p, ns, 'if the endpointnamespace is set, it must be a valid namespace name')] : labelErrs(ns, p);
}

type SourceCheck = (s: Obj, path: FieldPath, pvName: string) => FieldError[];

/**
 * The PV sources in upstream's checking order: field, path segment of its errors, check. A
 * second source is forbidden at the field's own name, except `cephfs` (`cephFS`) and
 * `flexVolume`, which upstream never refuses as a second source.
 */
const SOURCES: [string, string, SourceCheck][] = [
  ['hostPath', 'hostPath', (s, p) => (str(s.path) ? validatePathNoBacksteps(str(s.path), p.child('path')) : [])],
  ['gcePersistentDisk', 'persistentDisk', validatePartition],
  ['awsElasticBlockStore', 'awsElasticBlockStore', validatePartition],
  ['glusterfs', 'glusterfs', glusterfs],
  ['flocker', 'flocker', flocker],
  ['nfs', 'nfs', (s, p) => (str(s.path).startsWith('/') ? [] : [invalid(p.child('path'), str(s.path), 'must be an absolute path')])],
  ['rbd', 'rbd', (s, p) => emptyList(s.monitors, p.child('monitors'))],
  ['quobyte', 'quobyte', validateQuobyte],
  ['cephfs', 'cephfs', (s, p) => emptyList(s.monitors, p.child('monitors'))],
  ['iscsi', 'iscsi', iscsi],
  ['cinder', 'cinder', namedSecretRef],
  ['fc', 'fc', validateFc],
  ['flexVolume', 'flexVolume', validateFlex],
  ['azureFile', 'azureFile', (s, p) => (s.secretNamespace === '' ? [required(p.child('secretNamespace'))] : [])],
  ['vsphereVolume', 'vsphereVolume', () => []],
  ['photonPersistentDisk', 'photonPersistentDisk', () => []],
  ['portworxVolume', 'portworxVolume', () => []],
  ['azureDisk', 'azureDisk', validateAzureDisk],
  ['scaleIO', 'scaleIO', (s, p) => (str(s.volumeName) ? [] : [required(p.child('volumeName'))])],
  ['local', 'local', (s, p) => (str(s.path) ? validatePathNoBacksteps(str(s.path), p.child('path')) : [])],
  ['storageos', 'storageos', storageOS],
  ['csi', 'csi', csi],
];

const SECOND_SOURCE_SEGMENT: Record<string, string> = { cephfs: 'cephFS' };

/**
 * Validates the volume source of a PV spec at `path` (`spec`): exactly one source, each checked
 * as upstream; `hasNodeAffinity` tells whether `nodeAffinity` is set, which `local` requires.
 */
export function validatePersistentVolumeSource(spec: Obj, pvName: string, hasNodeAffinity: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [key, segment, check] of SOURCES) {
    const s = obj(spec[key]);
    if (!s) continue;
    if (count > 0 && key !== 'flexVolume') errs.push(forbidden(path.child(SECOND_SOURCE_SEGMENT[key] ?? key), ONE_TYPE));
    else {
      errs.push(...check(s, path.child(segment), pvName));
      if (key === 'local' && !hasNodeAffinity) errs.push(required(path.child('nodeAffinity'), 'Local volume requires node affinity'));
    }
    count++;
  }
  if (count === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}
