/**
 * Conversion plans: JSON object ↔ protobufjs message for a struct schema, computed once per
 * struct (cached, recursion-safe) so encoding and decoding an object is a linear walk over
 * precomputed field converters. Spec 000 § Protobuf envelope.
 *
 * Go zero-value semantics on decoding:
 * - a field absent from the message is written in JSON only when upstream always writes it
 *   (`Field.omitEmpty === false`), with Go's zero value (`""`, `0`, `false`, `null` for times and
 *   raw values, `[]`, `{}`, a zero struct with its own always-written fields);
 * - an omitempty field whose decoded value is `""` (string or bytes) or `null` (empty Time or
 *   RawExtension) is left out, as Go's JSON encoder does; Go writers always send such fields;
 * - present numbers and booleans are kept even when zero: the type model does not say which
 *   fields are Go pointers (`replicas: 0`, `automountServiceAccountToken: false` must survive).
 * Maps are written with sorted keys, as upstream's marshaller does.
 */
import type protobuf from 'protobufjs';
import { type Schema, type StructSchema, structFields } from '../../schema/types.js';
import { inlineFieldName, messageType, protoFieldName, WRAPPER_FIELD } from './descriptors.js';
import { ProtobufError } from './errors.js';
import {
  bytesFromProto,
  bytesToProto,
  durationFromProto,
  durationToProto,
  int64ToNumber,
  intOrStringFromProto,
  intOrStringToProto,
  type Message,
  microTimeFromProto,
  quantityFromProto,
  quantityToProto,
  rawFromProto,
  rawToProto,
  timeFromProto,
  timeToProto,
} from './scalars.js';

type Obj = Record<string, unknown>;

/** A value converter: JSON → protobufjs value and back (never dropping anything itself). */
interface Converter {
  to: (v: unknown) => unknown;
  from: (v: unknown) => unknown;
}

/** One property of a struct: where it lives in the message and how it converts. */
interface FieldPlan {
  json: string;
  /** Field name in the message (or in the inline message `group`). */
  name: string;
  /** Field name of the inline message holding this Go-inline property. */
  group: string | undefined;
  shape: 'single' | 'list' | 'map';
  to: Converter['to'];
  from: Converter['from'];
  omitEmpty: boolean;
  /** Go's zero value of the property (fresh each call). */
  zero: () => unknown;
}

interface StructPlan {
  type: protobuf.Type;
  fields: FieldPlan[];
  /** The JSON text of the zero struct, computed on first need. */
  zeroText: string | undefined;
  computingZero: boolean;
}

const hasOwn = Object.prototype.hasOwnProperty;
const identity = (v: unknown): unknown => v;
const IDENTITY: Converter = { to: identity, from: identity };
const plans = new WeakMap<StructSchema, StructPlan>();

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

function sortedMap(o: Obj, to: (v: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const k of Object.keys(o).sort()) out[k] = to(o[k]);
  return out;
}

function mappedValues(o: Obj, from: (v: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const k in o) out[k] = from(o[k]);
  return out;
}

/** Wraps a nested list or map converter into the `{items}` wrapper message. */
function wrapped(c: Converter): Converter {
  return { to: (v) => ({ [WRAPPER_FIELD]: c.to(v) }), from: (m) => c.from((m as Message)[WRAPPER_FIELD] ?? []) };
}

function elementConverter(s: Schema): Converter {
  const c = converter(s);
  return s.type === 'list' || s.type === 'map' ? wrapped(c) : c;
}

function converter(s: Schema): Converter {
  switch (s.type) {
    case 'string':
    case 'boolean':
    case 'number':
      return IDENTITY;
    case 'integer':
      return s.format === 'int64' ? { to: identity, from: int64ToNumber } : IDENTITY;
    case 'bytes':
      return { to: bytesToProto, from: bytesFromProto };
    case 'time':
      return { to: timeToProto, from: (s.precision === 'micros' ? microTimeFromProto : timeFromProto) as Converter['from'] };
    case 'duration':
      return { to: durationToProto, from: durationFromProto as Converter['from'] };
    case 'quantity':
      return { to: quantityToProto, from: quantityFromProto as Converter['from'] };
    case 'int-or-string':
      return { to: intOrStringToProto, from: intOrStringFromProto as Converter['from'] };
    case 'raw':
      return { to: rawToProto, from: rawFromProto as Converter['from'] };
    case 'list': {
      const c = elementConverter(s.items);
      if (c === IDENTITY) return IDENTITY;
      return { to: (v) => (v as unknown[]).map((e) => c.to(e)), from: (v) => (v as unknown[]).map((e) => c.from(e)) };
    }
    case 'map': {
      const c = elementConverter(s.values);
      return { to: (v) => sortedMap(v as Obj, c.to), from: c === IDENTITY ? identity : (v) => mappedValues(v as Obj, c.from) };
    }
    case 'struct': {
      const p = planFor(s);
      return { to: (v) => toMessage(p, v), from: (m) => fromMessage(p, m as Message) };
    }
  }
}

