/**
 * Removing fields from an object (upstream TypedValue.RemoveItems): every member path of the set
 * is dropped with what is below it; list items are matched by their path element. A granular
 * list or map emptied by the removal is dropped from its parent, except a struct field that is
 * always serialized (`omitEmpty: false`), which stays as `{}` (what upstream's typed round trip
 * leaves).
 */
import { structFields, type Schema } from '../schema/types.js';
import { fieldElement, type PathElement } from './path.js';
import type { FieldSet } from './set.js';
import { isAtomic, isObject, listItemElement, memberSchema, resolve, TypedValueError } from './typeinfo.js';

/** `value` without the member paths of `toRemove` (inputs are not modified). */
export function removeItems(value: unknown, toRemove: FieldSet, schema: Schema | undefined): unknown {
  if (toRemove.isEmpty()) return value;
  return walk(value, toRemove, schema) ?? {};
}

/** The value without `toRemove`; undefined when a granular container ends up empty. */
function walk(value: unknown, toRemove: FieldSet, schema: Schema | undefined): unknown {
  const node = resolve(schema, value);
  if (node.kind === 'scalar' || isAtomic(node)) return value;
  if (node.kind === 'list') {
    if (!Array.isArray(value) || value.length === 0) return value;
    const out: unknown[] = [];
    value.forEach((item, i) => {
      let pe: PathElement;
      try {
        pe = listItemElement(node, item, i);
      } catch (e) {
        if (!(e instanceof TypedValueError)) throw e;
        out.push(item);
        return;
      }
      if (toRemove.members.has(pe.id)) return;
      const sub = toRemove.child(pe);
      out.push(sub ? walk(item, sub, node.items) ?? {} : item);
    });
    return out.length > 0 ? out : undefined;
  }
  if (!isObject(value) || Object.keys(value).length === 0) return value;
  const fields = node.kind === 'struct' ? structFields(node.schema) : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const pe = fieldElement(k);
    if (toRemove.members.has(pe.id)) continue;
    const sub = toRemove.child(pe);
    if (!sub) {
      out[k] = v;
      continue;
    }
    const kept = walk(v, sub, memberSchema(node, k));
    if (kept !== undefined) out[k] = kept;
    else if (fields[k]?.omitEmpty === false && fields[k]!.schema.type === 'struct') out[k] = {};
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
