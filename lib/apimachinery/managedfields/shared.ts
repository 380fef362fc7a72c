/**
 * One copy of each distinct `fieldsV1` tree for the objects a process holds long (the watch
 * cache's current objects; issue #24 item 2, memory at 150,000 Pods). Objects made from one
 * template by one manager carry equal trees (a `fieldsV1` names fields, not their values), and a
 * tree decoded from JSON is an object per node, most of them `{}` leaves: at 15,000 Pods those
 * trees were a fifth of a worker's heap. A shared tree is frozen, its leaves are {@link MEMBER},
 * and it is never changed in place: writes build new entries (update.ts, apply.ts).
 */
import { type FieldsV1, MEMBER } from './fieldsv1.js';
import { isObject } from './typeinfo.js';

/** Shared trees by their JSON text. */
const trees = new Map<string, FieldsV1>();
/** The length of the texts in {@link trees}. */
let heldChars = 0;
/**
 * Text held as keys before the table starts again (characters). Trees already shared stay shared
 * by the objects that hold them; only later equal trees get a copy of their own.
 */
export const SHARED_TEXT_MAX = 16 * 1024 * 1024;

/**
 * The shared tree equal to `tree` (a frozen copy, made and remembered on the first sight of its
 * text), or `tree` itself when it is already frozen (shared, or {@link MEMBER}) or is not a tree
 * of objects only (a malformed stored value is kept as it is). Costs one `JSON.stringify` of the
 * tree; the input is never changed.
 */
export function sharedFieldsV1(tree: unknown): unknown {
  if (!isObject(tree) || Object.isFrozen(tree)) return tree;
  const text = JSON.stringify(tree);
  const known = trees.get(text);
  if (known) return known;
  const copy = frozenCopy(tree);
  if (!copy) return tree;
  if (heldChars + text.length > SHARED_TEXT_MAX) {
    trees.clear();
    heldChars = 0;
  }
  trees.set(text, copy);
  heldChars += text.length;
  return copy;
}

/**
 * Points each `metadata.managedFields[i].fieldsV1` of `obj` at its shared tree, in place: the
 * entries keep equal contents, so whoever else holds them sees no change. For objects entering a
 * long-lived cache; anything that is not an entry list is left alone.
 */
export function shareManagedFields(obj: { metadata?: unknown }): void {
  const meta = obj.metadata as { managedFields?: unknown } | undefined;
  const entries = meta?.managedFields;
  if (!Array.isArray(entries)) return;
  for (const e of entries) {
    if (!isObject(e) || !('fieldsV1' in e)) continue;
    const shared = sharedFieldsV1(e.fieldsV1);
    if (shared !== e.fieldsV1) e.fieldsV1 = shared;
  }
}

/** A frozen copy whose `{}` leaves are MEMBER; undefined when a value is not an object (or a key is `__proto__`). */
function frozenCopy(node: Record<string, unknown>): FieldsV1 | undefined {
  const out: FieldsV1 = {};
  let empty = true;
  for (const key in node) {
    empty = false;
    const child = node[key];
    if (key === '__proto__' || !isObject(child)) return undefined;
    const c = frozenCopy(child);
    if (!c) return undefined;
    out[key] = c;
  }
  return empty ? MEMBER : Object.freeze(out);
}
