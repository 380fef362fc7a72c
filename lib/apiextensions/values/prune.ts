/**
 * Structural pruning of a custom resource (upstream apiextensions schema/pruning/algorithm.go,
 * PruneWithOptions with unknown field tracking, followed by the ObjectMeta decoding of the
 * embedded resources' and the root's metadata — schema/objectmeta Coerce and
 * GetObjectMetaWithOptions). spec 000 § Field validation levels (the returned paths feed
 * `fieldValidation=Strict|Warn`).
 */
import { EXT, type JSONSchemaProps } from '../types.js';
import { compiled } from './compile.js';
import { dropUnknownMetadataFields } from './object-meta-fields.js';

type Obj = Record<string, unknown>;

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const itemsOf = (s: JSONSchemaProps): JSONSchemaProps | undefined => (Array.isArray(s.items) ? undefined : s.items);
const additionalOf = (s: JSONSchemaProps): JSONSchemaProps | undefined =>
  typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
const hasAdditional = (s: JSONSchemaProps): boolean => s.additionalProperties !== undefined && s.additionalProperties !== false;

/** The pruning state: the current path (as segments) and the removed paths. */
interface Walk {
  path: string[];
  pruned: string[];
}

function appendKey(w: Walk, key: string): void {
  if (w.path.length > 0) w.path.push('.');
  w.path.push(key);
}

function record(w: Walk, key: string): void {
  const len = w.path.length;
  appendKey(w, key);
  w.pruned.push(w.path.join(''));
  w.path.length = len;
}

function prune(x: unknown, s: JSONSchemaProps | undefined, embedded: boolean, w: Walk): void {
  if (s !== undefined && s[EXT.preserveUnknownFields] === true) {
    skipPrune(x, s, embedded, w);
    return;
  }
  const len = w.path.length;
  if (Array.isArray(x)) {
    const items = s === undefined ? undefined : itemsOf(s);
    x.forEach((v, i) => {
      w.path.push('[', String(i), ']');
      prune(v, items, items?.[EXT.embeddedResource] === true, w);
      w.path.length = len;
    });
    return;
  }
  if (!isObject(x)) return;
  if (s === undefined) {
    for (const k of Object.keys(x)) {
      record(w, k);
      delete x[k];
    }
    return;
  }
  for (const k of Object.keys(x)) {
    if (embedded && META_FIELDS.has(k)) continue;
    const prop = compiled(s).properties.get(k);
    if (prop !== undefined) {
      appendKey(w, k);
      prune(x[k], prop, prop[EXT.embeddedResource] === true, w);
    } else if (hasAdditional(s)) {
      const add = additionalOf(s);
      appendKey(w, k);
      prune(x[k], add, add?.[EXT.embeddedResource] === true, w);
    } else {
      if (!META_FIELDS.has(k) || len > 0) record(w, k);
      delete x[k];
    }
    w.path.length = len;
  }
}

function skipPrune(x: unknown, s: JSONSchemaProps, embedded: boolean, w: Walk): void {
  const len = w.path.length;
  if (Array.isArray(x)) {
    const items = itemsOf(s);
    if (items === undefined) return;
    x.forEach((v, i) => {
      w.path.push('[', String(i), ']');
      skipPrune(v, items, items[EXT.embeddedResource] === true, w);
      w.path.length = len;
    });
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    if (embedded && META_FIELDS.has(k)) continue;
    const prop = compiled(s).properties.get(k);
    const sub = prop ?? additionalOf(s);
    if (sub === undefined) continue;
    appendKey(w, k);
    prune(x[k], sub, sub[EXT.embeddedResource] === true, w);
    w.path.length = len;
  }
}

/**
 * Drops unknown metadata fields of every embedded resource (objectmeta Coerce, which is not
 * told the root is a resource: the root's metadata is decoded afterwards).
 */
function coerceEmbedded(x: unknown, s: JSONSchemaProps | undefined, path: string, out: string[]): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsOf(s);
    x.forEach((v, i) => coerceEmbedded(v, items, `${path}[${i}]`, out));
    return;
  }
  if (!isObject(x)) return;
  if (s[EXT.embeddedResource] === true) out.push(...dropUnknownMetadataFields(x, path === '' ? '' : `${path}.`));
  const add = additionalOf(s);
  for (const k of Object.keys(x)) {
    const prop = compiled(s).properties.get(k);
    if (prop !== undefined) coerceEmbedded(x[k], prop, path === '' ? k : `${path}.${k}`, out);
    else if (add !== undefined) coerceEmbedded(x[k], add, `${path}[${k}]`, out);
  }
}

/**
 * Prunes `obj` in place to the fields its structural schema specifies and returns the removed
 * field paths in upstream's spelling and order: first the pruned paths sorted
 * (`spec.foo`, `spec.list[1].bar`, `spec.map.key.baz`), then unknown metadata fields of
 * embedded resources (`spec.template.metadata.foo`), then — at a resource root — unknown
 * fields of the root's `metadata` (`metadata.foo`). At a resource root and inside
 * `x-<vendor>-embedded-resource` objects `apiVersion`, `kind` and `metadata` are kept;
 * `x-<vendor>-preserve-unknown-fields` keeps unknown fields while still pruning inside known
 * properties and additionalProperties. Never throws.
 */
export function pruneUnknownFields(obj: Record<string, unknown>, schema: JSONSchemaProps, opts: { isResourceRoot: boolean }): string[] {
  const w: Walk = { path: [], pruned: [] };
  prune(obj, schema, opts.isResourceRoot || schema[EXT.embeddedResource] === true, w);
  const out = w.pruned.sort();
  coerceEmbedded(obj, schema, '', out);
  if (opts.isResourceRoot) out.push(...dropUnknownMetadataFields(obj, ''));
  return out;
}

/**
 * Structural pruning alone (upstream pruning.Prune): no unknown-field tracking, no ObjectMeta
 * decoding; `isResourceRoot` keeps `apiVersion`, `kind` and `metadata` at the top.
 */
export function pruneStructural(obj: unknown, schema: JSONSchemaProps, isResourceRoot: boolean): void {
  prune(obj, schema, isResourceRoot || schema[EXT.embeddedResource] === true, { path: [], pruned: [] });
}
