/**
 * The typed decoder: checks a parsed JSON value against a structural schema the way decoding
 * into the upstream Go types does, normalizes scalars (times to UTC RFC 3339, quantities left to
 * the caller), and prunes properties the schema does not know, reporting their paths
 * (spec 000 § Field validation levels: unknown fields; spec 001 § Errors: wrong field type → 400).
 */
import { daysIn, parseGoRFC3339 } from '../go-time.js';
import { zeroOf } from './canonical.js';
import { type Schema, type StructSchema, structFields } from './types.js';

/** Result of decoding: the first type error (Go stops at the first) and every unknown field path. */
export interface DecodeResult {
  typeError?: string;
  /**
   * The same type error as upstream's unstructured converter words it (a strategic merge patch's
   * result is converted, not decoded): `cannot convert string to int32`, `cannot restore map from
   * string`; absent for types that decode themselves (times, quantities, int-or-string, durations).
   */
  converterError?: string;
  unknownFields: string[];
}

type Json = unknown;

function jsonTypeName(v: Json): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

/** The Go name of a struct: the last segment of its definition id (`api.core.v1.Pod` → `Pod`). */
function structName(s: StructSchema): string {
  return s.id.slice(s.id.lastIndexOf('.') + 1);
}

/** The Go type name printed in decode errors (`string`, `int32`, `[]v1.Container`, `map[string]string`). */
export function goTypeName(s: Schema): string {
  switch (s.type) {
    case 'string':
    case 'duration':
      return 'string';
    case 'integer':
      return s.format;
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'bytes':
      return '[]uint8';
    case 'time':
      return s.precision === 'micros' ? 'v1.MicroTime' : 'v1.Time';
    case 'quantity':
      return 'resource.Quantity';
    case 'int-or-string':
      return 'intstr.IntOrString';
    case 'raw':
      return 'runtime.RawExtension';
    case 'map':
      return `map[string]${goTypeName(s.values)}`;
    case 'list':
      return `[]${goTypeName(s.items)}`;
    case 'struct':
      return `v1.${structName(s)}`;
  }
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Whether a time the RFC3339 pattern matched (`m`) is already its own normalized form: UTC written `Z`,
 * a fraction of the precision's length (none for a Time, six digits for a MicroTime), and
 * a date and time of day that exist. Most times a client sends back are the server's own, so
 * they keep their text without a Date round trip.
 */
function isNormalizedTime(m: RegExpExecArray, micros: boolean): boolean {
  if (m[8] !== 'Z' || (micros ? m[7]?.length !== 7 : m[7] !== undefined)) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysIn(month, Number(m[1])) && Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6]) <= 59;
}

/** The last whole second formatTime wrote (ms since the epoch ÷ 1000, floored), and its text. */
let formattedSecond = NaN;
let formattedText = '';

/**
 * Formats a Date as upstream metav1.Time does: UTC, second precision (`2024-05-01T10:00:00Z`).
 * Every write stamps the current time, so the text of the last second formatted is kept. Throws
 * RangeError for an invalid Date (as `toISOString` does).
 */
export function formatTime(d: Date): string {
  const second = Math.floor(d.getTime() / 1000);
  if (second === formattedSecond) return formattedText;
  const text = d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  formattedSecond = second;
  formattedText = text;
  return text;
}

/** Formats a Date as metav1.MicroTime: UTC, six fraction digits. */
export function formatMicroTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

interface Walk {
  unknown: string[];
  error?: string;
  converterError?: string;
  pruneUnknown: boolean;
  /** Whether a null list item or map value becomes the element's zero value (nullElement), as Go's decoder leaves it. */
  zeroNulls: boolean;
}

/** Go's reflect.Kind of a decoded JSON value in unstructured data (whole numbers are int64). */
function unstructuredKind(v: Json): string {
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

/**
 * runtime.DefaultUnstructuredConverter's error converting `v` into a Go value of schema `s`
 * (its fromUnstructured), or undefined for a type that converts through its own UnmarshalJSON.
 */
function converterMessage(s: Schema, v: Json): string | undefined {
  const kind = unstructuredKind(v);
  switch (s.type) {
    case 'map':
      return `cannot restore map from ${kind}`;
    case 'list':
    case 'bytes':
      return `cannot restore slice from ${kind}`;
    case 'struct':
      return `cannot restore struct from: ${kind}`;
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean': {
      const from = kind === 'map' ? 'map[string]interface {}' : kind === 'slice' ? '[]interface {}' : kind;
      return `cannot convert ${from} to ${goTypeName(s)}`;
    }
    default:
      return undefined;
  }
}

/**
 * The Go type a leaf value is finally decoded into: types with their own UnmarshalJSON decode
 * through a plain Go value (metav1.Time through a string, IntOrString's numbers through an int32).
 */
function leafTypeName(s: Schema): string {
  if (s.type === 'time') return 'string';
  if (s.type === 'int-or-string') return 'int32';
  return goTypeName(s);
}

/**
 * Records Go's UnmarshalTypeError: a number is printed with its literal only where Go tried to
 * parse it as an integer (overflow, fraction); `field` is Go's field stack, the JSON names of the
 * struct fields from the root without list indexes or map keys.
 */
function mismatch(w: Walk, v: Json, s: Schema, owner: string, field: string): void {
  if (w.error) return;
  const integerTarget = s.type === 'integer' || s.type === 'int-or-string';
  const what = typeof v === 'number' ? (integerTarget ? `number ${v}` : 'number') : jsonTypeName(v);
  w.error = owner
    ? `json: cannot unmarshal ${what} into Go struct field ${owner}.${field} of type ${leafTypeName(s)}`
    : `json: cannot unmarshal ${what} into Go value of type ${leafTypeName(s)}`;
  w.converterError = converterMessage(s, v);
}

