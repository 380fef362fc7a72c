/**
 * Hand-over from client-side to server-side apply (issue #23 item 5), following upstream's two
 * field-manager steps for it (k8s.io/apimachinery `managedfields/internal`, wrapped around the
 * apply chain in this order):
 *
 * 1. lastAppliedManager: an apply by the manager `kubectl` that fails with conflicts is retried
 *    with force when every conflicting field is allowed by the live object's last-applied
 *    annotation — the fields of the annotation's object that have the same value in the live
 *    object (its field set minus what the comparison of the two finds modified, added or
 *    removed). Otherwise only the conflicts not allowed are reported. No annotation, or one that
 *    cannot be read as an object of the served apiVersion and kind: the conflicts as they are.
 * 2. lastAppliedUpdater: after a successful apply by `kubectl`, when the resulting object carries
 *    a non-empty annotation, it is rewritten to the applied configuration without the annotation,
 *    encoded as upstream's unstructured JSON scheme does (Go encoding/json: keys sorted,
 *    HTML-safe escapes, a trailing newline), so the next client-side apply computes its patch
 *    from what was applied last. When that makes the annotations exceed their 256 KiB total, the
 *    annotation is dropped instead (upstream SetLastApplied).
 *
 * Any other manager keeps the plain apply() behaviour: the opt-out upstream documents.
 */
import { LAST_APPLIED_CONFIG_ANNOTATION } from '../../apis/vendor.js';
import { deepCopy } from '../deep-equal.js';
import { decodeObject } from '../schema/decode.js';
import type { Schema, StructSchema } from '../schema/types.js';
import { TOTAL_ANNOTATION_SIZE_LIMIT } from '../validation/object-meta.js';
import { apply, type ApplyConflicts, type ApplyOptions, type ApplySuccess } from './apply.js';
import { compare } from './compare.js';
import { toFieldSet } from './extract.js';
import type { Path } from './path.js';
import type { FieldSet } from './set.js';
import { fits, indexList, isAtomic, isObject, memberSchema, resolve, TypedValueError } from './typeinfo.js';
import type { Obj } from './update.js';
import { goJSON } from '../serializers/go-json.js';

/** The only manager whose applies take over from client-side apply (kubectl's default for `--server-side`). */
export const LAST_APPLIED_MANAGER = 'kubectl';

/** Input of applyWithLastApplied(). */
export interface LastAppliedApplyOptions extends ApplyOptions {
  /**
   * The applied object exactly as the body decoded (before the typed decoding drops nulls and
   * prunes unknown fields): upstream encodes this one into the annotation. Default: `config`.
   */
  applied?: Obj;
}

/** apply() with upstream's client-side-apply hand-over and last-applied rewrite (see the module doc). */
export function applyWithLastApplied(o: LastAppliedApplyOptions): ApplySuccess | ApplyConflicts {
  let r = apply(o);
  if (o.manager !== LAST_APPLIED_MANAGER) return r;
  if (r.conflicts) {
    const allowed = allowedConflictsFromLastApplied(o.live, o.apiVersion, o.kind, o.schema);
    if (!allowed) return r;
    const paths = r.paths;
    const remaining = r.conflicts.flatMap((c, i) => (allowed.has(paths[i]!) ? [] : [{ conflict: c, path: paths[i]! }]));
    if (remaining.length > 0) return { conflicts: remaining.map((x) => x.conflict), paths: remaining.map((x) => x.path) };
    r = apply({ ...o, force: true });
    if (r.conflicts) return r;
  }
  const previous = lastAppliedOf(r.object);
  if (previous !== undefined) {
    setLastApplied(r.object, buildLastApplied(o.applied ?? o.config));
    if (lastAppliedOf(r.object) !== previous) r = { ...r, changed: true };
  }
  return r;
}

