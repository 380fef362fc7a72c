/**
 * PersistentVolumeClaim validation with the upstream paths and messages (v1.30
 * `ValidatePersistentVolumeClaimSpec`, `ValidatePersistentVolumeClaimUpdate`,
 * `ValidatePersistentVolumeClaimStatusUpdate`): access modes, a positive storage request, class
 * names, data sources; on update the spec is immutable except `resources.requests` of a bound
 * claim (which cannot shrink), a first `volumeName`, and the storage class upgrade paths.
 * ObjectMeta (DNS subdomain names) is checked by the caller.
 */
import { type FieldError, FieldPath, forbidden, GoSyntax, invalid, required } from '../../../apimachinery/field-errors.js';
import { validateLabelSelectorObject } from '../../../apimachinery/labels/validation.js';
import { Quantity } from '../../../apimachinery/quantity.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import type { Obj } from '../../define.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from '../../vendor.js';
import { obj, str, strMap } from './obj-access.js';
import { canonicalList, validateAccessModes, validateClassName } from './persistent-volume-validation.js';
import { parseQuantity, validateResourceQuantity } from './resources-validation.js';
import { diffLines, semanticEqual } from './semantic-equal.js';

const specPath = FieldPath.of('spec');
/** Upstream passes a `*field.Path` as the bad value here, which prints as `{}`. */
const FIELD_PATH_VALUE = new GoSyntax('{}');
const IMMUTABLE_SPEC = 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

