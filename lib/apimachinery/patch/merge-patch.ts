/**
 * JSON Merge Patch (RFC 7386), without mutating its inputs (spec 000 § Patch content types:
 * `application/merge-patch+json`). The `json-merge-patch` package mutates its input
 * (LIBRARIES.md), hence this small implementation.
 */
import { deepCopy, deepCopySharingFrozen } from '../deep-equal.js';

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Applies `patch` to `target` and returns the result; `null` in the patch removes a key. The
 * result shares no structure with either input but frozen objects (shared `fieldsV1` trees),
 * which nothing can change, so later changes to it reach neither.
 */
export function applyMergePatch(target: Json, patch: Json): Json {
  return mergeInto(deepCopySharingFrozen(target), patch);
}

/** Merges `patch` into `target`, a private copy that may be modified (but for its frozen objects). */
function mergeInto(target: Json, patch: Json): Json {
  if (!isObject(patch)) return deepCopy(patch);
  // A frozen object of the target was shared, not copied: it is copied here, one level at a time.
  const out: Record<string, Json> = isObject(target) ? (Object.isFrozen(target) ? { ...target } : target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergeInto(out[k], v);
  }
  return out;
}
