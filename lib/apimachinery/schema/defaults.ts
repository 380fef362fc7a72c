/**
 * Defaulting over the structural schema, in upstream order: for each struct, declared field
 * defaults first, then the struct's defaulter hook, then its children (parent before child, as the
 * generated upstream `SetObjectDefaults_*` functions do).
 */
import { deepCopy } from '../deep-equal.js';
import { type Field, type Schema, type StructSchema, structFields } from './types.js';

type Obj = Record<string, unknown>;

/** The fields of a struct that declare a default, as `[name, default]` (schemas never change: computed once per struct). */
const defaultedMemo = new WeakMap<StructSchema, ReadonlyArray<readonly [string, unknown]>>();

function defaultedFields(s: StructSchema, fields: Record<string, Field>): ReadonlyArray<readonly [string, unknown]> {
  let d = defaultedMemo.get(s);
  if (!d) {
    d = Object.entries(fields)
      .filter(([, f]) => f.default !== undefined)
      .map(([k, f]) => [k, f.default] as const);
    defaultedMemo.set(s, d);
  }
  return d;
}

function walk(s: Schema, v: unknown, root: Obj): void {
  if (v === null || typeof v !== 'object') return;
  switch (s.type) {
    case 'struct': {
      const o = v as Obj;
      const fields = structFields(s);
      for (const [k, dflt] of defaultedFields(s, fields)) {
        if (o[k] === undefined) o[k] = deepCopy(dflt);
      }
      s.defaulter?.(o, root);
      for (const k of Object.keys(o)) {
        const f = fields[k];
        if (f) walk(f.schema, o[k], root);
      }
      return;
    }
    case 'list':
      if (Array.isArray(v)) for (const item of v) walk(s.items, item, root);
      return;
    case 'map':
      for (const x of Object.values(v as Obj)) walk(s.values, x, root);
      return;
    default:
      return;
  }
}

/** Applies defaults to `obj` (an object of `schema`) in place. */
export function applyDefaults(schema: Schema, obj: Obj): void {
  walk(schema, obj, obj);
}
