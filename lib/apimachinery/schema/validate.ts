/**
 * Declarative validation derived from the schema: `required` fields (`Required value`), string
 * enums (`Unsupported value`), `maxLength`, `maxItems`, integer bounds. Kind-specific rules live
 * in the kind definitions (lib/apis) and run in addition.
 */
import { type FieldError, FieldPath, invalid, notSupported, required, tooLong, tooMany } from '../field-errors.js';
import { type Field, type Schema, type StructSchema, structFields } from './types.js';

type Obj = Record<string, unknown>;

/** Whether a schema (or anything below it) has a declarative rule: only such subtrees are walked. */
const hasRulesMemo = new WeakMap<Schema, boolean>();

function hasRules(s: Schema): boolean {
  const known = hasRulesMemo.get(s);
  if (known !== undefined) return known;
  // A recursive schema reaching itself counts as having rules until known: walking too much is
  // only slower, walking too little would miss errors.
  hasRulesMemo.set(s, true);
  let result: boolean;
  switch (s.type) {
    case 'string':
      result = s.enum !== undefined || s.maxLength !== undefined;
      break;
    case 'integer':
      result = s.minimum !== undefined || s.maximum !== undefined;
      break;
    case 'struct':
      result = Object.values(structFields(s)).some((f) => f.required === true || hasRules(f.schema));
      break;
    case 'list':
      result = s.maxItems !== undefined || hasRules(s.items);
      break;
    case 'map':
      result = hasRules(s.values);
      break;
    default:
      result = false;
  }
  hasRulesMemo.set(s, result);
  return result;
}

/** Per struct schema, in field order, the fields that are required or have rules below them. */
const checkedFieldsMemo = new WeakMap<StructSchema, ReadonlyArray<readonly [string, Field]>>();

function checkedFields(s: StructSchema): ReadonlyArray<readonly [string, Field]> {
  let fields = checkedFieldsMemo.get(s);
  if (!fields) {
    fields = Object.entries(structFields(s)).filter(([, f]) => f.required === true || hasRules(f.schema));
    checkedFieldsMemo.set(s, fields);
  }
  return fields;
}

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
      for (const [k, f] of checkedFields(s)) {
        const x = o[k];
        if (x === undefined || x === null || x === '') {
          if (f.required && (x === undefined || x === null || (x === '' && f.schema.type === 'string'))) errs.push(required(path.child(k)));
          continue;
        }
        walk(f.schema, x, path.child(k), errs);
      }
      return;
    }
    case 'list':
      if (!Array.isArray(v)) return;
      if (s.maxItems !== undefined && v.length > s.maxItems) errs.push(tooMany(path, v.length, s.maxItems));
      if (hasRules(s.items)) v.forEach((item, i) => walk(s.items, item, path.index(i), errs));
      return;
    case 'map':
      if (typeof v !== 'object') return;
      if (hasRules(s.values)) for (const [k, x] of Object.entries(v as Obj)) walk(s.values, x, path.key(k), errs);
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
