/**
 * Declarative validation derived from the schema: `required` fields (`Required value`), string
 * enums (`Unsupported value`), `maxLength`, `maxItems`, integer bounds. Kind-specific rules live
 * in the kind definitions (lib/apis) and run in addition.
 */
import { type FieldError, FieldPath, invalid, notSupported, required, tooLong, tooMany } from '../field-errors.js';
import { type Schema, structFields } from './types.js';

type Obj = Record<string, unknown>;

function walk(s: Schema, v: unknown, path: FieldPath, errs: FieldError[]): void {
  if (v === null || v === undefined) return;
  switch (s.type) {
    case 'string':
      if (typeof v !== 'string') return;
      if (s.enum && !s.enum.includes(v)) errs.push(notSupported(path, v, s.enum));
      if (s.maxLength !== undefined && v.length > s.maxLength) errs.push(tooLong(path, v, s.maxLength));
      return;
    case 'integer':
      if (typeof v !== 'number') return;
      if (s.minimum !== undefined && v < s.minimum) errs.push(invalid(path, v, `must be greater than or equal to ${s.minimum}`));
      if (s.maximum !== undefined && v > s.maximum) errs.push(invalid(path, v, `must be less than or equal to ${s.maximum}`));
      return;
    case 'struct': {
      if (typeof v !== 'object' || Array.isArray(v)) return;
      const o = v as Obj;
      for (const [k, f] of Object.entries(structFields(s))) {
        const child = path.child(k);
        if (o[k] === undefined || o[k] === null || o[k] === '') {
          if (f.required && (o[k] === undefined || o[k] === null || (o[k] === '' && f.schema.type === 'string'))) errs.push(required(child));
          continue;
        }
        walk(f.schema, o[k], child, errs);
      }
      return;
    }
    case 'list':
      if (!Array.isArray(v)) return;
      if (s.maxItems !== undefined && v.length > s.maxItems) errs.push(tooMany(path, v.length, s.maxItems));
      v.forEach((item, i) => walk(s.items, item, path.index(i), errs));
      return;
    case 'map':
      if (typeof v !== 'object') return;
      for (const [k, x] of Object.entries(v as Obj)) walk(s.values, x, path.key(k), errs);
      return;
    default:
      return;
  }
}

/** Validates `obj` against the declarative rules of `schema`; paths are relative to the object root. */
export function validateDeclarative(schema: Schema, obj: unknown): FieldError[] {
  const errs: FieldError[] = [];
  walk(schema, obj, FieldPath.of(), errs);
  return errs;
}
