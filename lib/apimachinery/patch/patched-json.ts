/**
 * The JSON text upstream's patch libraries (evanphx/json-patch v4) produce for a patched object,
 * which upstream quotes when the result does not decode (a 422 on the field `patch`; spec 001
 * § Errors). The library holds the object as raw JSON and parses only the containers a patch
 * reaches: those are written again from a Go map (keys sorted), every other part keeps the bytes it
 * was read with (the object as the server encodes it, or the patch's own value as the client wrote
 * it). Pure; never throws.
 */
import { isObject } from '../managedfields/typeinfo.js';
import { goJSONSorting } from '../serializers/go-json.js';

type Json = unknown;
type JsonObject = Record<string, Json>;

/**
 * The library's `MergePatch(current, patch)` output for an object patch: the root and every
 * object both sides hold are merged maps (sorted), a patch value merged where the object has no
 * object loses its null members at every level (the library's `pruneNulls`, which parses it), and
 * a non-object patch value over an object is written as the client wrote it. `current` is the
 * object as served (the order upstream encodes it in); neither input is changed.
 */
export function mergePatchedJSON(current: JsonObject, patch: JsonObject): string {
  const sorted = new Set<object>();
  return goJSONSorting(mergeDocs(current, patch, sorted), (o) => sorted.has(o));
}

function mergeDocs(doc: JsonObject, patch: JsonObject, sorted: Set<object>): JsonObject {
  const out: JsonObject = { ...doc };
  sorted.add(out);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (out[k] === undefined || out[k] === null) out[k] = pruneNulls(v, sorted);
    else if (!isObject(out[k])) out[k] = pruneNulls(v, sorted);
    else out[k] = isObject(v) ? mergeDocs(out[k] as JsonObject, v, sorted) : v;
  }
  return out;
}

/** The library's `pruneNulls`: objects parsed (so sorted) without their null members, at every level; arrays keep their nulls. */
function pruneNulls(v: Json, sorted: Set<object>): Json {
  if (Array.isArray(v)) return v.map((x) => (x === null ? null : pruneNulls(x, sorted)));
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = pruneNulls(x, sorted);
  sorted.add(out);
  return out;
}

/**
 * The library's `Patch.Apply` output: `patched` (the result of applying the operations to the
 * object as served) with the root and every container an operation's path or `from` walked
 * through (`walked`, filled by applyJSONPatch) written sorted, the rest in the order it had.
 */
export function jsonPatchedJSON(patched: Json, walked: ReadonlySet<object>): string {
  return goJSONSorting(patched, (o) => o === patched || walked.has(o));
}
