/**
 * Go's `fmt` verbs applied to a decoded JSON value (an unstructured object: `map[string]interface {}`,
 * `[]interface {}`, string, bool, whole numbers as `int64`, others as `float64`), as upstream's
 * messages print them: `%T` (goJSONType), `%v` (goSprint, goFloatString) and `%#v` (goSyntaxString).
 * Pure; never throws.
 */
import { goQuote } from './go-quote.js';

/** Go `%v` of a float64: `%g` with the shortest digits (`1.5`, `1e+06`, `1e-05`, `1.234567e+06`, `+Inf`, `NaN`). */
export function goFloatString(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mantissa, expText] = v.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const abs = Math.abs(exp);
    return `${mantissa}e${exp < 0 ? '-' : '+'}${abs < 10 ? `0${abs}` : abs}`;
  }
  return String(v);
}

/** Go `fmt.Sprint` of a number held in unstructured data (`int64` or `float64`). */
function goNumberString(v: number): string {
  return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? BigInt(v).toString() : goFloatString(v);
}

/** Go `%v` (`fmt.Sprint`) of a decoded JSON value: `map[a:1 b:x]` (keys sorted), `[1 2]`, `<nil>`. */
export function goSprint(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumberString(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goSprint).join(' ')}]`;
  const m = v as Record<string, unknown>;
  const keys = Object.keys(m).sort();
  return `map[${keys.map((k) => `${k}:${goSprint(m[k])}`).join(' ')}]`;
}

/**
 * Go `%#v` of a decoded JSON value held in an `interface {}`: `interface {}(nil)`, `"x"` (Go's
 * `%q`), `1`, `1.5`, `true`, `[]interface {}{1, "a"}`, `map[string]interface {}{"a":1, "b":"x"}`
 * (keys sorted, as fmt prints maps). A JavaScript `Map` is a map whose keys are values too, as
 * go-yaml v2 decodes one: `map[interface {}]interface {}{"x":1}`.
 */
export function goSyntaxString(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumberString(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntaxString).join(', ')}}`;
  if (v instanceof Map) {
    const entries = [...v].map(([k, x]) => `${goSyntaxString(k)}:${goSyntaxString(x)}`).sort();
    return `map[interface {}]interface {}{${entries.join(', ')}}`;
  }
  const m = v as Record<string, unknown>;
  const keys = Object.keys(m).sort();
  return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSyntaxString(m[k])}`).join(', ')}}`;
}

/** Go `%T` of a decoded JSON value: `string`, `bool`, `int64`, `float64`, `[]interface {}`, `map[string]interface {}`, `<nil>`. */
export function goJSONType(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}