/** Go's zero value of a property of schema `s`, as upstream writes it in JSON. */
function zeroOf(s: Schema): () => unknown {
  switch (s.type) {
    case 'string':
      return () => '';
    case 'integer':
    case 'number':
    case 'int-or-string':
      return () => 0;
    case 'boolean':
      return () => false;
    case 'duration':
      return () => '0s';
    case 'quantity':
      return () => '0';
    case 'bytes':
    case 'time':
    case 'raw':
      return () => null;
    case 'list':
      return () => [];
    case 'map':
      return () => ({});
    case 'struct': {
      const p = planFor(s);
      return () => zeroStruct(p);
    }
  }
}

/** A fresh zero struct: its always-written fields with their zero values (`{}` inside a cycle). */
function zeroStruct(p: StructPlan): Obj {
  if (p.zeroText === undefined) {
    if (p.computingZero) return {};
    p.computingZero = true;
    p.zeroText = JSON.stringify(fromMessage(p, {}));
    p.computingZero = false;
  }
  return p.zeroText === '{}' ? {} : (JSON.parse(p.zeroText) as Obj);
}

/** The conversion plan of a struct schema, built once (the plan exists before its fields, for recursion). */
function planFor(s: StructSchema): StructPlan {
  const cached = plans.get(s);
  if (cached) return cached;
  const p: StructPlan = { type: messageType(s), fields: [], zeroText: undefined, computingZero: false };
  plans.set(s, p);
  for (const [json, f] of Object.entries(structFields(s))) {
    if (f.proto === 0) continue;
    const c = converter(f.schema);
    p.fields.push({
      json,
      name: protoFieldName(json, f.proto),
      group: f.embedded ? inlineFieldName(f.embedded.proto) : undefined,
      shape: f.schema.type === 'list' ? 'list' : f.schema.type === 'map' ? 'map' : 'single',
      to: c.to,
      from: c.from,
      omitEmpty: f.omitEmpty !== false,
      zero: zeroOf(f.schema),
    });
  }
  return p;
}

function toMessage(p: StructPlan, value: unknown): Message {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProtobufError('Unencodable', `cannot encode ${JSON.stringify(value)} as protobuf message ${p.type.name}: not an object`);
  }
  const o = value as Obj;
  const out: Message = {};
  for (const f of p.fields) {
    const v = o[f.json];
    if (v === undefined || v === null) continue;
    if (f.group === undefined) out[f.name] = f.to(v);
    else ((out[f.group] ??= {}) as Message)[f.name] = f.to(v);
  }
  return out;
}

function fromMessage(p: StructPlan, m: Message): Obj {
  const out: Obj = {};
  for (const f of p.fields) {
    const src = f.group === undefined ? m : (m[f.group] as Message | null | undefined);
    const raw = src == null ? undefined : src[f.name];
    let v: unknown;
    if (raw != null) {
      if (f.shape === 'list') v = (raw as unknown[]).length > 0 ? f.from(raw) : undefined;
      else if (f.shape === 'map') v = hasKeys(raw as object) ? f.from(raw) : undefined;
      else if (hasOwn.call(src, f.name)) v = f.from(raw);
    }
    if (v === undefined || (f.omitEmpty && (v === '' || v === null))) {
      if (!f.omitEmpty) out[f.json] = f.zero();
    } else {
      out[f.json] = v;
    }
  }
  return out;
}

/**
 * The protobuf bytes of `obj` as a message of struct `schema` (no envelope). Properties the
 * schema does not know, and apiVersion/kind (field number 0), are not written.
 * @throws ProtobufError `Unencodable` when a value does not fit its schema.
 */
export function encodeMessage(schema: StructSchema, obj: Obj): Uint8Array {
  const p = planFor(schema);
  return p.type.encode(toMessage(p, obj)).finish();
}

/**
 * Decodes the protobuf bytes of a message of struct `schema` into its JSON object (without
 * apiVersion/kind), with the zero-value rules of this module's description.
 * @throws ProtobufError `Malformed` when the bytes are not a valid message of that type.
 */
export function decodeMessage(schema: StructSchema, bytes: Uint8Array): Obj {
  const p = planFor(schema);
  let m: Message;
  try {
    m = p.type.decode(bytes) as unknown as Message;
  } catch (err) {
    throw new ProtobufError('Malformed', `malformed protobuf message ${p.type.name}: ${(err as Error).message}`, { cause: err });
  }
  return fromMessage(p, m);
}
