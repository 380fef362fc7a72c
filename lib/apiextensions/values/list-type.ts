/**
 * The uniqueness invariants of `x-<vendor>-list-type: set` and `map` lists in a custom resource
 * (upstream apiextensions schema/listtype validation.go ValidateListSetsAndMaps): the second
 * occurrence of each repeated set item, or of each repeated map key tuple, is a `Duplicate
 * value`; a map-list item that is neither an object nor null is `Invalid`.
 */
import { type FieldError, duplicate, invalid } from '../../apimachinery/field-errors.js';
import type { JSONSchemaProps } from '../types.js';
import { compiled } from './compile.js';
import { goBadValue, goMap } from './messages.js';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A key under which equal values (scalars by value, compounds by JSON text) collide. */
function identity(v: unknown): string {
  if (v === undefined) return 'u';
  if (v !== null && typeof v === 'object') return `c${JSON.stringify(v)}`;
  return `s${typeof v}:${String(v)}`;
}

/** The indices of the first repeat of every value seen more than once. */
function nonUnique(values: readonly unknown[]): number[] {
  if (values.length <= 1) return [];
  const seen = new Map<string, number>();
  const out: number[] = [];
  values.forEach((v, i) => {
    const id = identity(v);
    const times = seen.get(id) ?? 0;
    if (times === 1) out.push(i);
    seen.set(id, times + 1);
  });
  return out;
}

function validateListMap(path: string, keys: readonly string[], list: readonly unknown[]): FieldError[] {
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (x !== null && !isObject(x)) return [invalid(`${path}[${i}]`, goBadValue(x), 'must be an object for an array of list-type map')];
  }
  if (list.length <= 1) return [];
  if (keys.length === 1) {
    const key = keys[0]!;
    const values = list.map((x) => (isObject(x) && Object.hasOwn(x, key) ? x[key] : undefined));
    return nonUnique(values).map((i) => duplicate(`${path}[${i}]`, goMap(values[i] === undefined ? {} : { [key]: values[i] })));
  }
  const tuples = list.map((x) => {
    const t: Obj = {};
    if (isObject(x)) for (const k of keys) if (Object.hasOwn(x, k)) t[k] = x[k];
    return t;
  });
  return nonUnique(tuples).map((i) => duplicate(`${path}[${i}]`, goMap(tuples[i]!)));
}

function walk(path: string, s: JSONSchemaProps, x: unknown, out: FieldError[]): void {
  const n = compiled(s);
  if (Array.isArray(x)) {
    if (n.listType === 'set') for (const i of nonUnique(x)) out.push(duplicate(`${path}[${i}]`, goBadValue(x[i])));
    else if (n.listType === 'map') out.push(...validateListMap(path, n.listMapKeys, x));
    if (n.items !== undefined) x.forEach((v, i) => walk(`${path}[${i}]`, n.items!, v, out));
    return;
  }
  if (!isObject(x)) return;
  if (n.additional !== undefined) for (const [k, v] of Object.entries(x)) walk(`${path}[${k}]`, n.additional, v, out);
  for (const [k, v] of Object.entries(x)) {
    const prop = n.properties.get(k);
    if (prop !== undefined) walk(path === '' ? k : `${path}.${k}`, prop, v, out);
  }
}

/** The list-type errors of an object value (upstream walks from an object root only). */
export function validateListSetsAndMaps(value: unknown, schema: JSONSchemaProps): FieldError[] {
  const out: FieldError[] = [];
  if (isObject(value)) walk('', schema, value, out);
  return out;
}
