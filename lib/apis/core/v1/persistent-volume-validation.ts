/**
 * PersistentVolume validation with the upstream paths and messages (`ValidatePersistentVolumeSpec`
 * and `ValidatePersistentVolumeUpdate` of v1.30): access modes, a `storage`-only positive
 * capacity, node affinity, storage and volume attributes class names, one volume source (see
 * persistent-volume-source-validation.ts); on update an immutable source, volume mode and node
 * affinity. ObjectMeta (DNS subdomain names, cluster-scoped) is checked by the caller.
 */
import { posix } from 'node:path';
import { type FieldError, FieldPath, forbidden, GoSyntax, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { Quantity } from '../../../apimachinery/quantity.js';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import type { Obj } from '../../define.js';
import { list, obj, str } from './obj-access.js';
import { PERSISTENT_VOLUME_SOURCE_KEYS } from './persistent-volume-sources.js';
import { validatePersistentVolumeSource } from './persistent-volume-source-validation.js';
import { parseQuantity } from './resources-validation.js';
import { validateAffinity } from './scheduling-validation.js';
import { diffLines, semanticEqual } from './semantic-equal.js';

/** The access modes a volume or claim may list, sorted as upstream prints them. */
export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const IMMUTABLE = 'field is immutable';
const specPath = FieldPath.of('spec');

/**
 * Access modes (upstream, for PVs and claims alike): at least one (`requiredDetail`), each
 * supported, and `ReadWriteOncePod` alone.
 */
export function validateAccessModes(modes: unknown, path: FieldPath, requiredDetail = ''): FieldError[] {
  const values = list(modes).map(str);
  const errs: FieldError[] = values.length === 0 ? [required(path, requiredDetail)] : [];
  for (const m of values) if (!ACCESS_MODES.includes(m)) errs.push(notSupported(path, m, ACCESS_MODES));
  if (values.includes('ReadWriteOncePod') && values.some((m) => m !== 'ReadWriteOncePod' && ACCESS_MODES.includes(m)))
    errs.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

/** A storage or volume attributes class name: a DNS subdomain (upstream `ValidateClassName`). */
export function validateClassName(name: string, path: FieldPath): FieldError[] {
  return isDNS1123Subdomain(name).map((m) => invalid(path, name, m));
}

/** A resource list as upstream prints it: keys sorted, quantities in canonical form. */
export function canonicalList(list: Obj): Obj {
  const out: Obj = {};
  for (const name of Object.keys(list).sort()) {
    const q = parseQuantity(list[name], FieldPath.of(name));
    out[name] = q instanceof Quantity ? q.toString() : list[name];
  }
  return out;
}

/** `capacity`: required, only `storage`, each amount a valid positive quantity. */
function validateCapacity(capacity: unknown, path: FieldPath): FieldError[] {
  const cap = obj(capacity) ?? {};
  const names = Object.keys(cap);
  const errs: FieldError[] = names.length === 0 ? [required(path)] : [];
  if (!names.includes('storage') || names.length > 1) errs.push(notSupported(path, names.length === 0 ? new GoSyntax('null') : canonicalList(cap), ['storage']));
  for (const name of names) {
    const p = path.key(name);
    const q = parseQuantity(cap[name], p);
    if (!(q instanceof Quantity)) {
      errs.push(q);
      continue;
    }
    if (q.value() < 0n) errs.push(invalid(p, q.value(), 'must be a valid resource quantity'));
    if (q.sign() <= 0) errs.push(invalid(p, q.toString(), 'must be greater than zero'));
  }
  return errs;
}

/** `nodeAffinity`: a required node selector with at least one valid term. */
function validateVolumeNodeAffinity(affinity: Obj, path: FieldPath): FieldError[] {
  const selector = obj(affinity.required);
  if (!selector) return [required(path.child('required'), 'must specify required node constraints')];
  const probe = '@';
  const probePrefix = `${probe}.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`;
  const target = path.child('required').toString();
  return validateAffinity({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: selector } }, FieldPath.of(probe)).map((e) => ({
    ...e,
    field: e.field.startsWith(probePrefix) ? target + e.field.slice(probePrefix.length) : e.field,
  }));
}

/** Create and update: the spec of a PersistentVolume (upstream `ValidatePersistentVolumeSpec`). */
export function validatePersistentVolume(pv: Obj): FieldError[] {
  const spec = obj(pv.spec) ?? {};
  const errs = validateAccessModes(spec.accessModes, specPath.child('accessModes'));
  errs.push(...validateCapacity(spec.capacity, specPath.child('capacity')));
  const nodeAffinity = obj(spec.nodeAffinity);
  if (nodeAffinity) errs.push(...validateVolumeNodeAffinity(nodeAffinity, specPath.child('nodeAffinity')));
  const pvName = str(obj(pv.metadata)?.name);
  errs.push(...validatePersistentVolumeSource(spec, pvName, nodeAffinity !== undefined, specPath));
  const hostPath = obj(spec.hostPath);
  if (hostPath && posix.normalize(str(hostPath.path)).replace(/^\/+/, '/') === '/' && spec.persistentVolumeReclaimPolicy === 'Recycle')
    errs.push(forbidden(specPath.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  const className = str(spec.storageClassName);
  if (className) errs.push(...validateClassName(className, specPath.child('storageClassName')));
  if (typeof spec.volumeAttributesClassName === 'string') {
    const vac = spec.volumeAttributesClassName;
    const p = specPath.child('volumeAttributesClassName');
    errs.push(...(vac === '' ? [required(p, 'an empty string is disallowed')] : validateClassName(vac, p)));
    if (!obj(spec.csi)) errs.push(required(specPath.child('csi'), 'has to be specified when using volumeAttributesClassName'));
  }
  return errs;
}

/** The volume source part of a spec. */
function sourceOf(spec: Obj): Obj {
  return Object.fromEntries(PERSISTENT_VOLUME_SOURCE_KEYS.filter((k) => spec[k] !== undefined).map((k) => [k, spec[k]]));
}

/**
 * Update rules (upstream `ValidatePersistentVolumeUpdate`): the source is immutable (a CSI
 * `controllerExpandSecretRef` may be added), so are the volume mode and a set node affinity; the
 * volume attributes class cannot change while its feature (off in v1.30) is disabled.
 */
export function validatePersistentVolumeUpdate(pv: Obj, old: Obj): FieldError[] {
  const spec = obj(pv.spec) ?? {};
  const oldSpec = obj(old.spec) ?? {};
  const errs: FieldError[] = [];
  const source = sourceOf(spec);
  const oldSource = sourceOf(oldSpec);
  const csi = obj(source.csi);
  if (csi && obj(oldSource.csi) && obj(oldSource.csi)!.controllerExpandSecretRef === undefined) {
    const { controllerExpandSecretRef: _added, ...rest } = csi;
    source.csi = rest;
  }
  if (!semanticEqual(source, oldSource))
    errs.push(forbidden(specPath.child('persistentvolumesource'), `spec.persistentvolumesource is immutable after creation\n${diffLines(oldSource, source, 'spec')}`));
  if (spec.volumeMode !== oldSpec.volumeMode) errs.push(invalid('volumeMode', spec.volumeMode ?? null, IMMUTABLE));
  if (oldSpec.nodeAffinity !== undefined && !semanticEqual(spec.nodeAffinity, oldSpec.nodeAffinity))
    errs.push(invalid('nodeAffinity', spec.nodeAffinity ?? null, `${IMMUTABLE}, except for updating from beta label to GA`));
  if (spec.volumeAttributesClassName !== oldSpec.volumeAttributesClassName)
    errs.push(forbidden(specPath.child('volumeAttributesClassName'), 'update is forbidden when the VolumeAttributesClass feature gate is disabled'));
  return errs;
}
