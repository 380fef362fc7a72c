/**
 * Strategic merge patch (`application/strategic-merge-patch+json`, spec 000 § Patch content
 * types): a JSON merge patch whose lists merge by the schema's patch strategy — lists of structs
 * with a `patchMergeKey` merge entry by entry, primitive lists with strategy `merge` are unions,
 * other lists are replaced — plus the directives `$patch` (replace / delete / merge),
 * `$retainKeys`, `$deleteFromPrimitiveList/<field>` and `$setElementOrder/<field>`.
 * Inputs are never mutated, and the result shares nothing with the patch (a retry on conflict
 * applies the same patch again to an object the decoder then prunes and defaults in place).
 */
import { deepCopy } from '../deep-equal.js';
import { newBadRequest } from '../errors.js';
import { type ListSchema, type Schema, structFields } from '../schema/types.js';

type Json = unknown;
type JsonMap = Record<string, Json>;

const PATCH = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';
const SET_ELEMENT_ORDER = '$setElementOrder/';
/** Marks a list item deleted by a `$patch: delete` until the list is compacted. */
const REMOVED = Symbol('removed');

function isMap(v: Json): v is JsonMap {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The schema of a map entry or struct field; undefined = unknown (treated as a merge-patch map). */
function childSchema(s: Schema | undefined, key: string): Schema | undefined {
  if (!s) return undefined;
  if (s.type === 'struct') return structFields(s)[key]?.schema;
  if (s.type === 'map') return s.values;
  return undefined;
}

function listStrategy(s: Schema | undefined): { merge: boolean; key?: string } {
  if (!s || s.type !== 'list') return { merge: false };
  const l = s as ListSchema;
  const merge = l.patchStrategy?.split(',').includes('merge') ?? false;
  return { merge, key: l.patchMergeKey };
}

function fail(message: string): never {
  throw newBadRequest(message);
}

/** The JSON text of `item`'s merge key, or undefined when it is not a map holding the key. */
function keyText(item: Json, key: string): string | undefined {
  return isMap(item) && item[key] !== undefined ? JSON.stringify(item[key]) : undefined;
}

/** The JSON text an item is ordered by: its merge key's value (undefined when it has none), or the item itself. */
function orderText(item: Json, key: string | undefined): string | undefined {
  if (!key) return JSON.stringify(item);
  return isMap(item) && item[key] !== undefined ? JSON.stringify(item[key]) : undefined;
}

/** Orders `merged` by `order` (list of keys or values); unlisted items keep their relative place after listed ones. */
function applyOrder(merged: Json[], order: Json[], key: string | undefined): Json[] {
  const rank = new Map<string, number>();
  order.forEach((o, i) => {
    const id = orderText(o, key);
    if (id !== undefined && !rank.has(id)) rank.set(id, i);
  });
  const ranked = merged.map((item) => {
    const id = orderText(item, key);
    return { item, at: id === undefined ? -1 : (rank.get(id) ?? -1) };
  });
  const listed = ranked.filter((r) => r.at >= 0).sort((a, b) => a.at - b.at);
  const unlisted = ranked.filter((r) => r.at < 0);
  return [...listed, ...unlisted].map((r) => r.item);
}

function mergeList(original: Json, patch: Json[], s: Schema | undefined, field: string): Json[] {
  const { merge, key } = listStrategy(s);
  const orig = Array.isArray(original) ? original : [];
  const replaceDirective = patch.find((p) => isMap(p) && p[PATCH] === 'replace' && Object.keys(p).length === 1);
  if (replaceDirective) return deepCopy(patch.filter((p) => p !== replaceDirective));
  if (!merge) return deepCopy(patch);
  const items = (s as ListSchema).items;
  if (key === undefined || items.type !== 'struct') {
    // A set union, in order: each patch value not yet present is appended.
    const out = [...orig];
    const present = new Set(out.map((o) => JSON.stringify(o)));
    for (const v of patch) {
      const text = JSON.stringify(v);
      if (present.has(text)) continue;
      present.add(text);
      out.push(deepCopy(v));
    }
    return out;
  }
  // Items are found by their merge key's JSON text through an index, so a patch of m items costs
  // O(n + m) on a list of n, not O(n·m) (8,000 deletions from 16,000 items took 12 s by scanning).
  const out: (Json | typeof REMOVED)[] = [...orig];
  const at = new Map<string, number[]>();
  out.forEach((o, i) => {
    const k = keyText(o, key);
    if (k === undefined) return;
    const list = at.get(k);
    if (list) list.push(i);
    else at.set(k, [i]);
  });
  for (const p of patch) {
    if (!isMap(p)) fail(`invalid patch: list ${field} with merge key ${key} has a non-object element`);
    if (p[key] === undefined) fail(`map: ${JSON.stringify(p)} does not contain declared merge key: ${key}`);
    const k = JSON.stringify(p[key]);
    const found = at.get(k);
    const directive = p[PATCH];
    if (directive === 'delete') {
      // Every item with the key goes, as upstream deletes all matching entries.
      for (const i of found ?? []) out[i] = REMOVED;
      at.delete(k);
      continue;
    }
    if (directive !== undefined && directive !== 'merge' && directive !== 'replace') fail(`Unknown patch type: ${String(directive)}`);
    if (found) out[found[0]!] = mergeValue(out[found[0]!], p, items);
    else {
      at.set(k, [out.length]);
      out.push(mergeValue(undefined, p, items));
    }
  }
  return out.filter((o): o is Json => o !== REMOVED);
}

function mergeMap(original: Json, patch: JsonMap, s: Schema | undefined): Json {
  const directive = patch[PATCH];
  if (directive === 'delete') return undefined;
  if (directive === 'replace') {
    const { [PATCH]: _d, ...rest } = patch;
    return stripDirectives(rest);
  }
  if (directive !== undefined && directive !== 'merge') fail(`Unknown patch type: ${String(directive)}`);
  const out: JsonMap = isMap(original) ? { ...original } : {};
  const orders: [string, Json[]][] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (k === PATCH || k === RETAIN_KEYS) continue;
    if (k.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      const field = k.slice(DELETE_FROM_PRIMITIVE_LIST.length);
      if (!Array.isArray(v)) fail(`invalid patch: ${k} must be a list`);
      const gone = new Set(v.map((d) => JSON.stringify(d)));
      if (Array.isArray(out[field])) out[field] = (out[field] as Json[]).filter((x) => !gone.has(JSON.stringify(x)));
      continue;
    }
    if (k.startsWith(SET_ELEMENT_ORDER)) {
      if (!Array.isArray(v)) fail(`invalid patch: ${k} must be a list`);
      orders.push([k.slice(SET_ELEMENT_ORDER.length), v]);
      continue;
    }
    if (v === null) {
      delete out[k];
      continue;
    }
    const merged = mergeValue(out[k], v, childSchema(s, k), k);
    if (merged === undefined) delete out[k];
    else out[k] = merged;
  }
  for (const [field, order] of orders) {
    if (Array.isArray(out[field])) out[field] = applyOrder(out[field] as Json[], order, listStrategy(childSchema(s, field)).key);
  }
  const retain = patch[RETAIN_KEYS];
  if (retain !== undefined) {
    if (!Array.isArray(retain)) fail(`invalid patch: ${RETAIN_KEYS} must be a list`);
    const kept = new Set(retain);
    for (const k of Object.keys(out)) if (!kept.has(k)) delete out[k];
  }
  return out;
}

