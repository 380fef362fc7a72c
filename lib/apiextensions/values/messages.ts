/**
 * Go renderings the custom resource value errors carry: `%v` of a float64 (shortest digits,
 * exponent form below 1e-4 and from 1e6), `%#v` of the `map[string]interface{}` upstream puts
 * in list-type duplicate errors, and the JSON type name kube-openapi reports for a value
 * (upstream kube-openapi validate/type.go, errors/schema.go).
 */
import { GoSyntax } from '../../apimachinery/field-errors.js';

/** Go's `%v` of a float64 (strconv 'g' with shortest digits: exponent form below 1e-4 and from 1e6). */
export function goFloat(v: number): string {
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mant, e] = v.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(v);
}

function goValue(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goFloat(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goValue).join(', ')}}`;
  return goMapText(v as Record<string, unknown>);
}

function goMapText(m: Record<string, unknown>): string {
  const keys = Object.keys(m).sort();
  return `map[string]interface {}{${keys.map((k) => `${JSON.stringify(k)}:${goValue(m[k])}`).join(', ')}}`;
}

/** Go's `%#v` of a `map[string]interface{}` (keys sorted, as fmt prints maps). */
export function goMap(m: Record<string, unknown>): GoSyntax {
  return new GoSyntax(goMapText(m));
}

/**
 * The bad value of a field error as upstream prints it: strings, integers and booleans as
 * themselves, floats in Go `%v`, maps and slices in Go `%#v` syntax.
 */
export function goBadValue(v: unknown): unknown {
  if (v !== null && typeof v === 'object') return new GoSyntax(goValue(v));
  if (typeof v === 'number' && !Number.isInteger(v)) return new GoSyntax(goFloat(v));
  return v;
}

/** The kube-openapi JSON type of a decoded value: `integer` for integral numbers. */
export function jsonTypeOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (Array.isArray(v)) return 'array';
  return 'object';
}
