/**
 * Object → fields (upstream ToFieldSet): the set of field paths present in a value under a schema.
 * Scalars are leaves; atomic lists, maps and structs are one leaf (nothing below is tracked);
 * granular map keys and unknown struct fields are members, declared struct fields are not (only
 * what is below them); every item of a set- or map-list is a member, with its fields below it;
 * items repeated under one key are owned as one leaf, as upstream.
 */
import type { Schema } from '../schema/types.js';
import { fieldElement, type Path, type PathElement } from './path.js';
import { FieldSet } from './set.js';
import { fits, indexList, isAtomic, isNamedField, memberSchema, resolve } from './typeinfo.js';

/**
 * The fields present in `value` under `schema`. Throws TypedValueError for a list item that
 * cannot be keyed (a map-list item without its key fields and no default, a null set item).
 */
export function toFieldSet(value: unknown, schema: Schema | undefined): FieldSet {
  const set = new FieldSet();
  walk(value, schema, [], set);
  return set;
}

function walk(value: unknown, schema: Schema | undefined, path: PathElement[], set: FieldSet): void {
  const node = resolve(schema, value);
  if (node.kind === 'scalar' || isAtomic(node) || !fits(node, value)) {
    set.insert(path);
    return;
  }
  if (value === null || value === undefined) return;
  if (node.kind === 'list') {
    const index = indexList(node, value as unknown[], path);
    for (const pe of index.pes) {
      const group = index.items.get(pe.id)!;
      path.push(pe);
      if (group.length === 1) walk(group[0], node.items, path, set);
      set.insert(path);
      path.pop();
    }
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    path.push(fieldElement(k));
    walk(v, memberSchema(node, k), path, set);
    if (!isNamedField(node, k)) set.insert(path);
    path.pop();
  }
}

/** A set of paths given as field-name arrays (`[['status'], ['metadata', 'labels']]`). */
export function fieldSetOf(paths: readonly (readonly string[])[]): FieldSet {
  return FieldSet.of(...paths.map((p): Path => p.map(fieldElement)));
}
