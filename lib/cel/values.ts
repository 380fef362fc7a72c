/**
 * Runtime values: JSON data (as decoded from requests and storage) converted to the values the
 * evaluator works on, guided by the declared type, and back. spec 000 § Expression language
 * (CEL) in fields: schema integers become 64-bit ints (BigInt), numbers doubles; objects become
 * typed objects whose null properties count as absent; `set` / `map` lists keep their semantics.
 */

import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { formatDurationNanos, parseDurationNanos } from '../apimachinery/duration.js';
import { Quantity } from '../apimachinery/quantity.js';
import { escapeProperty, unescapeProperty } from './escaping.js';
import type { DeclType, ListDecl, ObjectDecl } from './types.js';

/** A schema object at evaluation time: entries keyed by escaped field name. */
export class CelObject extends Map<string, unknown> {
  /** Properties the schema does not declare (preserved unknown fields), by property name. */
  unknownFields: Record<string, unknown> | undefined;
}

const objectClasses = new WeakMap<ObjectDecl, typeof CelObject>();

/** The class whose instances represent values of object type `decl` (one class per type). */
export function objectClass(decl: ObjectDecl): typeof CelObject {
  let cls = objectClasses.get(decl);
  if (!cls) {
    cls = { [decl.name]: class extends CelObject {} }[decl.name]!;
    objectClasses.set(decl, cls);
  }
  return cls;
}

/** Set / map list semantics carried by a converted array. */
export interface ListSemantics {
  readonly listType: 'set' | 'map';
  readonly mapKeys: readonly string[];
}

const SEMANTICS = Symbol('listSemantics');

/** The set / map semantics of a list value, if it has them. */
export function listSemanticsOf(value: unknown): ListSemantics | undefined {
  return Array.isArray(value) ? (value as { [SEMANTICS]?: ListSemantics })[SEMANTICS] : undefined;
}

/** Marks `list` with set / map semantics (non-enumerable; the array stays a plain array). */
export function withListSemantics<T extends unknown[]>(list: T, semantics: ListSemantics | undefined): T {
  if (semantics) Object.defineProperty(list, SEMANTICS, { value: semantics, enumerable: false });
  return list;
}

/** Data that does not fit its declared type; `path` locates it below the variable. */
export class ConversionError extends Error {
  override readonly name = 'ConversionError';
  constructor(
    readonly detail: string,
    readonly path: string[] = [],
  ) {
    super(`invalid data${path.length ? ` at ${path.join('')}` : ''}: ${detail}`);
  }

  /** The same error one level further out. */
  under(segment: string): ConversionError {
    return new ConversionError(this.detail, [segment, ...this.path]);
  }
}

/** The number an int (bigint), uint or double holds; undefined for any other value. */
export function numericValue(v: unknown): bigint | number | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (v instanceof UnsignedInt) return v.valueOf();
  return undefined;
}

const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function toInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  throw new ConversionError(`expected int, got ${describe(v)}`);
}

function toTimestamp(v: unknown, format: string | undefined): Date {
  if (v instanceof Date) return v;
  if (typeof v !== 'string') throw new ConversionError(`expected timestamp string, got ${describe(v)}`);
  const ok = format === 'date' ? /^\d{4}-\d{2}-\d{2}$/.test(v) : /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(v);
  const d = new Date(format === 'date' ? `${v}T00:00:00Z` : v);
  if (!ok || Number.isNaN(d.getTime())) throw new ConversionError(`invalid ${format ?? 'date-time'} formatted string ${v}`);
  return d;
}

function toDuration(v: unknown): Duration {
  if (v instanceof Duration) return v;
  if (typeof v !== 'string') throw new ConversionError(`expected duration string, got ${describe(v)}`);
  try {
    const nanos = parseDurationNanos(v);
    return new Duration(nanos / 1_000_000_000n, Number(nanos % 1_000_000_000n));
  } catch (err) {
    throw new ConversionError(`invalid duration ${v}: ${(err as Error).message}`);
  }
}

function toBytes(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0) {
    throw new ConversionError(`invalid byte formatted string ${String(v)}`);
  }
  return new Uint8Array(Buffer.from(v, 'base64'));
}

/** Converts untyped JSON: integral numbers become ints, objects maps (keys kept verbatim). */
export function dynamicToCel(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(dynamicToCel);
  if (isPlainObject(v)) {
    const m = new Map<string, unknown>();
    for (const [k, x] of Object.entries(v)) m.set(k, dynamicToCel(x));
    return m;
  }
  return v;
}

function listToCel(v: unknown, t: ListDecl): unknown[] {
  if (!Array.isArray(v)) throw new ConversionError(`expected array, got ${describe(v)}`);
  const out = new Array<unknown>(v.length);
  for (let i = 0; i < v.length; i++) {
    try {
      out[i] = v[i] === null ? null : toCel(v[i], t.elem);
    } catch (err) {
      throw err instanceof ConversionError ? err.under(`[${i}]`) : err;
    }
  }
  return t.listType === 'atomic' ? out : withListSemantics(out, { listType: t.listType, mapKeys: t.mapKeys });
}

