/**
 * The canonical JSON form of an object of a struct schema: what upstream's Go types encode to
 * (issue #23 items 1–2; spec 000 § Content negotiation and encoding).
 *
 * - Order: a struct's properties in the order its definition declares them — the order of the
 *   Go type's fields (`kind` before `apiVersion`; ObjectMeta `name` … `managedFields`); a map's
 *   keys sorted, as Go writes maps; properties the schema does not know (kept only where a
 *   schema preserves unknown fields) after the known ones, sorted, at every level.
 * - Zero values: a property written even when empty (`Field.omitEmpty === false`: every
 *   non-pointer struct and every field without `omitempty`) is present, absent ones as Go's zero
 *   (`""`, `0`, `false`, `null` for times, slices, maps, raw values and pointers
 *   (`Field.pointer`), a struct as its own zero object); an `omitempty` property whose value is
 *   `""`, `null`, an empty list or an empty map is left out, as Go's encoder does (an empty
 *   struct stays `{}`: a non-nil pointer); an `omitempty` pointer only when `null` (nil), so an
 *   explicit `""` of a `*string` stays (`storageClassName: ""`). Present numbers and booleans are
 *   kept even when zero: the type model does not mark every Go pointer (`replicas: 0` must
 *   survive).
 *
 * The result is a fresh object (values of `raw` fields are shared); the input is not modified.
 * Objects are put in this form once, when written to storage, so reads, lists and watch events
 * pass the stored order through.
 */
import { type Field, type Schema, type StructSchema, structFields } from './types.js';

type Obj = Record<string, unknown>;

/** One property of a struct plan. */
interface PropertyPlan {
  name: string;
  schema: Schema;
  omitEmpty: boolean;
  /** A Go pointer: with `omitEmpty`, left out only when nil (`null`), never for being empty. */
  pointer: boolean;
  /** Go's zero value of the property, as written (a fresh copy each call). */
  zero: () => unknown;
}

interface StructPlan {
  properties: PropertyPlan[];
  known: ReadonlySet<string>;
  /** The JSON text of the zero struct, computed on first need (`{}` inside a cycle). */
  zeroText: string | undefined;
  computingZero: boolean;
}

const plans = new WeakMap<StructSchema, StructPlan>();

function planFor(s: StructSchema): StructPlan {
  let p = plans.get(s);
  if (p) return p;
  const fields = structFields(s);
  p = {
    properties: Object.entries(fields).map(([name, f]) => ({
      name,
      schema: f.schema,
      omitEmpty: f.omitEmpty !== false,
      pointer: f.pointer === true,
      zero: () => zeroValue(f),
    })),
    known: new Set(Object.keys(fields)),
    zeroText: undefined,
    computingZero: false,
  };
  plans.set(s, p);
  return p;
}

/**
 * Go's zero value of a property, as upstream writes it in JSON: `null` for a pointer
 * (`Field.pointer`), times, slices, maps and raw values; `""`, `0`, `false`, `"0s"`, `"0"`; a
 * struct as its own zero object (its always-written properties with their zeros). A fresh value
 * each call.
 */
export function zeroValue(f: Field): unknown {
  return f.pointer ? null : zeroOf(f.schema);
}

/** Go's zero value of a value of schema `s` (not a pointer), as upstream writes it in JSON; see zeroValue. A fresh value each call. */
export function zeroOf(s: Schema): unknown {
  switch (s.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
    case 'int-or-string':
      return 0;
    case 'boolean':
      return false;
    case 'duration':
      return '0s';
    case 'quantity':
      return '0';
    case 'struct':
      return zeroStruct(s);
    default:
      return null;
  }
}

function zeroStruct(s: StructSchema): Obj {
  const p = planFor(s);
  if (p.zeroText === undefined) {
    if (p.computingZero) return {};
    p.computingZero = true;
    p.zeroText = JSON.stringify(canonicalStruct(s, p, {}));
    p.computingZero = false;
  }
  return p.zeroText === '{}' ? {} : (JSON.parse(p.zeroText) as Obj);
}

/**
 * True for a value of schema `s` that Go's `omitempty` leaves out: `null` (a nil pointer), `""`,
 * an empty slice or map. A struct is never empty: an omitempty struct field is a pointer, and a
 * non-nil pointer to an empty struct is written as `{}` (`securityContext: {}`).
 */
function isEmpty(s: Schema, v: unknown): boolean {
  if (v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object' && s.type === 'map') {
    for (const _ in v as Obj) return false;
    return true;
  }
  return false;
}

/** A JSON value with the keys of every object sorted, at every level (a Go map's encoding). */
export function sortedDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedDeep);
  if (v === null || typeof v !== 'object') return v;
  const out: Obj = {};
  for (const k of Object.keys(v).sort()) out[k] = sortedDeep((v as Obj)[k]);
  return out;
}

function canonicalValue(s: Schema, v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  switch (s.type) {
    case 'struct':
      return Array.isArray(v) ? v : canonicalStruct(s, planFor(s), v as Obj);
    case 'list':
      return Array.isArray(v) ? v.map((item) => canonicalValue(s.items, item)) : v;
    case 'map': {
      if (Array.isArray(v)) return v;
      const out: Obj = {};
      for (const k of Object.keys(v).sort()) out[k] = canonicalValue(s.values, (v as Obj)[k]);
      return out;
    }
    default:
      return v;
  }
}

function canonicalStruct(s: StructSchema, p: StructPlan, obj: Obj): Obj {
  const out: Obj = {};
  for (const prop of p.properties) {
    const v = obj[prop.name];
    if (v === undefined || (v === null && !prop.omitEmpty)) {
      if (!prop.omitEmpty) out[prop.name] = prop.zero();
    } else if (!(prop.omitEmpty && (prop.pointer ? v === null : isEmpty(prop.schema, v)))) {
      out[prop.name] = canonicalValue(prop.schema, v);
    }
  }
  let unknown: string[] | undefined;
  for (const k in obj) if (!p.known.has(k) && obj[k] !== undefined) (unknown ??= []).push(k);
  if (unknown) for (const k of unknown.sort()) out[k] = s.preserveUnknownFields ? sortedDeep(obj[k]) : obj[k];
  return out;
}

/**
 * The canonical form of `obj`, an object of struct `schema` (see the module description).
 * Pure: `obj` is not modified; the result shares only the values of `raw` fields with it.
 */
export function canonicalize(schema: StructSchema, obj: Obj): Obj {
  return canonicalStruct(schema, planFor(schema), obj);
}
