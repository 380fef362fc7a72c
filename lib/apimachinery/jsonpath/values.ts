/**
 * How the evaluator sees JSON values the way upstream's reflection does on unstructured data:
 * null is Go's nil interface, integral numbers are `int64`, other numbers `float64`, objects
 * `map[string]interface {}` iterated in sorted key order (upstream `fmtsort`). Number literals of
 * a template are boxed as NumberLiteral, since upstream compares them as `float64` whatever
 * their spelling. Pure.
 */

/** A number literal of a template: Go `int` (`3`) or `float64` (`3.5`). */
export class NumberLiteral {
  constructor(
    readonly value: number,
    readonly goType: 'int' | 'float64',
  ) {}
}

/** The plain JSON value of an evaluation value (a literal loses its box). */
export function plain(v: unknown): unknown {
  return v instanceof NumberLiteral ? v.value : v;
}

/** Go's nil interface: JSON null (or an absent value). */
export function isNil(v: unknown): boolean {
  return v === null || v === undefined;
}

/** A JSON object (Go map). */
export function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof NumberLiteral);
}

/** The values of a JSON object in sorted key order. */
export function sortedValues(m: Record<string, unknown>): unknown[] {
  return Object.keys(m)
    .sort()
    .map((k) => m[k]);
}

/** Upstream `iterHelper`: the children of an array (in order) or object (by key), else undefined. */
export function children(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isMap(v)) return sortedValues(v);
  return undefined;
}

/** The Go type name of a value as `%v` of its reflect.Type prints it (`string`, `map[string]interface {}`). */
export function goTypeName(v: unknown): string {
  if (v instanceof NumberLiteral) return v.goType;
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}