function objectToCel(v: unknown, t: ObjectDecl): CelObject {
  if (v instanceof CelObject) return v;
  if (!isPlainObject(v)) throw new ConversionError(`expected object, got ${describe(v)}`);
  const obj = new (objectClass(t))();
  for (const [property, raw] of Object.entries(v)) {
    const ident = escapeProperty(property);
    const field = ident === undefined ? undefined : t.fields.get(ident);
    if (!field) {
      obj.unknownFields ??= {};
      obj.unknownFields[property] = raw;
      continue;
    }
    if (raw === null || raw === undefined) continue;
    try {
      obj.set(ident!, toCel(raw, field.type));
    } catch (err) {
      throw err instanceof ConversionError ? err.under(`.${property}`) : err;
    }
  }
  return obj;
}

function mapToCel(v: unknown, valueType: DeclType): Map<string, unknown> {
  if (v instanceof Map) return v as Map<string, unknown>;
  if (!isPlainObject(v)) throw new ConversionError(`expected object, got ${describe(v)}`);
  const m = new Map<string, unknown>();
  for (const [k, x] of Object.entries(v)) {
    try {
      m.set(k, x === null ? null : toCel(x, valueType));
    } catch (err) {
      throw err instanceof ConversionError ? err.under(`[${JSON.stringify(k)}]`) : err;
    }
  }
  return m;
}

/**
 * Converts a JSON value to the runtime value of type `t`. `undefined` stays undefined (absent);
 * values that are already runtime values pass through. Throws ConversionError on a mismatch.
 */
export function toCel(v: unknown, t: DeclType): unknown {
  if (v === undefined) return t.kind === 'optional' ? Optional.none() : undefined;
  if (v === null && t.kind !== 'optional') return null;
  switch (t.kind) {
    case 'primitive':
      switch (t.name) {
        case 'int':
          return toInt(v);
        case 'uint': {
          if (v instanceof UnsignedInt) return v;
          const i = toInt(v);
          if (i < 0n || i >= 1n << 64n) throw new ConversionError(`uint out of range: ${i}`);
          return new UnsignedInt(i);
        }
        case 'double':
          if (typeof v === 'number') return v;
          if (typeof v === 'bigint') return Number(v);
          throw new ConversionError(`expected number, got ${describe(v)}`);
        case 'string':
          if (typeof v === 'string') return v;
          throw new ConversionError(`expected string, got ${describe(v)}`);
        case 'bool':
          if (typeof v === 'boolean') return v;
          throw new ConversionError(`expected bool, got ${describe(v)}`);
        case 'bytes':
          return toBytes(v);
        case 'google.protobuf.Timestamp':
          return toTimestamp(v, t.format);
        case 'google.protobuf.Duration':
          return toDuration(v);
        default:
          return v;
      }
    case 'dyn':
      if (t.intOrString) {
        if (typeof v === 'string') return v;
        return toInt(v);
      }
      return dynamicToCel(v);
    case 'list':
      return listToCel(v, t);
    case 'map':
      return mapToCel(v, t.value);
    case 'object':
      return objectToCel(v, t);
    case 'optional':
      return v instanceof Optional ? v : Optional.of(toCel(v, t.inner));
    case 'opaque':
      return v;
  }
}

/** RFC 3339 with the shortest exact fraction, as Go's time.RFC3339Nano prints. */
export function formatTimestamp(t: Date): string {
  return t.toISOString().replace(/\.?0+Z$/, 'Z');
}

/**
 * Converts an evaluation result to JSON: ints to numbers (strings beyond 2^53), objects back to
 * their property names, timestamps to RFC 3339, durations to Go duration text, bytes to base64,
 * quantities to their canonical string, an empty optional to undefined.
 */
export function celToJSON(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof UnsignedInt) return celToJSON(v.valueOf());
  if (v instanceof Date) return formatTimestamp(v);
  if (v instanceof Duration) return formatDurationNanos(v.seconds * 1_000_000_000n + BigInt(v.nanos));
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof Quantity) return v.toString();
  if (v instanceof Optional) return v.hasValue() ? celToJSON(v.value()) : undefined;
  if (Array.isArray(v)) return v.map(celToJSON);
  if (v instanceof CelObject) {
    const out: Record<string, unknown> = { ...v.unknownFields };
    for (const [k, x] of v) out[unescapeProperty(k) ?? k] = celToJSON(x);
    return out;
  }
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) out[String(k)] = celToJSON(x);
    return out;
  }
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = celToJSON(x);
    return out;
  }
  return v;
}
