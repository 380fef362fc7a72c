/**
 * The checks every converted object passes (upstream apiextensions-apiserver conversion
 * `validateConvertedObject` and `restoreObjectMeta`): a converter may change the labels and
 * annotations of an object and nothing else of its metadata. Other metadata fields are put back
 * from the original; identity fields that differ, and invalid labels or annotations, are errors.
 */
import { aggregateMessage } from '../../apimachinery/errors.js';
import { FieldPath, fieldErrorString } from '../../apimachinery/field-errors.js';
import { goJSONType } from '../../apimachinery/go-format.js';
import { validateAnnotations, validateLabels } from '../../apimachinery/validation/object-meta.js';

type Obj = Record<string, unknown>;

const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string field as upstream's unstructured getters read it (`''` when absent or not a string). */
export function stringField(obj: Obj, key: string): string {
  const v = obj[key];
  return typeof v === 'string' ? v : '';
}

/** A string field of `metadata` (`''` when absent or not a string). */
function metaString(obj: Obj, key: string): string {
  const m = obj.metadata;
  return isMap(m) ? stringField(m, key) : '';
}

/**
 * Identity checks of a converted object against its original: same kind, name, namespace and uid.
 * @returns upstream's message (`must have the same name: a != b`), or undefined when they match.
 */
export function validateConvertedObject(original: Obj, converted: Obj): string | undefined {
  const checks: Array<[string, string, string]> = [
    ['kind', stringField(original, 'kind'), stringField(converted, 'kind')],
    ['name', metaString(original, 'name'), metaString(converted, 'name')],
    ['namespace', metaString(original, 'namespace'), metaString(converted, 'namespace')],
    ['UID', metaString(original, 'uid'), metaString(converted, 'uid')],
  ];
  for (const [what, e, a] of checks) if (e !== a) return `must have the same ${what}: ${e} != ${a}`;
  return undefined;
}

const LABELS_PATH = FieldPath.of('metadata', 'labels');
/** Upstream validates converted annotations at `metadata.annotation` (sic). */
const ANNOTATIONS_PATH = FieldPath.of('metadata', 'annotation');

/**
 * Replaces `converted.metadata` (in place) with a deep copy of the original's metadata carrying
 * the converted object's labels and annotations (absent or null there: dropped). Changed labels
 * and annotations are validated.
 * @returns upstream's message (`missing metadata in converted object`, `metadata.labels[k] must
 *   be a string, but is int64 in converted object`, the aggregate of the field errors…), or
 *   undefined on success.
 */
export function restoreObjectMeta(original: Obj, converted: Obj): string | undefined {
  if (!('metadata' in converted)) return 'missing metadata in converted object';
  const response = converted.metadata;
  if (!isMap(response)) return `invalid metadata of type ${goJSONType(response)} in converted object`;
  const restored: unknown = 'metadata' in original ? structuredClone(original.metadata) : {};
  converted.metadata = restored;
  if (!isMap(restored)) return `invalid metadata of type ${goJSONType(restored)} in input object`;
  for (const fld of ['labels', 'annotations'] as const) {
    const answered = response[fld];
    if (answered === undefined || answered === null) {
      delete restored[fld];
      continue;
    }
    if (!isMap(answered)) return `invalid metadata.${fld} of type ${goJSONType(answered)} in converted object`;
    const before = restored[fld];
    if (before !== undefined && before !== null && !isMap(before)) return `invalid metadata.${fld} of type ${goJSONType(before)} in original object`;
    const prior = (before ?? {}) as Obj;
    const keys = Object.keys(answered);
    let changed = keys.length !== Object.keys(prior).length;
    for (const k of keys) {
      const v = answered[k];
      if (typeof v !== 'string') return `metadata.${fld}[${k}] must be a string, but is ${goJSONType(v)} in converted object`;
      if (prior[k] !== v) changed = true;
    }
    if (changed) {
      const errs = fld === 'labels' ? validateLabels(answered, LABELS_PATH) : validateAnnotations(answered, ANNOTATIONS_PATH);
      if (errs.length > 0) return aggregateMessage(errs.map(fieldErrorString));
    }
    restored[fld] = answered;
  }
  return undefined;
}
