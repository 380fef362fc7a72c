/**
 * Text of JSONPath results as upstream prints them: `PrintResults` (objects and arrays as
 * compact JSON from Go's encoder — sorted keys, `<`, `>`, `&` escaped — other values as
 * `fmt.Fprint` writes them, a nil value as `<no value>`), and `fmt.Sprint` of a value (what a
 * selectable field's value becomes). Integral numbers print as Go's `int64`, others as `float64`
 * (`%v`: shortest digits, exponent form below 1e-4 and from 1e6 on). Pure.
 */

const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const escapeHTML = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Go `%v` of a float64: `%g` with the shortest digits (`1.5`, `1e+06`, `1e-05`, `1.234567e+06`). */
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

/** Go's `json.Marshal` of a decoded JSON value (compact, sorted keys, HTML-safe strings). */
export function goJSON(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v).replace(HTML_UNSAFE, escapeHTML);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`;
  const m = v as Record<string, unknown>;
  const keys = Object.keys(m)
    .filter((k) => m[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${goJSON(k)}:${goJSON(m[k])}`).join(',')}}`;
}

/** Go `fmt.Sprint` of a decoded JSON value: `map[a:1 b:x]`, `[1 2]`, `<nil>` inside. */
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
 * Upstream `PrintResults` of one value taken out of the results (`reflect.ValueOf(value)`, as
 * the CRD table convertor calls it): objects and arrays as JSON, null as `<no value>`, others as
 * `fmt.Fprint` prints them.
 */
export function printJSONPathValue(v: unknown): string {
  if (v === null || v === undefined) return '<no value>';
  if (typeof v === 'object') return goJSON(v);
  return goSprint(v);
}

/** Upstream `PrintResults` of one result list: the values' text joined with single spaces. */
export function printJSONPathResults(values: readonly unknown[]): string {
  return values.map(printJSONPathValue).join(' ');
}
