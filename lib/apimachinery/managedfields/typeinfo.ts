/**
 * How the field-set walkers see a schema node (spec 000 § Merge strategy markers): a scalar leaf,
 * a struct (named fields; `x-orch-map-type` atomic makes it one leaf), a map (each key a field
 * unless atomic), or a list (atomic, set or map with keys; `patchStrategy=merge` read as map by
 * effectiveListType). A value with no schema (unknown fields, embedded resources) gets upstream's
 * deduced type: objects are granular maps, arrays atomic lists, anything else a scalar. A `raw`
 * value (RawExtension: ControllerRevision `data`) is one leaf, as upstream's typed schema has it.
 */
import { effectiveListType, structFields, type Schema, type StructSchema } from '../schema/types.js';
import { goQuote } from '../go-quote.js';
import { indexElement, type Json, keyElement, type Path, type PathElement, pathString, valueElement } from './path.js';

/** The resolved shape of a node for a given value. */
export type Node =
  | { kind: 'scalar' }
  | { kind: 'struct'; schema: StructSchema; atomic: boolean }
  | { kind: 'map'; values: Schema | undefined; atomic: boolean }
  | { kind: 'list'; listType: 'atomic' | 'set' | 'map'; keys: string[]; items: Schema | undefined };

const SCALAR: Node = { kind: 'scalar' };
const DEDUCED_MAP: Node = { kind: 'map', values: undefined, atomic: false };
const DEDUCED_LIST: Node = { kind: 'list', listType: 'atomic', keys: [], items: undefined };

/** True for a plain JSON object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The node of `schema` (undefined: deduced from `value`). */
export function resolve(schema: Schema | undefined, value: unknown): Node {
  if (schema?.type === 'raw' && !schema.embeddedResource) return SCALAR;
  if (schema === undefined || schema.type === 'raw') {
    if (isObject(value)) return DEDUCED_MAP;
    return Array.isArray(value) ? DEDUCED_LIST : SCALAR;
  }
  switch (schema.type) {
    case 'struct':
      return { kind: 'struct', schema, atomic: schema.mapType === 'atomic' };
    case 'map':
      return { kind: 'map', values: schema.values, atomic: schema.mapType === 'atomic' };
    case 'list': {
      const { listType, keys } = effectiveListType(schema);
      return { kind: 'list', listType: listType === 'map' && keys.length === 0 ? 'set' : listType, keys, items: schema.items };
    }
    default:
      return SCALAR;
  }
}

/** True when `value` can be walked as `node` (null and absent always can); else it is a leaf. */
export function fits(node: Node, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (node.kind === 'struct' || node.kind === 'map') return isObject(value);
  if (node.kind === 'list') return Array.isArray(value);
  return true;
}

/** True when the node is owned as a whole (atomic struct, map or list). */
export function isAtomic(node: Node): boolean {
  return node.kind === 'list' ? node.listType === 'atomic' : node.kind !== 'scalar' && node.atomic;
}

function isEmptyContainer(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).length === 0;
}

/**
 * True when two versions of a value are compared or merged as one leaf under `node`, not walked:
 * a scalar, an atomic node, a value that does not fit the node, or containers empty or null on
 * both sides.
 */
export function isLeaf(node: Node, lhs: unknown, rhs: unknown): boolean {
  return node.kind === 'scalar' || isAtomic(node) || !fits(node, lhs) || !fits(node, rhs) || (isEmptyContainer(lhs) && isEmptyContainer(rhs));
}

/** The schema of member `name` of a struct or map node (undefined: deduced). */
export function memberSchema(node: Node, name: string): Schema | undefined {
  if (node.kind === 'struct') return structFields(node.schema)[name]?.schema;
  if (node.kind === 'map') return node.values;
  return undefined;
}

/** True when `name` is a declared field of a struct node (upstream's "named field"). */
export function isNamedField(node: Node, name: string): boolean {
  return node.kind === 'struct' && Object.prototype.hasOwnProperty.call(structFields(node.schema), name);
}

/** A malformed value found while walking, reported as upstream: `.spec.ports: element 0: ...`. */
export class TypedValueError extends Error {}

/**
 * The path element of item `index` of a list node: `k:` for map-lists (a missing key field takes
 * its schema default, as upstream), `v:` for sets, `i:` for atomic lists. Throws the upstream
 * message (without the path prefix) for an item that cannot be keyed.
 */
export function listItemElement(node: Extract<Node, { kind: 'list' }>, item: unknown, index: number): PathElement {
  if (node.listType === 'map') {
    if (item === null) throw new TypedValueError('associative list with keys may not have a null element');
    if (!isObject(item)) throw new TypedValueError('associative list with keys may not have non-map elements');
    const fields = node.items?.type === 'struct' ? structFields(node.items) : {};
    const key: Array<[string, Json]> = [];
    for (const name of node.keys) {
      if (item[name] !== undefined) key.push([name, item[name] as Json]);
      else if (fields[name]?.default !== undefined) key.push([name, fields[name]!.default as Json]);
      else throw new TypedValueError(`associative list with keys has an element that omits key field ${goQuote(name)} (and doesn't have default value)`);
    }
    return keyElement(key);
  }
  if (node.listType === 'set') {
    if (isObject(item)) throw new TypedValueError("associative list without keys has an element that's a map type");
    if (Array.isArray(item)) throw new TypedValueError('not supported: associative list with lists as elements');
    if (item === null) throw new TypedValueError("associative list without keys has an element that's an explicit null");
    return valueElement(item as Json);
  }
  return indexElement(index);
}

/** The items of a list grouped by path element, in order of first appearance. */
export interface ListIndex {
  /** Distinct elements, in list order. */
  pes: PathElement[];
  /** Items by element id (more than one: duplicates). */
  items: Map<string, unknown[]>;
  /** The element of each item, by position. */
  positions: PathElement[];
}

/** Groups `list` by item element; an item that cannot be keyed throws `<path>: element <i>: <why>`. */
export function indexList(node: Extract<Node, { kind: 'list' }>, list: readonly unknown[], path: Path): ListIndex {
  const out: ListIndex = { pes: [], items: new Map(), positions: [] };
  for (let i = 0; i < list.length; i++) {
    let pe: PathElement;
    try {
      pe = listItemElement(node, list[i], i);
    } catch (e) {
      if (e instanceof TypedValueError) throw new TypedValueError(`${prefix(path)}element ${i}: ${e.message}`);
      throw e;
    }
    out.positions.push(pe);
    const group = out.items.get(pe.id);
    if (group) group.push(list[i]);
    else {
      out.items.set(pe.id, [list[i]]);
      out.pes.push(pe);
    }
  }
  return out;
}

/** `<path>: ` for an error at `path` (nothing at the root), as upstream ValidationError prints. */
export function prefix(path: Path): string {
  return path.length === 0 ? '' : `${pathString(path)}: `;
}
