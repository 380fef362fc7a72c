/**
 * The ownership engine (upstream merge.Updater; spec 000 § Field ownership): given the live
 * object, the next object and the managers' field sets, it moves ownership of changed fields,
 * drops removed fields from every manager, detects apply conflicts and prunes fields an applier
 * released. Entries are keyed by manager identifier; `ignored` are the reset fields of the write
 * (never owned, never in conflict). Every manager's set is read at the kind's single served
 * schema (this server has one version per kind, so no conversion is needed).
 */
import { deepEqual } from '../deep-equal.js';
import type { StructSchema } from '../schema/types.js';
import { compare, type Comparison } from './compare.js';
import { toFieldSet } from './extract.js';
import type { Managed, ManagerSet } from './managed-fields.js';
import { merge } from './merge.js';
import type { Path } from './path.js';
import { prune } from './prune.js';
import { reconcileFieldSetWithSchema } from './reconcile.js';
import { FieldSet } from './set.js';

/** The schema of the kind and the reset fields of the write. */
export interface UpdaterContext {
  schema: StructSchema;
  ignored: FieldSet;
}

/** One field in conflict: the other manager's identifier and the path. */
export interface RawConflict {
  identifier: string;
  owner: ManagerSet;
  path: Path;
}

/** Every manager's set adjusted to the current schema (topology changes), as a new map. */
export function reconcileManagers(managers: Managed, schema: StructSchema): Managed {
  const out: Managed = new Map();
  for (const [id, m] of managers) {
    const set = reconcileFieldSetWithSchema(m.set, schema);
    out.set(id, set === m.set ? m : { ...m, set });
  }
  return out;
}

/**
 * Upstream Updater.update: compares `live` with `next`; every manager but `workflow` loses the
 * fields that changed (conflicts, reported instead unless `force`) and the fields removed.
 * Empty entries are dropped. `managers` is changed in place.
 */
function moveOwnership(live: unknown, next: unknown, managers: Managed, workflow: string, force: boolean, ctx: UpdaterContext): { compare: Comparison; conflicts: RawConflict[] } {
  const cmp = compare(live, next, ctx.schema, ctx.ignored);
  const changed = cmp.modified.union(cmp.added);
  const conflicts: RawConflict[] = [];
  const taken = new Map<string, FieldSet>();
  for (const [id, m] of managers) {
    if (id === workflow) continue;
    const c = m.set.intersection(changed);
    if (!c.isEmpty()) {
      taken.set(id, c);
      for (const path of c.paths()) conflicts.push({ identifier: id, owner: m, path });
    }
  }
  if (conflicts.length > 0 && !force) return { compare: cmp, conflicts };
  for (const [id, m] of managers) {
    if (id === workflow) continue;
    const set = m.set.difference(taken.get(id) ?? new FieldSet()).difference(cmp.removed);
    if (set.isEmpty()) managers.delete(id);
    else if (set !== m.set) managers.set(id, { ...m, set });
  }
  return { compare: cmp, conflicts: [] };
}

/**
 * A non-apply write (upstream Updater.Update): `manager` (an identifier) gets the fields added or
 * modified between `live` and `next`, and loses the removed ones; no conflicts. Returns the new
 * entries; `entry` describes the manager when it has no entry yet.
 */
export function updaterUpdate(live: unknown, next: unknown, managers: Managed, manager: string, entry: Omit<ManagerSet, 'set'>, ctx: UpdaterContext): Managed {
  const out = reconcileManagers(managers, ctx.schema);
  const { compare: cmp } = moveOwnership(live, next, out, manager, true, ctx);
  const previous = out.get(manager)?.set ?? new FieldSet();
  const set = previous.union(cmp.modified).union(cmp.added).difference(cmp.removed).recursiveDifference(ctx.ignored);
  if (set.isEmpty()) out.delete(manager);
  else out.set(manager, { ...(out.get(manager) ?? entry), set });
  return out;
}

/** The outcome of an apply: the new object and entries, or the conflicts. */
export type UpdaterApplyResult = { object: unknown; managers: Managed; changed: boolean; conflicts?: undefined } | { conflicts: RawConflict[] };

/**
 * An apply (upstream Updater.Apply): merges `config` into `live`, gives `manager` (an identifier)
 * exactly the fields of `config`, prunes what it released, and takes changed fields from the
 * other managers, or reports them as conflicts unless `force`. `changed` is false when the
 * object is unchanged.
 */
export function updaterApply(live: unknown, config: unknown, managers: Managed, manager: string, entry: Omit<ManagerSet, 'set'>, force: boolean, ctx: UpdaterContext): UpdaterApplyResult {
  const out = reconcileManagers(managers, ctx.schema);
  const merged = merge(live, config, ctx.schema);
  const lastSet = out.get(manager)?.set;
  const set = toFieldSet(config, ctx.schema).recursiveDifference(ctx.ignored);
  out.set(manager, { ...entry, set });
  const next = prune(merged, out.values(), lastSet, ctx.schema);
  const { conflicts } = moveOwnership(live, next, out, manager, force, ctx);
  if (conflicts.length > 0) return { conflicts };
  return { object: next, managers: out, changed: !deepEqual(live, next) };
}
