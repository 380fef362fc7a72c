/**
 * Structural merge of an applied configuration into the live object (upstream TypedValue.Merge
 * with the keep-right rule; spec 000 § Field ownership): structs and granular maps merge field by
 * field, map-lists by key (entries merged), set-lists as unions, and leaves (scalars, atomic
 * nodes, containers empty or null on both sides) take the configuration's value.
 */
import type { Schema } from '../schema/types.js';
import { fieldElement, type PathElement, pathElementString } from './path.js';
import { indexList, isLeaf, type Node, memberSchema, prefix, resolve, TypedValueError } from './typeinfo.js';

/**
 * Merges `rhs` (the configuration) into `lhs` (live); `undefined` is absent. The result shares
 * unchanged sub-values with the inputs. Throws TypedValueError for a list item that cannot be
 * keyed or for two configuration items with one key (`duplicate entries for key [name="a"]`).
 */
export function merge(lhs: unknown, rhs: unknown, schema: Schema | undefined): unknown {
  return walk(lhs, rhs, schema, []);
}

function walk(lhs: unknown, rhs: unknown, schema: Schema | undefined, path: PathElement[]): unknown {
  if (rhs === undefined) return lhs;
  const node = resolve(schema, rhs !== null ? rhs : lhs);
  if (isLeaf(node, lhs, rhs)) return rhs;
  if (node.kind === 'list') return mergeList(node as Extract<Node, { kind: 'list' }>, (lhs ?? []) as unknown[], (rhs ?? []) as unknown[], path);
  const l = (lhs ?? {}) as Record<string, unknown>;
  const r = (rhs ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(l)) {
    if (r[k] === undefined) {
      if (l[k] !== undefined) out[k] = l[k];
      continue;
    }
    path.push(fieldElement(k));
    out[k] = walk(l[k], r[k], memberSchema(node, k), path);
    path.pop();
  }
  for (const k of Object.keys(r)) {
    if (k in out || r[k] === undefined) continue;
    path.push(fieldElement(k));
    out[k] = walk(undefined, r[k], memberSchema(node, k), path);
    path.pop();
  }
  return out;
}

/**
 * Upstream's list merge order: live items keep their places; configuration items shared with the
 * live list are emitted in the configuration's order, each at the first live position it can
 * take; new configuration items follow the shared item they come after.
 */
function mergeList(node: Extract<Node, { kind: 'list' }>, lhs: unknown[], rhs: unknown[], path: PathElement[]): unknown[] {
  const l = indexList(node, lhs, path);
  const r = indexList(node, rhs, path);
  for (const pe of r.pes) {
    if (r.items.get(pe.id)!.length > 1) throw new TypedValueError(`${prefix(path)}duplicate entries for key ${pathElementString(pe)}`);
  }
  const lhsPEs = l.positions;
  const shared = r.pes.filter((pe) => l.items.has(pe.id));
  let nextShared = 0;
  const merged = new Set<string>();
  const out: unknown[] = [];
  const item = (pe: PathElement): unknown => {
    merged.add(pe.id);
    const lg = l.items.get(pe.id);
    path.push(pe);
    const v = walk(lg && lg.length === 1 ? lg[0] : undefined, r.items.get(pe.id)![0], node.items, path);
    path.pop();
    if (shared[nextShared]?.id === pe.id) nextShared++;
    return v;
  };
  let lI = 0;
  let rI = 0;
  while (lI < lhs.length || rI < r.pes.length) {
    if (lI < lhs.length && rI < r.pes.length) {
      const pe = lhsPEs[lI]!;
      if (pe.id === r.pes[rI]!.id && !merged.has(pe.id)) {
        out.push(item(pe));
        lI++;
        rI++;
        continue;
      }
      if (r.items.has(pe.id) && !merged.has(pe.id) && shared[nextShared] && shared[nextShared]!.id !== pe.id) {
        lI++;
        continue;
      }
    }
    if (lI < lhs.length) {
      const pe = lhsPEs[lI]!;
      if (!r.items.has(pe.id)) {
        out.push(lhs[lI]);
        lI++;
        continue;
      }
      if (merged.has(pe.id)) {
        lI++;
        continue;
      }
    }
    if (rI < r.pes.length) {
      const pe = r.pes[rI]!;
      if (!merged.has(pe.id)) out.push(item(pe));
      rI++;
    }
  }
  return out;
}