/** `dataSource` / `dataSourceRef`: a core reference must name a claim; a group must be a DNS subdomain. */
function validateDataSource(ref: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiGroup = str(ref.apiGroup);
  if (apiGroup === '' && ref.kind !== 'PersistentVolumeClaim') errs.push(invalid(path, str(ref.kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (apiGroup !== '') errs.push(...isDNS1123Subdomain(apiGroup).map((m) => invalid(path.child('apiGroup'), apiGroup, m)));
  const namespace = str(ref.namespace);
  if (namespace !== '') errs.push(...isDNS1123Label(namespace).map((m) => invalid(path.child('namespace'), namespace, m)));
  return errs;
}

/** The storage request: required, positive, a valid amount. */
function validateStorageRequest(spec: Obj, path: FieldPath): FieldError[] {
  const storage = obj(obj(spec.resources)?.requests)?.storage;
  if (storage === undefined) return [required(path)];
  const q = parseQuantity(storage, path);
  if (!(q instanceof Quantity)) return [q];
  if (q.sign() <= 0) return [invalid(path, q.toString(), 'must be greater than zero')];
  return validateResourceQuantity('storage', q, path);
}

/** A claim spec at `path` (upstream `ValidatePersistentVolumeClaimSpec`). */
export function validatePersistentVolumeClaimSpec(spec: Obj, path: FieldPath): FieldError[] {
  const errs = validateAccessModes(spec.accessModes, path.child('accessModes'), 'at least 1 access mode is required');
  errs.push(...validateLabelSelectorObject(obj(spec.selector) as never, path.child('selector')));
  errs.push(...validateStorageRequest(spec, path.child('resources').key('storage')));
  const className = str(spec.storageClassName);
  if (className) errs.push(...validateClassName(className, path.child('storageClassName')));
  const dataSource = obj(spec.dataSource);
  const dataSourceRef = obj(spec.dataSourceRef);
  if (dataSource) errs.push(...validateDataSource(dataSource, path.child('dataSource')));
  if (dataSourceRef) errs.push(...validateDataSource(dataSourceRef, path.child('dataSourceRef')));
  if (dataSourceRef && str(dataSourceRef.namespace) !== '') {
    if (dataSource) errs.push(invalid(path, FIELD_PATH_VALUE, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (dataSource && dataSourceRef) {
    const same = (dataSource.apiGroup ?? null) === (dataSourceRef.apiGroup ?? null) && dataSource.kind === dataSourceRef.kind && dataSource.name === dataSourceRef.name;
    if (!same) errs.push(invalid(path, FIELD_PATH_VALUE, 'must match dataSourceRef'));
  }
  const vac = str(spec.volumeAttributesClassName);
  if (vac) errs.push(...validateClassName(vac, path.child('volumeAttributesClassName')));
  return errs;
}

/** Create and update: the claim's spec. */
export function validatePersistentVolumeClaim(pvc: Obj): FieldError[] {
  return validatePersistentVolumeClaimSpec(obj(pvc.spec) ?? {}, specPath);
}

/** Resource requests and limits with quantities in canonical form, so `1Gi` equals `1024Mi`. */
function withCanonicalResources(spec: Obj): Obj {
  const resources = obj(spec.resources);
  if (!resources) return spec;
  const r: Obj = { ...resources };
  if (obj(r.requests)) r.requests = canonicalList(obj(r.requests)!);
  if (obj(r.limits)) r.limits = canonicalList(obj(r.limits)!);
  return { ...spec, resources: r };
}

/** Upstream `validateStorageClassUpgradeFromAnnotation`: the class moves from the beta annotation to the field. */
function classFromAnnotation(oldAnn: Record<string, string>, newAnn: Record<string, string>, oldClass: unknown, newClass: unknown): boolean {
  const oldSc = oldAnn[BETA_STORAGE_CLASS_ANNOTATION];
  if (oldSc === undefined || oldClass !== undefined || newClass !== oldSc) return false;
  const newSc = newAnn[BETA_STORAGE_CLASS_ANNOTATION];
  return newSc === undefined || newSc === oldSc;
}

/** The storage request of a spec as a quantity (zero when absent or invalid). */
function storageOf(spec: Obj): Quantity {
  const q = parseQuantity(obj(obj(spec.resources)?.requests)?.storage ?? '0', specPath);
  return q instanceof Quantity ? q : Quantity.parse('0');
}

/** Update rules of a claim (upstream `ValidatePersistentVolumeClaimUpdate`, feature gates of v1.30). */
export function validatePersistentVolumeClaimUpdate(pvc: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj(pvc.spec) ?? {};
  const oldSpec = obj(old.spec) ?? {};
  const next: Obj = { ...spec };
  const prev: Obj = { ...oldSpec };
  if (!str(oldSpec.volumeName)) prev.volumeName = spec.volumeName;
  const newAnn = strMap(obj(pvc.metadata)?.annotations);
  const oldAnn = strMap(obj(old.metadata)?.annotations);
  if (classFromAnnotation(oldAnn, newAnn, oldSpec.storageClassName, spec.storageClassName)) {
    delete next.storageClassName;
  } else {
    const newSc = newAnn[BETA_STORAGE_CLASS_ANNOTATION] ?? '';
    if (newSc !== (oldAnn[BETA_STORAGE_CLASS_ANNOTATION] ?? ''))
      errs.push(invalid(`metadata.annotations.${BETA_STORAGE_CLASS_ANNOTATION}`, newSc, 'field is immutable'));
    const oldSc = oldAnn[BETA_STORAGE_CLASS_ANNOTATION];
    if (spec.storageClassName !== undefined && oldSpec.storageClassName === undefined && (oldSc === undefined || spec.storageClassName === oldSc))
      prev.storageClassName = spec.storageClassName;
  }
  if (obj(pvc.status)?.phase === 'Bound' && obj(next.resources)?.requests) {
    const resources = { ...obj(next.resources) };
    resources.requests = { ...obj(resources.requests), storage: obj(obj(oldSpec.resources)?.requests)?.storage };
    next.resources = resources;
  }
  next.volumeAttributesClassName = prev.volumeAttributesClassName;
  const a = withCanonicalResources(prev);
  const b = withCanonicalResources(next);
  if (!semanticEqual(b, a)) errs.push(forbidden(specPath, `${IMMUTABLE_SPEC}\n${diffLines(a, b, 'spec')}`));
  if (storageOf(spec).cmp(storageOf(oldSpec)) < 0) errs.push(forbidden('spec.resources.requests.storage', 'field can not be less than previous value'));
  if (spec.volumeMode !== oldSpec.volumeMode) errs.push(invalid('volumeMode', spec.volumeMode ?? null, 'field is immutable'));
  if (spec.volumeAttributesClassName !== oldSpec.volumeAttributesClassName)
    errs.push(forbidden(specPath.child('volumeAttributesClassName'), 'update is forbidden when the VolumeAttributesClass feature gate is disabled'));
  return errs;
}

/** A status write (upstream `ValidatePersistentVolumeClaimStatusUpdate`): capacities are valid amounts. */
export function validatePersistentVolumeClaimStatusUpdate(pvc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const accessModes = obj(pvc.spec)?.accessModes;
  if (!Array.isArray(accessModes) || accessModes.length === 0) errs.push(required('Spec.accessModes'));
  const capacity = obj(obj(pvc.status)?.capacity) ?? {};
  const path = FieldPath.of('status', 'capacity');
  for (const [name, value] of Object.entries(capacity)) {
    const q = parseQuantity(value, path.key(name));
    if (!(q instanceof Quantity)) errs.push(q);
    else if (q.value() < 0n) errs.push(invalid(path.key(name), q.value(), 'must be a valid resource quantity'));
  }
  return errs;
}