/** The annotation's value on `obj`, when it is a non-empty string. */
function lastAppliedOf(obj: Obj | undefined): string | undefined {
  const meta = obj?.metadata;
  const annotations = isObject(meta) ? meta.annotations : undefined;
  const value = isObject(annotations) ? annotations[LAST_APPLIED_CONFIG_ANNOTATION] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Upstream hasLastApplied: the object carries a non-empty annotation. */
export function hasLastApplied(obj: Obj | undefined): boolean {
  return lastAppliedOf(obj) !== undefined;
}

/**
 * Upstream allowedConflictsFromLastApplied: the fields of the last-applied object whose value is
 * the live one, or undefined when there is nothing to allow (no annotation; not a JSON object
 * with a kind; another apiVersion than the served one; not an object of the kind — type errors,
 * unknown fields, duplicate or unkeyable list items; a live object that cannot be typed).
 */
export function allowedConflictsFromLastApplied(live: Obj | undefined, apiVersion: string, kind: string, schema: StructSchema): FieldSet | undefined {
  const text = lastAppliedOf(live);
  if (text === undefined || live === undefined) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Unstructured decoding requires a kind; the type converter picks the type by apiVersion and
  // kind, and only an object of the served kind has a schema here.
  if (!isObject(last) || typeof last.kind !== 'string' || last.kind === '') return undefined;
  if (last.apiVersion !== apiVersion || last.kind !== kind) return undefined;
  const check = decodeObject(schema, deepCopy(last), false);
  if (check.typeError !== undefined || check.unknownFields.length > 0) return undefined;
  try {
    if (hasDuplicates(last, schema, []) || hasDuplicates(live, schema, [])) return undefined;
    const set = toFieldSet(last, schema);
    const cmp = compare(last, live, schema);
    return set.difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
  } catch (e) {
    if (e instanceof TypedValueError) return undefined;
    throw e;
  }
}

/**
 * True when a set- or map-list holds two items with the same key: upstream types these objects
 * without AllowDuplicates, and that fails. Throws TypedValueError for an item without its keys.
 */
function hasDuplicates(value: unknown, schema: Schema | undefined, path: Path): boolean {
  const node = resolve(schema, value);
  if (value === null || value === undefined || node.kind === 'scalar' || isAtomic(node) || !fits(node, value)) return false;
  if (node.kind === 'list') {
    const index = indexList(node, value as unknown[], path);
    if (index.pes.length !== (value as unknown[]).length) return true;
    return index.pes.some((pe) => hasDuplicates(index.items.get(pe.id)![0], node.items, [...path, pe]));
  }
  return Object.entries(value as Obj).some(([k, v]) => hasDuplicates(v, memberSchema(node, k), path));
}

/**
 * Upstream buildLastApplied: the applied object without the annotation, as the unstructured JSON
 * scheme encodes it. As Unstructured.SetAnnotations does, `metadata.annotations` that is not a map
 * of strings (null included) is dropped; an empty map stays.
 */
export function buildLastApplied(applied: Obj): string {
  const copy = deepCopy(applied);
  const meta = copy.metadata;
  if (isObject(meta) && 'annotations' in meta) {
    const annotations = meta.annotations;
    if (isObject(annotations) && Object.values(annotations).every((v) => typeof v === 'string')) delete annotations[LAST_APPLIED_CONFIG_ANNOTATION];
    else delete meta.annotations;
  }
  return `${goJSON(copy)}\n`;
}

/**
 * Upstream SetLastApplied: sets the annotation on `obj` (in place), or removes it when the
 * annotations would then exceed TOTAL_ANNOTATION_SIZE_LIMIT (keys and values, in UTF-8 bytes).
 */
export function setLastApplied(obj: Obj, value: string): void {
  const meta = (isObject(obj.metadata) ? obj.metadata : (obj.metadata = {})) as Obj;
  const annotations = (isObject(meta.annotations) ? meta.annotations : (meta.annotations = {})) as Obj;
  annotations[LAST_APPLIED_CONFIG_ANNOTATION] = value;
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) total += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED_CONFIG_ANNOTATION];
}
