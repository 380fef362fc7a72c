/**
 * Pruning after an apply (upstream Updater.prune; spec 000 § Field ownership, "A applies a request
 * omitting the field"): the fields the applier applied last time and omits now are removed from
 * the merged object, unless another manager (or the applier's new configuration) still owns them.
 * Declared struct fields above an owned field count as owned ("named fields"), so a struct left
 * with nothing owned is removed with the last owned field inside it, as upstream.
 */
import type { Schema, StructSchema } from '../schema/types.js';
import { toFieldSet } from './extract.js';
import type { ManagerSet } from './managed-fields.js';
import type { PathElement } from './path.js';
import { removeItems } from './remove.js';
import { FieldSet } from './set.js';
import { isNamedField, memberSchema, resolve } from './typeinfo.js';

/** `set` plus every declared struct field that has a member below it (upstream EnsureNamedFieldsAreMembers). */
export function ensureNamedFieldsAreMembers(set: FieldSet, schema: Schema | undefined): FieldSet {
  const node = resolve(schema, undefined);
  const out = new FieldSet();
  for (const [id, pe] of set.members) out.members.set(id, pe);
  for (const c of set.children.values()) {
    if (c.pe.kind === 'field' && isNamedField(node, c.pe.name)) out.members.set(c.pe.id, c.pe);
    out.attach(c.pe, ensureNamedFieldsAreMembers(c.set, childSchema(schema, c.pe)));
  }
  return out;
}

function childSchema(schema: Schema | undefined, pe: PathElement): Schema | undefined {
  const node = resolve(schema, undefined);
  if (pe.kind === 'field') return memberSchema(node, pe.name);
  return pe.kind === 'key' && node.kind === 'list' ? node.items : undefined;
}

/**
 * `merged` without the fields `lastSet` held and nobody owns any more. `managers` already holds
 * the applier's new set.
 */
export function prune(merged: unknown, managers: Iterable<ManagerSet>, lastSet: FieldSet | undefined, schema: StructSchema): unknown {
  if (!lastSet || lastSet.isEmpty()) return merged;
  const named = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(s, schema);
  const last = named(lastSet);
  let pruned = removeItems(merged, last, schema);
  let owned = new FieldSet();
  for (const m of managers) owned = owned.union(m.set);
  const mergedSet = named(toFieldSet(merged, schema));
  pruned = removeItems(merged, mergedSet.difference(named(toFieldSet(pruned, schema)).union(named(owned))), schema);
  return removeItems(merged, mergedSet.difference(named(toFieldSet(pruned, schema))).intersection(last), schema);
}
