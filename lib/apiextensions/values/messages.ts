/**
 * Go renderings the custom resource value errors carry (built on ../../apimachinery/go-format.ts):
 * `%#v` of the `map[string]interface{}` upstream puts in list-type duplicate errors, the bad
 * value of a field error, and the JSON type name kube-openapi reports for a value
 * (upstream kube-openapi validate/type.go, errors/schema.go).
 */
import { GoSyntax } from '../../apimachinery/field-errors.js';
import { goFloatString, goSyntaxString } from '../../apimachinery/go-format.js';

/** Go's `%#v` of a `map[string]interface{}` (keys sorted, as fmt prints maps). */
export function goMap(m: Record<string, unknown>): GoSyntax {
  return new GoSyntax(goSyntaxString(m));
}

/**
 * The bad value of a field error as upstream prints it: strings, integers and booleans as
 * themselves, floats in Go `%v`, maps and slices in Go `%#v` syntax.
 */
export function goBadValue(v: unknown): unknown {
  if (v !== null && typeof v === 'object') return new GoSyntax(goSyntaxString(v));
  if (typeof v === 'number' && !Number.isInteger(v)) return new GoSyntax(goFloatString(v));
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
