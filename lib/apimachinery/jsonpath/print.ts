/**
 * Text of JSONPath results as upstream prints them: `PrintResults` (objects and arrays as
 * compact JSON from Go's encoder — sorted keys, `<`, `>`, `&` escaped — other values as
 * `fmt.Fprint` writes them — ../go-format.ts `goSprint` — and a nil value as `<no value>`). Pure.
 */
import { goSprint } from '../go-format.js';

const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const escapeHTML = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

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