/**
 * What Go's decoder leaves for a JSON null in a list item or map value of schema `s`: the
 * element's zero value as it encodes (`""`, `0`, `false`, a struct's zero object, a Quantity's
 * `"0"`), or null for a pointer and where the zero encodes as null (slices, maps, times, raw
 * values). `["a", null]` in a `[]string` is `["a", ""]`, which validation then refuses as it
 * would an empty string.
 */
function nullElement(s: Schema): Json {
  return s.nullable ? null : zeroOf(s);
}

/**
 * Decodes `value` in place; returns a replacement value when normalization changed a scalar
 * (e.g. a time re-formatted), else the same value. `path` (with indexes and keys) names unknown
 * fields; `field` (struct field names only) names type errors, as Go's decoder does.
 */
function walk(s: Schema, v: Json, path: string, field: string, owner: string, w: Walk): Json {
  if (v === null) return v;
  switch (s.type) {
    case 'string':
    case 'duration':
      if (typeof v !== 'string') mismatch(w, v, s, owner, field);
      return v;
    case 'integer': {
      if (typeof v !== 'number' || !Number.isInteger(v)) mismatch(w, v, s, owner, field);
      else if (s.format === 'int32' && (v > 2147483647 || v < -2147483648)) mismatch(w, v, s, owner, field);
      return v;
    }
    case 'number':
      if (typeof v !== 'number') mismatch(w, v, s, owner, field);
      return v;
    case 'boolean':
      if (typeof v !== 'boolean') mismatch(w, v, s, owner, field);
      return v;
    case 'bytes':
      if (typeof v !== 'string') mismatch(w, v, s, owner, field);
      else if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0) {
        if (!w.error) w.error = `illegal base64 data at input byte ${firstBadBase64(v)}`;
      }
      return v;
    case 'time': {
      if (typeof v !== 'string') {
        mismatch(w, v, s, owner, field);
        return v;
      }
      const m = RFC3339.exec(v);
      if (m && isNormalizedTime(m, s.precision === 'micros')) return v;
      const t = parseGoRFC3339(v);
      if ('error' in t) {
        if (!w.error) w.error = t.error;
        return v;
      }
      const text = formatTime(new Date(t.secondMs));
      if (s.precision !== 'micros') return text;
      return text.replace(/Z$/, `.${String(t.nanos).padStart(9, '0').slice(0, 6)}Z`);
    }
    case 'quantity':
      if (typeof v !== 'string' && typeof v !== 'number') mismatch(w, v, s, owner, field);
      return v;
    case 'int-or-string':
      if (typeof v === 'number') {
        if (!Number.isInteger(v)) mismatch(w, v, s, owner, field);
      } else if (typeof v !== 'string') mismatch(w, v, s, owner, field);
      return v;
    case 'raw':
      return v;
    case 'map': {
      if (typeof v !== 'object' || Array.isArray(v)) {
        mismatch(w, v, s, owner, field);
        return v;
      }
      const o = v as Record<string, Json>;
      for (const k of Object.keys(o)) {
        const nv = o[k] === null && w.zeroNulls ? nullElement(s.values) : walk(s.values, o[k], `${path}[${k}]`, field, owner, w);
        if (nv !== o[k]) o[k] = nv;
      }
      return v;
    }
    case 'list': {
      if (!Array.isArray(v)) {
        mismatch(w, v, s, owner, field);
        return v;
      }
      for (let i = 0; i < v.length; i++) {
        const nv = v[i] === null && w.zeroNulls ? nullElement(s.items) : walk(s.items, v[i], `${path}[${i}]`, field, owner, w);
        if (nv !== v[i]) v[i] = nv;
      }
      return v;
    }
    case 'struct': {
      if (typeof v !== 'object' || Array.isArray(v)) {
        mismatch(w, v, s, owner, field);
        return v;
      }
      const o = v as Record<string, Json>;
      const fields = structFields(s);
      const name = structName(s);
      for (const k of Object.keys(o)) {
        const f = fields[k];
        const childPath = path ? `${path}.${k}` : k;
        if (!f) {
          if (s.preserveUnknownFields) continue;
          w.unknown.push(childPath);
          if (w.pruneUnknown) delete o[k];
          continue;
        }
        if (o[k] === null && !f.schema.nullable) {
          delete o[k];
          continue;
        }
        const nv = walk(f.schema, o[k], childPath, field ? `${field}.${k}` : k, name, w);
        if (nv !== o[k]) o[k] = nv;
      }
      return v;
    }
  }
}

function firstBadBase64(v: string): number {
  for (let i = 0; i < v.length; i++) if (!/[A-Za-z0-9+/=]/.test(v[i]!)) return i;
  return v.length - (v.length % 4);
}

/**
 * Decodes an object against its kind's schema in place: null properties are dropped, unknown
 * properties are pruned (unless `pruneUnknown` is false) and listed, scalars are type-checked, and
 * a null list item or map value becomes the element's Go zero value (unless `zeroNulls` is false:
 * an apply configuration is merged as the client wrote it, nulls included, as upstream's is).
 */
export function decodeObject(schema: StructSchema, obj: Record<string, unknown>, pruneUnknown = true, zeroNulls = true): DecodeResult {
  const w: Walk = { unknown: [], pruneUnknown, zeroNulls };
  walk(schema, obj, '', '', '', w);
  if (!w.error) return { unknownFields: w.unknown };
  return w.converterError ? { typeError: w.error, converterError: w.converterError, unknownFields: w.unknown } : { typeError: w.error, unknownFields: w.unknown };
}
