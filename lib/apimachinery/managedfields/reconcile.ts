/**
 * Reconciling a manager's field set with a changed schema (upstream ReconcileFieldSetWithSchema;
 * spec 000 § Field ownership, topology rows): a list, map or struct that became atomic is owned
 * as a whole by every manager that owned anything inside it. A node that became granular needs
 * nothing: its previous owner keeps the top-level path and no inner keys, so later writes of
 * inner keys never conflict with it.
 */
import type { Schema } from '../schema/types.js';
import type { PathElement } from './path.js';
import { FieldSet } from './set.js';
import { isAtomic, memberSchema, resolve, type Node } from './typeinfo.js';

/** `set` adjusted to `schema`, or `set` itself when nothing changed. */
export function reconcileFieldSetWithSchema(set: FieldSet, schema: Schema): FieldSet {
  const atomic = new FieldSet();
  visit(set, schema, [], atomic);
  if (atomic.isEmpty()) return set;
  return set.recursiveDifference(atomic).union(atomic);
}

function childSchema(node: Node, pe: PathElement): Schema | undefined {
  if (node.kind === 'list') return pe.kind === 'field' ? undefined : node.items;
  return pe.kind === 'field' ? memberSchema(node, pe.name) : undefined;
}

/** Collects in `atomic` the paths with children whose schema is now atomic. */
function visit(set: FieldSet, schema: Schema | undefined, path: PathElement[], atomic: FieldSet): void {
  const node = resolve(schema, undefined);
  if (node.kind === 'scalar') return;
  for (const c of set.children.values()) {
    const s = childSchema(node, c.pe);
    if (s === undefined) continue;
    path.push(c.pe);
    if (isAtomic(resolve(s, undefined))) atomic.insert(path);
    else visit(c.set, s, path, atomic);
    path.pop();
  }
}
