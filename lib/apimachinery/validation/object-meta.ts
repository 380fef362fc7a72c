/**
 * ObjectMeta validation on create and update, with upstream messages and field paths
 * (spec 000 § Type and object metadata, § Naming rules; spec 001 § Errors 422).
 */
import { type FieldError, FieldPath, forbidden, invalid, required, tooLong } from '../field-errors.js';
import { validateLabelMap } from './label-map.js';
import { checkName, isDNS1123Label, isQualifiedName, type NameRule } from './names.js';

/** Upper bound of the summed size of all annotation keys and values (256 KiB). */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

type Obj = Record<string, unknown>;

const metaPath = FieldPath.of('metadata');

/** Validates `metadata.labels`: qualified-name keys and label values, all errors at `path`. */
export function validateLabels(labels: unknown, path: FieldPath = metaPath.child('labels')): FieldError[] {
  return validateLabelMap(labels, path);
}

/** Validates `metadata.annotations`: qualified-name keys (case-insensitive), total size ≤ 256 KiB. */
export function validateAnnotations(annotations: unknown, path: FieldPath = metaPath.child('annotations')): FieldError[] {
  const errs: FieldError[] = [];
  if (annotations === undefined || annotations === null) return errs;
  let total = 0;
  for (const [k, v] of Object.entries(annotations as Record<string, unknown>)) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalid(path, k, m));
    total += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLong(path, '', TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

/** The finalizers of the orphan and foreground deletion propagation policies (metav1). */
const ORPHAN_FINALIZER = 'orphan';
const FOREGROUND_FINALIZER = 'foregroundDeletion';

/**
 * Validates `metadata.finalizers` as upstream ValidateFinalizers: each name a qualified name
 * (reported with that name), and not both the orphan and the foreground finalizer.
 */
function validateFinalizers(finalizers: unknown): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(finalizers)) return errs;
  const path = metaPath.child('finalizers');
  for (const f of finalizers as string[]) {
    for (const m of isQualifiedName(f)) errs.push(invalid(path, f, m));
  }
  if (finalizers.includes(ORPHAN_FINALIZER) && finalizers.includes(FOREGROUND_FINALIZER)) {
    errs.push(invalid(path, finalizers, `finalizer ${ORPHAN_FINALIZER} and ${FOREGROUND_FINALIZER} cannot be both set`));
  }
  return errs;
}

/** The version of an apiVersion as upstream ParseGroupVersion reads it ('' when there is none). */
function versionOf(apiVersion: string): string {
  const slashes = apiVersion.split('/').length - 1;
  if (slashes === 0) return apiVersion;
  if (slashes === 1) return apiVersion.slice(apiVersion.indexOf('/') + 1);
  return '';
}

/**
 * Validates `metadata.ownerReferences` as upstream ValidateOwnerReferences: apiVersion (with a
 * version), kind, name and uid set; every controller reference after the first is an error
 * naming the first and that one (`Kind/name`).
 */
function validateOwnerReferences(refs: unknown): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(refs)) return errs;
  const path = metaPath.child('ownerReferences');
  let firstController = '';
  for (const r of refs as Obj[]) {
    if (!versionOf((r.apiVersion as string | undefined) ?? '')) errs.push(invalid(path.child('apiVersion'), r.apiVersion ?? '', 'version must not be empty'));
    if (!r.kind) errs.push(invalid(path.child('kind'), r.kind ?? '', 'kind must not be empty'));
    if (!r.name) errs.push(invalid(path.child('name'), r.name ?? '', 'name must not be empty'));
    if (!r.uid) errs.push(invalid(path.child('uid'), r.uid ?? '', 'uid must not be empty'));
    if (r.controller === true) {
      const current = `${String(r.kind ?? '')}/${String(r.name ?? '')}`;
      if (firstController) {
        errs.push(invalid(path, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

/**
 * Validates ObjectMeta on create. `namespaced` decides whether `metadata.namespace` is required
 * or forbidden; `nameRule` is the kind's name syntax.
 */
export function validateObjectMeta(meta: Obj | undefined, namespaced: boolean, nameRule: NameRule): FieldError[] {
  const m = meta ?? {};
  const errs: FieldError[] = [];
  const name = (m.name as string | undefined) ?? '';
  const generateName = (m.generateName as string | undefined) ?? '';
  if (generateName) {
    for (const msg of checkName(nameRule, generateName, true)) errs.push(invalid(metaPath.child('generateName'), generateName, msg));
  }
  if (!name) {
    errs.push(required(metaPath.child('name'), 'name or generateName is required'));
  } else {
    for (const msg of checkName(nameRule, name)) errs.push(invalid(metaPath.child('name'), name, msg));
  }
  const ns = (m.namespace as string | undefined) ?? '';
  if (namespaced) {
    if (!ns) errs.push(required(metaPath.child('namespace')));
    else for (const msg of isDNS1123Label(ns)) errs.push(invalid(metaPath.child('namespace'), ns, msg));
  } else if (ns) {
    errs.push(forbidden(metaPath.child('namespace'), 'not allowed on this type'));
  }
  if (typeof m.generation === 'number' && m.generation < 0)
    errs.push(invalid(metaPath.child('generation'), m.generation, 'must be greater than or equal to 0'));
  errs.push(...validateLabels(m.labels));
  errs.push(...validateAnnotations(m.annotations));
  errs.push(...validateOwnerReferences(m.ownerReferences));
  errs.push(...validateFinalizers(m.finalizers));
  return errs;
}

const immutable = (field: string, value: unknown) => invalid(metaPath.child(field), value, 'field is immutable');

/**
 * Validates an ObjectMeta update: name, namespace, uid, creationTimestamp, deletionTimestamp
 * and deletionGracePeriodSeconds are immutable; no new finalizer may be added once
 * `deletionTimestamp` is set; labels etc. as on create.
 */
export function validateObjectMetaUpdate(meta: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['name', 'namespace', 'uid', 'creationTimestamp']) {
    if ((meta[f] ?? '') !== (old[f] ?? '')) errs.push(immutable(f, meta[f] ?? ''));
  }
  // Set, changed or removed: only deletion sets these (upstream ValidateImmutableField).
  for (const f of ['deletionTimestamp', 'deletionGracePeriodSeconds']) {
    if ((meta[f] ?? null) !== (old[f] ?? null)) errs.push(immutable(f, meta[f] ?? null));
  }
  if (old.deletionTimestamp) {
    // Listed once each, sorted, as upstream prints sets.String.List().
    const before = new Set((old.finalizers as string[] | undefined) ?? []);
    const added = [...new Set(((meta.finalizers as string[] | undefined) ?? []).filter((f) => !before.has(f)))].sort();
    if (added.length > 0)
      errs.push(
        forbidden(
          metaPath.child('finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
        ),
      );
  }
  errs.push(...validateLabels(meta.labels));
  errs.push(...validateAnnotations(meta.annotations));
  errs.push(...validateOwnerReferences(meta.ownerReferences));
  errs.push(...validateFinalizers(meta.finalizers));
  return errs;
}
