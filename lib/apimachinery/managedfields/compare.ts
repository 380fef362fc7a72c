/**
 * Compares two versions of an object under a schema (upstream TypedValue.Compare): the fields
 * added, modified and removed by the right-hand side. Leaves (scalars, atomic nodes, and
 * containers empty or null on both sides) compare by value; a granular map, struct or list that
 * appears or disappears is itself added or removed, besides the fields below it.
 */
import { deepEqual } from '../deep-equal.js';
import type { Schema } from '../schema/types.js';
import { fieldElement, type PathElement } from './path.js';
import { FieldSet } from './set.js';
import { indexList, isLeaf, type Node, memberSchema, resolve } from './typeinfo.js';

/** Fields added, modified and removed between two objects; no path is in two of the sets. */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * Compares `lhs` (before) with `rhs` (after); `undefined` is an absent object. `excluded` paths
 * and everything below them are left out of the answer (upstream ExcludeFields on the
 * comparison: a write's reset fields) and are not walked at all: a status write does not compare
 * the spec. Throws TypedValueError for a list item that cannot be keyed.
 */
export function compare(lhs: unknown, rhs: unknown, schema: Schema | undefined, excluded?: FieldSet): Comparison {
  const out: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(lhs, rhs, schema, [], out, excluded);
  return out;
}

/**
 * The part of `excluded` (the excluded paths below the current one) under `pe`: null when `pe`
 * itself is excluded, so that nothing at or below it counts; undefined when nothing below it is.
 */
function excludedBelow(excluded: FieldSet | undefined, pe: PathElement): FieldSet | undefined | null {
  if (excluded === undefined) return undefined;
  return excluded.members.has(pe.id) ? null : excluded.child(pe);
}

function leaf(lhs: unknown, rhs: unknown, path: PathElement[], out: Comparison): void {
  if (lhs === undefined) out.added.insert(path);
  else if (rhs === undefined) out.removed.insert(path);
  else if (!deepEqual(lhs, rhs)) out.modified.insert(path);
}

function walk(lhs: unknown, rhs: unknown, schema: Schema | undefined, path: PathElement[], out: Comparison, excluded: FieldSet | undefined): void {
  const node = resolve(schema, rhs !== undefined && rhs !== null ? rhs : lhs);
  if (isLeaf(node, lhs, rhs)) {
    leaf(lhs, rhs, path, out);
    return;
  }
  if (node.kind === 'list') walkList(node as Extract<Node, { kind: 'list' }>, (lhs ?? []) as unknown[], (rhs ?? []) as unknown[], path, out, excluded);
  else {
    const l = (lhs ?? {}) as Record<string, unknown>;
    const r = (rhs ?? {}) as Record<string, unknown>;
    for (const k of Object.keys(l)) {
      if (l[k] === undefined) continue;
      walkMember(l[k], r[k], memberSchema(node, k), fieldElement(k), path, out, excluded);
    }
    for (const k of Object.keys(r)) {
      if (r[k] === undefined || (k in l && l[k] !== undefined)) continue;
      walkMember(undefined, r[k], memberSchema(node, k), fieldElement(k), path, out, excluded);
    }
  }
  if (lhs === undefined) out.added.insert(path);
  else if (rhs === undefined) out.removed.insert(path);
}

/** walk of the member `pe` below `path`, unless the member is excluded. */
function walkMember(lhs: unknown, rhs: unknown, schema: Schema | undefined, pe: PathElement, path: PathElement[], out: Comparison, excluded: FieldSet | undefined): void {
  const below = excludedBelow(excluded, pe);
  if (below === null) return;
  path.push(pe);
  walk(lhs, rhs, schema, path, out, below);
  path.pop();
}

function walkList(node: Extract<Node, { kind: 'list' }>, lhs: unknown[], rhs: unknown[], path: PathElement[], out: Comparison, excluded: FieldSet | undefined): void {
  const l = indexList(node, lhs, path);
  const r = indexList(node, rhs, path);
  const all = [...l.pes, ...r.pes.filter((pe) => !l.items.has(pe.id))];
  for (const pe of all) {
    const below = excludedBelow(excluded, pe);
    if (below === null) continue;
    const lg = l.items.get(pe.id) ?? [];
    const rg = r.items.get(pe.id) ?? [];
    path.push(pe);
    if (lg.length <= 1 && rg.length <= 1) walk(lg[0], rg[0], node.items, path, out, below);
    else if (lg.length >= 2 && rg.length >= 2) {
      if (!deepEqual(lg, rg)) out.modified.insert(path);
    } else if (lg.length >= 2) {
      if (rg.length === 1) walk(undefined, rg[0], node.items, path, out, below);
      out.removed.insert(path);
    } else {
      if (lg.length === 1) walk(lg[0], undefined, node.items, path, out, below);
      out.added.insert(path);
    }
    path.pop();
  }
}
