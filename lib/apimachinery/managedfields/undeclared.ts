/**
 * The fields of an apply configuration that its kind's schema does not declare, as upstream's
 * typed conversion of the configuration reports them (`.spec.wat: field not declared in schema`),
 * before any merge (spec 000 § Update rules: apply). Values with no schema (embedded resources,
 * `x-orch-preserve-unknown-fields`) declare every field; a list item that cannot be keyed, and a
 * value of the wrong type, are reported elsewhere and not walked here. Pure.
 */
import { structFields, type Schema } from '../schema/types.js';
import { fieldElement, type PathElement, pathString } from './path.js';
import { fits, isObject, listItemElement, resolve, TypedValueError } from './typeinfo.js';

/**
 * The paths of the undeclared fields of `config` under `schema`, in document order, each as
 * upstream prints it (`.metadata.labelz`, `.spec.containers[name="app"].imagee`).
 */
export function undeclaredFields(schema: Schema, config: unknown): string[] {
  const out: string[] = [];
  walk(schema, config, [], out);
  return out;
}

function walk(schema: Schema | undefined, value: unknown, path: PathElement[], out: string[]): void {
  const node = resolve(schema, value);
  if (value === null || value === undefined || !fits(node, value)) return;
  if (node.kind === 'struct' && isObject(value)) {
    const fields = structFields(node.schema);
    for (const [k, v] of Object.entries(value)) {
      const at = [...path, fieldElement(k)];
      if (Object.prototype.hasOwnProperty.call(fields, k)) walk(fields[k]!.schema, v, at, out);
      else out.push(pathString(at));
    }
  } else if (node.kind === 'map' && isObject(value)) {
    for (const [k, v] of Object.entries(value)) walk(node.values, v, [...path, fieldElement(k)], out);
  } else if (node.kind === 'list' && Array.isArray(value)) {
    value.forEach((item, i) => {
      let pe: PathElement;
      try {
        pe = listItemElement(node, item, i);
      } catch (err) {
        if (err instanceof TypedValueError) return;
        throw err;
      }
      walk(node.items, item, [...path, pe], out);
    });
  }
}
