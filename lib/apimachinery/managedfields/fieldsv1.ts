/**
 * The `fieldsV1` wire form of a field set (spec 000 § Managed-field entry), as upstream writes it:
 * one JSON object per level, keys are serialized path elements in upstream order, a member is
 * `{}`, a member that also has children carries `".": {}` first, then its children.
 */
import { comparePathElements, parsePathElement, PathElementError, type PathElement } from './path.js';
import { FieldSet } from './set.js';

/** A `fieldsV1` object: element keys (and `.`) mapping to nested objects. */
export type FieldsV1 = { [key: string]: FieldsV1 };

/** Encodes a set as its `fieldsV1` object (key order is upstream's serialization order). */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  const elements = new Map<string, PathElement>(set.members);
  for (const c of set.children.values()) elements.set(c.pe.id, c.pe);
  if (includeSelf && elements.size > 0) out['.'] = {};
  for (const pe of [...elements.values()].sort(comparePathElements)) {
    const child = set.child(pe);
    out[pe.id] = child ? emit(child, set.members.has(pe.id)) : {};
  }
  return out;
}

/** Error decoding a `fieldsV1` value. */
export class FieldsV1Error extends Error {}

/**
 * Decodes a `fieldsV1` object into a set. Keys with an unknown prefix are dropped, as upstream;
 * a malformed key or a non-object value throws FieldsV1Error.
 */
export function fromFieldsV1(fields: unknown): FieldSet {
  const set = new FieldSet();
  if (fields !== undefined && fields !== null) read(fields, set);
  return set;
}

/** Reads one level into `into`; true when the node is itself a member (`.`, or nothing below). */
function read(node: unknown, into: FieldSet): boolean {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) throw new FieldsV1Error(`expected an object, got ${JSON.stringify(node)}`);
  let self = false;
  const obj = node as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (key === '.') {
      self = true;
      continue;
    }
    let pe: PathElement | undefined;
    try {
      pe = parsePathElement(key);
    } catch (e) {
      if (e instanceof PathElementError) throw new FieldsV1Error(`parsing key as path element: ${e.message}`);
      throw e;
    }
    if (!pe) continue;
    const child = new FieldSet();
    if (read(value, child)) into.members.set(pe.id, pe);
    if (child.members.size > 0 || child.children.size > 0) into.attach(pe, child);
  }
  return self || (into.members.size === 0 && into.children.size === 0);
}
