/**
 * Validation of pod volumes with the upstream paths and messages (`ValidateVolumes`,
 * `validateVolumeSource` and the per-source checks): DNS-label unique names, exactly one source,
 * file modes, relative paths without `..`, downward API selectors, projections, ephemeral claim
 * templates. Checks the schema already makes (`required` fields, enums) are not restated.
 */
import { duplicate, type FieldError, type FieldPath, forbidden, invalid, notSupported, required, tooLong } from '../../../apimachinery/field-errors.js';
import { Quantity } from '../../../apimachinery/quantity.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { VENDOR_DOMAIN } from '../../vendor.js';
import { validateObjectFieldSelector, validateResourceFieldSelector, VOLUME_FIELD_PATHS } from './env-validation.js';
import { list, num, obj, objs, str, type Obj } from './obj-access.js';
import { parseQuantity } from './resources-validation.js';
import { validateClaimTemplate } from './claim-template-validation.js';

const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';
const ONE_TYPE = 'may not specify more than 1 volume type';

/** A relative path without `..` elements. */
export function validateLocalDescendingPath(p: string, path: FieldPath): FieldError[] {
  const errs = p.startsWith('/') ? [invalid(path, p, 'must be a relative path')] : [];
  return [...errs, ...validatePathNoBacksteps(p, path)];
}

/** No `..` element in a path. */
export function validatePathNoBacksteps(p: string, path: FieldPath): FieldError[] {
  return p.split('/').includes('..') ? [invalid(path, p, "must not contain '..'")] : [];
}

/** Relative, no `..` element and not starting with `..` (upstream ValidateLocalNonReservedPath). */
function validateLocalNonReservedPath(p: string, path: FieldPath): FieldError[] {
  const errs = validateLocalDescendingPath(p, path);
  if (p.startsWith('..') && !p.startsWith('../')) errs.push(invalid(path, p, "must not start with '..'"));
  return errs;
}

function validateMode(mode: unknown, path: FieldPath): FieldError[] {
  const m = num(mode);
  return m !== undefined && (m < 0 || m > 0o777) ? [invalid(path, m, FILE_MODE_ERROR)] : [];
}

function validateKeyToPaths(items: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objs(items).forEach((kp, i) => {
    errs.push(...validateLocalNonReservedPath(str(kp.path), path.index(i).child('path')));
    errs.push(...validateMode(kp.mode, path.index(i).child('mode')));
  });
  return errs;
}