function mergeValue(original: Json, patch: Json, s: Schema | undefined, field = ''): Json {
  if (Array.isArray(patch)) return mergeList(original, patch, s, field);
  if (isMap(patch)) {
    if (s && s.type !== 'struct' && s.type !== 'map' && s.type !== 'raw') return stripDirectives(patch);
    if (s?.type === 'raw') return mergePlain(original, patch);
    return mergeMap(original, patch, s);
  }
  return patch;
}

/** Plain JSON merge patch (RFC 7386) for values without a schema (raw extensions). */
function mergePlain(original: Json, patch: Json): Json {
  if (!isMap(patch)) return patch;
  const out: JsonMap = isMap(original) ? { ...original } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePlain(out[k], v);
  }
  return out;
}

function stripDirectives(v: Json): Json {
  if (Array.isArray(v)) return v.filter((x) => !(isMap(x) && Object.keys(x).length === 1 && x[PATCH] !== undefined)).map(stripDirectives);
  if (!isMap(v)) return v;
  const out: JsonMap = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === PATCH || k === RETAIN_KEYS || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    out[k] = stripDirectives(x);
  }
  return out;
}

/**
 * Applies a strategic merge patch to `original` (an object of `schema`) and returns the result.
 * Throws 400 BadRequest for a patch that is not an object or has invalid directives.
 */
export function applyStrategicMergePatch(original: JsonMap, patch: Json, schema: Schema): JsonMap {
  if (!isMap(patch)) fail('error decoding patch: json: cannot unmarshal non-object into Go value of type map[string]interface {}');
  const out = mergeMap(original, patch, schema);
  return isMap(out) ? out : {};
}
