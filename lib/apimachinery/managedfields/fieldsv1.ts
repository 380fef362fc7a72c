/**
 * The `fieldsV1` wire form of a field set (spec 000 § Managed-field entry), as upstream writes it:
 * one JSON object per level, keys are serialized path elements in upstream order, a member is
 * `{}`, a member that also has children carries `".": {}` first, then its children.
 */
import { comparePathElements, parsePathElement, PathElementError, type PathElement } from './path.js';
import { FieldSet } from './set.js';

/** A `fieldsV1` object: element keys (and `.`) mapping to nested objects. */
export type FieldsV1 = { [key: string]: FieldsV1 };

/**
 * The `{}` of a member without children, one frozen object shared by every `fieldsV1` this process
 * writes or shares (shared.ts): most nodes of a tree are such leaves.
 */
export const MEMBER: FieldsV1 = Object.freeze({});

/**
 * The `fieldsV1` objects sets were decoded from, when that object is exactly what {@link toFieldsV1}
 * writes for the set. Sets are values, so an entry a write leaves unchanged (the other managers'
 * entries, most of the time) is encoded by handing back the object it was read from.
 */
const encodedForms = new WeakMap<FieldSet, FieldsV1>();

/** Encodes a set as its `fieldsV1` object (key order is upstream's serialization order). */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  return encodedForms.get(set) ?? emit(set, false);
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  const elements = new Map<string, PathElement>(set.members);
  for (const c of set.children.values()) elements.set(c.pe.id, c.pe);
  if (includeSelf && elements.size > 0) out['.'] = MEMBER;
  for (const pe of [...elements.values()].sort(comparePathElements)) {
    const child = set.child(pe);
    out[pe.id] = child ? emit(child, set.members.has(pe.id)) : MEMBER;
  }
  return out;
}

/** Error decoding a `fieldsV1` value. */
export class FieldsV1Error extends Error {}

/** Parsed keys: the same few elements (`f:metadata`, `k:{"type":"Ready"}`…) recur in every object of a kind. */
const parsedKeys = new Map<string, PathElement | undefined>();
/** Distinct keys remembered before the memo starts again (it holds element strings only). */
const PARSED_KEYS_MAX = 16_384;

/** parsePathElement of a `fieldsV1` key, remembered; a malformed key throws FieldsV1Error. */
function elementOf(key: string): PathElement | undefined {
  let pe = parsedKeys.get(key);
  if (pe !== undefined || parsedKeys.has(key)) return pe;
  try {
    pe = parsePathElement(key);
  } catch (e) {
    if (e instanceof PathElementError) throw new FieldsV1Error(`parsing key as path element: ${e.message}`);
    throw e;
  }
  if (parsedKeys.size >= PARSED_KEYS_MAX) parsedKeys.clear();
  parsedKeys.set(key, pe);
  return pe;
}

/**
 * Decodes a `fieldsV1` object into a set. Keys with an unknown prefix are dropped, as upstream;
 * a malformed key or a non-object value throws FieldsV1Error.
 */
export function fromFieldsV1(fields: unknown): FieldSet {
  const set = new FieldSet();
  if (fields === undefined || fields === null) return set;
  // A frozen tree is a shared one (shared.ts), which never changes: decoded once.
  const shared = typeof fields === 'object' && Object.isFrozen(fields);
  if (shared) {
    const known = decodedShared.get(fields);
    if (known) return known;
  }
  // emit() never writes `.` at the top level.
  if (read(fields, set) & CANONICAL && !('.' in (fields as object))) encodedForms.set(set, fields as FieldsV1);
  if (shared) decodedShared.set(fields, set);
  return set;
}

/** The sets decoded from shared trees (sets are values: no caller changes one it is handed). */
const decodedShared = new WeakMap<object, FieldSet>();

/** read(): the node is itself a member (`.`, or nothing below). */
const SELF = 1;
/** read(): the node is written exactly as emit() writes it (keys in order, `.` only first and only with children, `{}` leaves). */
const CANONICAL = 2;

/** Reads one level into `into`; returns SELF and CANONICAL flags. */
function read(node: unknown, into: FieldSet): number {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) throw new FieldsV1Error(`expected an object, got ${JSON.stringify(node)}`);
  let self = false;
  let canonical = true;
  let previous: PathElement | undefined;
  let index = 0;
  const obj = node as Record<string, unknown>;
  for (const key in obj) {
    const value = obj[key];
    if (key === '.') {
      self = true;
      if (index !== 0 || !isEmptyObject(value)) canonical = false;
      index++;
      continue;
    }
    index++;
    const pe = elementOf(key);
    if (!pe) {
      canonical = false;
      continue;
    }
    if (pe.id !== key || (previous !== undefined && comparePathElements(previous, pe) >= 0)) canonical = false;
    previous = pe;
    const child = new FieldSet();
    const r = read(value, child);
    if (!(r & CANONICAL)) canonical = false;
    if (r & SELF) into.members.set(pe.id, pe);
    if (child.members.size > 0 || child.children.size > 0) into.attach(pe, child);
  }
  const empty = into.members.size === 0 && into.children.size === 0;
  // `{".": {}}` alone is a member without children, which emit() writes as `{}`.
  if (self && empty) canonical = false;
  return (self || empty ? SELF : 0) | (canonical ? CANONICAL : 0);
}

function isEmptyObject(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  for (const _ in v) return false;
  return true;
}
