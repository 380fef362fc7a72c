/**
 * Decoding plans: a protobufjs message (decoded with the types of descriptors.ts) → the JSON
 * object of its struct schema, following a per-struct plan computed once (cached,
 * recursion-safe), so decoding is a linear walk over precomputed field readers. Spec 000
 * § Protobuf envelope; encoding is writer.ts.
 *
 * Go zero-value semantics on decoding:
 * - a field absent from the message is written in JSON only when upstream always writes it
 *   (`Field.omitEmpty === false`), with Go's zero value (`zeroValue` of schema/canonical.ts: the
 *   one definition of those zeros);
 * - an omitempty field whose decoded value is `""` (string or bytes) or `null` (empty Time or
 *   RawExtension) is left out, as Go's JSON encoder does; Go writers always send such fields;
 *   but a pointer (`Field.pointer`) present on the wire is set, so its `""` is kept (proto2
 *   presence: a nil `*string` is not written, an empty one is);
 * - present numbers and booleans are kept even when zero: the type model does not say which
 *   fields are Go pointers (`replicas: 0`, `automountServiceAccountToken: false` must survive).
 */
import type protobuf from 'protobufjs';
import { zeroValue } from '../../schema/canonical.js';
import { embeddingPath, type Schema, type StructSchema, structFields } from '../../schema/types.js';
import { inlineFieldName, messageType, protoFieldName, WRAPPER_FIELD } from './descriptors.js';
import { ProtobufError } from './errors.js';
import {
  bytesFromProto,
  durationFromProto,
  int64ToNumber,
  intOrStringFromProto,
  type Message,
  microTimeFromProto,
  quantityFromProto,
  rawFromProto,
  timeFromProto,
} from './scalars.js';

type Obj = Record<string, unknown>;

/** Converts a protobufjs value to its JSON value (never dropping anything itself). */
type FromProto = (v: unknown) => unknown;

/** One property of a struct: where it lives in the message and how it converts. */
interface FieldPlan {
  json: string;
  /** Field name in the message (or in the innermost inline message of `groups`). */
  name: string;
  /** Field names of the inline messages holding this Go-inline property, outermost first (empty for a plain one). */
  groups: string[];
  shape: 'single' | 'list' | 'map';
  from: FromProto;
  omitEmpty: boolean;
  /** Empty strings and bytes are left out (omitempty, not a pointer). */
  dropsEmpty: boolean;
  /** Go's zero value of the property (fresh each call). */
  zero: () => unknown;
}

interface StructPlan {
  type: protobuf.Type;
  fields: FieldPlan[];
}

const hasOwn = Object.prototype.hasOwnProperty;
const identity: FromProto = (v) => v;
const plans = new WeakMap<StructSchema, StructPlan>();

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

function mappedValues(o: Obj, from: FromProto): Obj {
  const out: Obj = {};
  for (const k in o) out[k] = from(o[k]);
  return out;
}

/** Reads an element of a list or value of a map; nested collections come in an `{items}` wrapper. */
function elementConverter(s: Schema): FromProto {
  const c = converter(s);
  return s.type === 'list' || s.type === 'map' ? (m) => c((m as Message)[WRAPPER_FIELD] ?? (s.type === 'list' ? [] : {})) : c;
}

function converter(s: Schema): FromProto {
  switch (s.type) {
    case 'string':
    case 'boolean':
    case 'number':
      return identity;
    case 'integer':
      return s.format === 'int64' ? int64ToNumber : identity;
    case 'bytes':
      return bytesFromProto;
    case 'time':
      return (s.precision === 'micros' ? microTimeFromProto : timeFromProto) as FromProto;
    case 'duration':
      return durationFromProto as FromProto;
    case 'quantity':
      return quantityFromProto as FromProto;
    case 'int-or-string':
      return intOrStringFromProto as FromProto;
    case 'raw':
      return rawFromProto as FromProto;
    case 'list': {
      const c = elementConverter(s.items);
      return c === identity ? identity : (v) => (v as unknown[]).map(c);
    }
    case 'map': {
      const c = elementConverter(s.values);
      return c === identity ? identity : (v) => mappedValues(v as Obj, c);
    }
    case 'struct': {
      const p = planFor(s);
      return (m) => fromMessage(p, m as Message);
    }
  }
}

/** The conversion plan of a struct schema, built once (the plan exists before its fields, for recursion). */
function planFor(s: StructSchema): StructPlan {
  const cached = plans.get(s);
  if (cached) return cached;
  const p: StructPlan = { type: messageType(s), fields: [] };
  plans.set(s, p);
  for (const [json, f] of Object.entries(structFields(s))) {
    if (f.proto === 0) continue;
    p.fields.push({
      json,
      name: protoFieldName(json, f.proto),
      groups: embeddingPath(f).map((e) => inlineFieldName(e.proto)),
      shape: f.schema.type === 'list' ? 'list' : f.schema.type === 'map' ? 'map' : 'single',
      from: converter(f.schema),
      omitEmpty: f.omitEmpty !== false,
      dropsEmpty: f.omitEmpty !== false && f.pointer !== true,
      zero: () => zeroValue(f),
    });
  }
  return p;
}

function fromMessage(p: StructPlan, m: Message): Obj {
  const out: Obj = {};
  for (const f of p.fields) {
    let src: Message | null | undefined = m;
    for (const g of f.groups) src = src == null ? undefined : (src[g] as Message | null | undefined);
    const raw = src == null ? undefined : src[f.name];
    let v: unknown;
    if (raw != null) {
      if (f.shape === 'list') v = (raw as unknown[]).length > 0 ? f.from(raw) : undefined;
      else if (f.shape === 'map') v = hasKeys(raw as object) ? f.from(raw) : undefined;
      else if (hasOwn.call(src, f.name)) v = f.from(raw);
    }
    if (v === undefined || (f.omitEmpty && (v === null || (v === '' && f.dropsEmpty)))) {
      if (!f.omitEmpty) out[f.json] = f.zero();
    } else {
      out[f.json] = v;
    }
  }
  return out;
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
