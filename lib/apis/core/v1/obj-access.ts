/**
 * Typed reads of decoded JSON objects for validation code: absent or mistyped values read as
 * undefined / empty, as the zero values of the upstream Go types would.
 */

/** A decoded JSON object. */
export type Obj = Record<string, unknown>;

/** The value as an object, or undefined. */
export function obj(v: unknown): Obj | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** The value as a list of objects (non-objects dropped), or []. */
export function objs(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter((x): x is Obj => obj(x) !== undefined) : [];
}

/** The value as a list (any items), or []. */
export function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** The value as a string, or '' (Go's zero value). */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The value as a number, or undefined when absent (a nil pointer). */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** The value as a string map, or {}. */
export function strMap(v: unknown): Record<string, string> {
  const o = obj(v);
  if (!o) return {};
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(o)) out[k] = typeof x === 'string' ? x : String(x);
  return out;
}