function validateDownwardAPIFile(file: Obj, path: FieldPath): FieldError[] {
  const errs = validateLocalNonReservedPath(str(file.path), path.child('path'));
  const fieldRef = obj(file.fieldRef);
  const resourceFieldRef = obj(file.resourceFieldRef);
  if (fieldRef) {
    errs.push(...validateObjectFieldSelector(fieldRef, VOLUME_FIELD_PATHS, path.child('fieldRef')));
    if (resourceFieldRef) errs.push(invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (resourceFieldRef) {
    errs.push(...validateResourceFieldSelector(resourceFieldRef, path.child('resourceFieldRef'), true));
  } else {
    errs.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...validateMode(file.mode, path.child('mode')));
  return errs;
}

/** A disk partition: 0 (whole disk) to 255 (upstream GCE PD / AWS EBS source rules). */
export function validatePartition(pd: Obj, path: FieldPath): FieldError[] {
  const p = num(pd.partition) ?? 0;
  return p < 0 || p > 255 ? [invalid(path.child('partition'), p, 'must be between 1 and 255, inclusive')] : [];
}

const IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/;
const EUI = /^eui.[A-Za-z0-9]{16}$/;
const NAA = /^naa.[A-Za-z0-9]{32}$/;

function validateIscsiName(value: string, path: FieldPath): FieldError[] {
  if (!/^(iqn|eui|naa)/.test(value)) return [invalid(path, value, 'must be valid format starting with iqn, eui, or naa')];
  const re = value.startsWith('iqn') ? IQN : value.startsWith('eui') ? EUI : NAA;
  return re.test(value) ? [] : [invalid(path, value, 'must be valid format')];
}

function validateIscsi(s: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(s.iqn)) errs.push(...validateIscsiName(str(s.iqn), path.child('iqn')));
  const lun = num(s.lun) ?? 0;
  if (lun < 0 || lun > 255) errs.push(invalid(path.child('lun'), lun, 'must be between 0 and 255, inclusive'));
  if ((s.chapAuthDiscovery === true || s.chapAuthSession === true) && !obj(s.secretRef)) errs.push(required(path.child('secretRef')));
  if (typeof s.initiatorName === 'string') errs.push(...validateIscsiName(s.initiatorName, path.child('initiatorname')));
  return errs;
}

/** A Fibre Channel source: target WWNs with a LUN, or WWIDs, never both (upstream `validateFCVolumeSource`). */
export function validateFc(s: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const wwns = list(s.targetWWNs);
  const wwids = list(s.wwids);
  if (wwns.length === 0 && wwids.length === 0) errs.push(required(path.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length > 0 && wwids.length > 0) errs.push(invalid(path.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length > 0) {
    const lun = num(s.lun);
    if (lun === undefined) errs.push(required(path.child('lun'), 'lun is required if targetWWNs is specified'));
    else if (lun < 0 || lun > 255) errs.push(invalid(path.child('lun'), lun, 'must be between 0 and 255, inclusive'));
  }
  return errs;
}

/** A Quobyte source: registry host:port pairs, a tenant of at most 64 characters (upstream `validateQuobyteVolumeSource`). */
export function validateQuobyte(s: Obj, path: FieldPath): FieldError[] {
  const registry = str(s.registry);
  const hostPort = 'must be a host:port pair or multiple pairs separated by commas';
  if (!registry) return [required(path.child('registry'), hostPort)];
  if (str(s.tenant).length >= 65) return [required(path.child('tenant'), 'must be a UUID and may not exceed a length of 64 characters')];
  return registry.split(',').filter((hp) => !/^[^:]*:[^:]*$|^\[[^\]]*\]:[^:]*$/.test(hp)).map(() => invalid(path.child('registry'), registry, hostPort));
}

/** A FlexVolume source: options may not use the reserved vendor namespaces (upstream `validateFlexVolumeSource`). */
export function validateFlex(s: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(obj(s.options) ?? {})) {
    const ns = k.includes('/') ? k.slice(0, k.indexOf('/')) : k;
    if (`.${ns.toLowerCase()}`.endsWith(`.${VENDOR_DOMAIN}`)) errs.push(invalid(path.child('options').key(k), k, `${VENDOR_DOMAIN} namespaces are reserved`));
  }
  return errs;
}

/** An Azure disk source: the disk URI form of its kind (upstream `validateAzureDisk`). */
export function validateAzureDisk(s: Obj, path: FieldPath): FieldError[] {
  const uri = str(s.diskURI);
  if (s.kind === undefined) return [];
  if (s.kind === 'Managed' && !uri.startsWith('/subscriptions/'))
    return [notSupported(path.child('diskURI'), uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}'])];
  if (s.kind !== 'Managed' && !uri.startsWith('https://'))
    return [notSupported(path.child('diskURI'), uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd'])];
  return [];
}

function validateStorageOS(s: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(s.volumeName);
  if (!name) errs.push(required(path.child('volumeName')));
  else errs.push(...isDNS1123Label(name).map((m) => invalid(path.child('volumeName'), name, m)));
  const ns = str(s.volumeNamespace);
  if (ns) errs.push(...isDNS1123Label(ns).map((m) => invalid(path.child('volumeNamespace'), ns, m)));
  if (obj(s.secretRef) && !str(obj(s.secretRef)!.name)) errs.push(required(path.child('secretRef', 'name')));
  return errs;
}

function validateCsi(s: Obj, path: FieldPath): FieldError[] {
  const driver = str(s.driver);
  const p = path.child('driver');
  const errs: FieldError[] = driver ? [] : [required(p)];
  if (driver.length > 63) errs.push(tooLong(p, '', 63));
  errs.push(...isDNS1123Subdomain(driver.toLowerCase()).map((m) => invalid(p, driver, m)));
  const ref = obj(s.nodePublishSecretRef);
  if (ref) {
    const name = str(ref.name);
    if (!name) errs.push(required(path.child('nodePublishSecretRef', 'name')));
    else errs.push(...isDNS1123Subdomain(name).map((m) => invalid(path.child('name'), name, m)));
  }
  return errs;
}

function validateProjected(s: Obj, path: FieldPath): FieldError[] {
  const errs = validateMode(s.defaultMode, path.child('defaultMode'));
  const paths = new Set<string>();
  const claim = (p: string, value: unknown): void => {
    if (paths.has(p)) errs.push(invalid(path, value, 'conflicting duplicate paths'));
    paths.add(p);
  };
  objs(s.sources).forEach((src, i) => {
    const srcPath = path.child('sources').index(i);
    let count = 0;
    for (const key of ['secret', 'configMap']) {
      const ref = obj(src[key]);
      if (!ref) continue;
      count++;
      if (!str(ref.name)) errs.push(required(srcPath.child(key, 'name')));
      errs.push(...validateKeyToPaths(ref.items, srcPath.child(key, 'items')));
      for (const kp of objs(ref.items)) if (str(kp.path)) claim(str(kp.path), str(ref.name));
    }
    const downward = obj(src.downwardAPI);
    if (downward) {
      count++;
      for (const file of objs(downward.items)) {
        errs.push(...validateDownwardAPIFile(file, srcPath.child('downwardAPI')));
        if (str(file.path)) claim(str(file.path), str(file.path));
      }
    }
    const token = obj(src.serviceAccountToken);
    if (token) {
      count++;
      const seconds = num(token.expirationSeconds) ?? 0;
      const p = srcPath.child('serviceAccountToken', 'expirationSeconds');
      if (seconds < 600) errs.push(invalid(p, seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32) errs.push(invalid(p, seconds, 'may not specify a duration larger than 2^32 seconds'));
      if (str(token.path)) errs.push(...validateLocalNonReservedPath(str(token.path), path.child('path')));
    }
    const bundle = obj(src.clusterTrustBundle);
    if (bundle) {
      count++;
      errs.push(...validateTrustBundle(bundle, srcPath.child('clusterTrustBundle')));
      claim(str(bundle.path), str(bundle.path));
    }
    if (count > 1) errs.push(forbidden(srcPath, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

function validateTrustBundle(b: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const byName = typeof b.name === 'string';
  const bySigner = typeof b.signerName === 'string';
  if (byName && bySigner) errs.push(invalid(path, b, 'only one of name and signerName may be used'));
  else if (byName) {
    if (!b.name) errs.push(required(path.child('name'), 'must be a valid object name'));
    if (b.labelSelector !== undefined) errs.push(invalid(path.child('labelSelector'), b.labelSelector, 'labelSelector must be unset if name is specified'));
  } else if (bySigner) {
    if (!b.signerName) errs.push(required(path.child('signerName'), 'must be a valid signer name'));
  } else errs.push(required(path, 'either name or signerName must be specified'));
  errs.push(...validateLocalNonReservedPath(str(b.path), path.child('path')));
  return errs;
}

/** Per-source checks beyond the schema, keyed by VolumeSource field; `volName`/`podName` for derived names. */
type SourceCheck = (s: Obj, path: FieldPath, ctx: { volName: string; podName: string | undefined; volPath: FieldPath }) => FieldError[];

/** The sources in upstream order, with the path segment used for their errors. */
const SOURCES: [key: string, segment: string, check: SourceCheck][] = [
  ['emptyDir', 'emptyDir', (s, p) => {
    const q = s.sizeLimit === undefined ? undefined : parseQuantity(s.sizeLimit, p.child('sizeLimit'));
    if (q === undefined) return [];
    if (!(q instanceof Quantity)) return [q];
    return q.sign() < 0 ? [forbidden(p.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity')] : [];
  }],
  ['hostPath', 'hostPath', (s, p) => (str(s.path) ? validatePathNoBacksteps(str(s.path), p.child('path')) : [])],
  ['gitRepo', 'gitRepo', (s, p) => validateLocalDescendingPath(str(s.directory), p.child('directory'))],
  ['gcePersistentDisk', 'persistentDisk', validatePartition],
  ['awsElasticBlockStore', 'awsElasticBlockStore', validatePartition],
  ['secret', 'secret', (s, p) => [
    ...(str(s.secretName) ? [] : [required(p.child('secretName'))]),
    ...validateMode(s.defaultMode, p.child('defaultMode')),
    ...validateKeyToPaths(s.items, p.child('items')),
  ]],
  ['nfs', 'nfs', (s, p) => (str(s.path).startsWith('/') ? [] : [invalid(p.child('path'), str(s.path), 'must be an absolute path')])],
  ['iscsi', 'iscsi', (s, p, ctx) => [
    ...validateIscsi(s, p),
    ...(typeof s.initiatorName === 'string' && `${ctx.volName}:${str(s.targetPortal)}`.length > 64
      ? [invalid(ctx.volPath.child('name'), ctx.volName, 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.')]
      : []),
  ]],
  ['glusterfs', 'glusterfs', () => []],
  ['flocker', 'flocker', (s, p) => {
    const name = str(s.datasetName);
    const uuid = str(s.datasetUUID);
    const errs: FieldError[] = [];
    if (!name && !uuid) errs.push(required(p, 'one of datasetName and datasetUUID is required'));
    if (name && uuid) errs.push(invalid(p, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
    if (name.includes('/')) errs.push(invalid(p.child('datasetName'), name, "must not contain '/'"));
    return errs;
  }],
  ['persistentVolumeClaim', 'persistentVolumeClaim', () => []],
  ['rbd', 'rbd', () => []],
  ['cinder', 'cinder', (s, p) => (obj(s.secretRef) && !str(obj(s.secretRef)!.name) ? [required(p.child('secretRef', 'name'))] : [])],
  ['cephfs', 'cephfs', () => []],
  ['quobyte', 'quobyte', validateQuobyte],
  ['downwardAPI', 'downwardAPI', (s, p) => [...validateMode(s.defaultMode, p.child('defaultMode')), ...objs(s.items).flatMap((f) => validateDownwardAPIFile(f, p))]],
  ['fc', 'fc', validateFc],
  ['flexVolume', 'flexVolume', validateFlex],
  ['configMap', 'configMap', (s, p) => [
    ...(str(s.name) ? [] : [required(p.child('name'))]),
    ...validateMode(s.defaultMode, p.child('defaultMode')),
    ...validateKeyToPaths(s.items, p.child('items')),
  ]],
  ['azureFile', 'azureFile', () => []],
  ['vsphereVolume', 'vsphereVolume', () => []],
  ['photonPersistentDisk', 'photonPersistentDisk', () => []],
  ['portworxVolume', 'portworxVolume', () => []],
  ['azureDisk', 'azureDisk', validateAzureDisk],
  ['storageos', 'storageos', validateStorageOS],
  ['projected', 'projected', validateProjected],
  ['scaleIO', 'scaleIO', (s, p) => (str(s.volumeName) ? [] : [required(p.child('volumeName'))])],
  ['csi', 'csi', validateCsi],
  ['ephemeral', 'ephemeral', (s, p, ctx) => {
    const tmpl = obj(s.volumeClaimTemplate);
    if (!tmpl) return [required(p.child('volumeClaimTemplate'))];
    const errs = validateClaimTemplate(tmpl, p.child('volumeClaimTemplate'));
    if (ctx.podName && ctx.volName) {
      const pvc = `${ctx.podName}-${ctx.volName}`;
      errs.push(...isDNS1123Subdomain(pvc).map((m) => invalid(ctx.volPath.child('name'), ctx.volName, `PVC name ${JSON.stringify(pvc)}: ${m}`)));
    }
    return errs;
  }],
];

/** The forbidden-path spelling upstream uses for a second source (two historical typos kept). */
const SECOND_SOURCE_SEGMENT: Record<string, string> = { cephfs: 'cephFS', downwardAPI: 'downwarAPI' };

function validateVolumeSource(vol: Obj, path: FieldPath, podName: string | undefined): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  const ctx = { volName: str(vol.name), podName, volPath: path };
  for (const [key, segment, check] of SOURCES) {
    const s = obj(vol[key]);
    if (!s) continue;
    if (count > 0) errs.push(forbidden(path.child(SECOND_SOURCE_SEGMENT[key] ?? key), ONE_TYPE));
    else errs.push(...check(s, path.child(segment), ctx));
    count++;
  }
  if (count === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

/**
 * Validates `spec.volumes` (at `path`); `podName` (when known) checks the names of the claims
 * ephemeral volumes create. Returns the errors and the valid volumes by name, which volume
 * mounts and devices may reference.
 */
export function validateVolumes(volumes: unknown, podName: string | undefined, path: FieldPath): { errs: FieldError[]; byName: Map<string, Obj> } {
  const errs: FieldError[] = [];
  const byName = new Map<string, Obj>();
  const created = new Set<string>();
  if (podName) for (const v of objs(volumes)) if (obj(v.ephemeral)) created.add(`${podName}-${str(v.name)}`);
  objs(volumes).forEach((vol, i) => {
    const p = path.index(i);
    const name = str(vol.name);
    const el = validateVolumeSource(vol, p, podName);
    if (name) el.push(...isDNS1123Label(name).map((m) => invalid(p.child('name'), name, m)));
    if (byName.has(name)) el.push(duplicate(p.child('name'), name));
    if (el.length === 0) byName.set(name, vol);
    else errs.push(...el);
    const claimName = str(obj(vol.persistentVolumeClaim)?.claimName);
    if (claimName && created.has(claimName))
      errs.push(invalid(p.child('persistentVolumeClaim', 'claimName'), claimName, 'must not reference a PVC that gets created for an ephemeral volume'));
  });
  return { errs, byName };
}
