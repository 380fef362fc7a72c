/**
 * Encoding plans: a JSON object written straight into a protobufjs Writer as the message of its
 * struct schema, following a per-struct plan computed once (cached, recursion-safe). Writing
 * directly, rather than building an intermediate message object for `Type.encode`, keeps
 * encoding about as fast as JSON.stringify. The bytes are those of the messages descriptors.ts
 * declares (the same numbers and types), in upstream's order: fields by ascending number, map
 * entries by sorted key. Spec 000 § Protobuf envelope.
 *
 * A property is written when present and not null (proto2 presence: zero values are written);
 * properties the schema does not know, and apiVersion/kind (number 0), are not. A null element
 * of a list or value of a map is written as its type's zero.
 */
import protobuf from 'protobufjs';
import { embeddingPath, type Schema, type StructSchema, structFields } from '../../schema/types.js';
import { unencodable } from './errors.js';
import { IntOrString, Quantity, RawExtension, Time, Duration } from './meta-types.js';
import { bytesToProto, durationToNanos, quantityText, timeToProto } from './scalars.js';

type Obj = Record<string, unknown>;
type Writer = protobuf.Writer;
/** Writes one value of a field, tag included. */
type Write = (w: Writer, v: unknown) => void;

/** One step of a struct plan: a property, or a Go-inline group written as one nested message. */
interface Step {
  json: string;
  write: Write;
  /** Inline group: its tag and properties (then `json` and `write` are unused). */
  tag: number;
  group: Step[] | undefined;
}

interface WriterPlan {
  id: string;
  steps: Step[];
}

const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

function tagOf(num: number, wireType: number): number {
  return ((num << 3) | wireType) >>> 0;
}

/** The tag of field `name` of a declared meta message. */
function metaTag(type: protobuf.Type, name: string, wireType: number): number {
  return tagOf(type.fields[name]!.id, wireType);
}

const TIME_SECONDS = metaTag(Time, 'seconds', VARINT);
const TIME_NANOS = metaTag(Time, 'nanos', VARINT);
const DURATION = metaTag(Duration, 'duration', VARINT);
const QUANTITY = metaTag(Quantity, 'string', LENGTH_DELIMITED);
const IOS_TYPE = metaTag(IntOrString, 'type', VARINT);
const IOS_INT = metaTag(IntOrString, 'intVal', VARINT);
const IOS_STR = metaTag(IntOrString, 'strVal', LENGTH_DELIMITED);
const RAW = metaTag(RawExtension, 'raw', LENGTH_DELIMITED);
const MAP_KEY = tagOf(1, LENGTH_DELIMITED);

const plans = new WeakMap<StructSchema, WriterPlan>();

/** The wire type a value of schema `s` is written with. */
function wireTypeOf(s: Schema): number {
  switch (s.type) {
    case 'integer':
    case 'boolean':
      return VARINT;
    case 'number':
      return s.format === 'float' ? FIXED32 : FIXED64;
    default:
      return LENGTH_DELIMITED;
  }
}

/** Writes a value of schema `s` as field `num`. */
function writerFor(s: Schema, num: number): Write {
  const t = tagOf(num, wireTypeOf(s));
  switch (s.type) {
    case 'string':
      return (w, v) => void w.uint32(t).string(v as string);
    case 'integer':
      return s.format === 'int64' ? (w, v) => void w.uint32(t).int64(v as number) : (w, v) => void w.uint32(t).int32(v as number);
    case 'number':
      return s.format === 'float' ? (w, v) => void w.uint32(t).float(v as number) : (w, v) => void w.uint32(t).double(v as number);
    case 'boolean':
      return (w, v) => void w.uint32(t).bool(v as boolean);
    case 'bytes':
      return (w, v) => void w.uint32(t).bytes(bytesToProto(v));
    case 'time':
      return (w, v) => {
        const { seconds, nanos } = timeToProto(v);
        w.uint32(t).fork().uint32(TIME_SECONDS).int64(seconds).uint32(TIME_NANOS).int32(nanos).ldelim();
      };
    case 'duration':
      return (w, v) => void w.uint32(t).fork().uint32(DURATION).int64(durationToNanos(v)).ldelim();
    case 'quantity':
      return (w, v) => void w.uint32(t).fork().uint32(QUANTITY).string(quantityText(v)).ldelim();
    case 'int-or-string':
      return (w, v) => {
        w.uint32(t).fork();
        if (typeof v === 'number') w.uint32(IOS_TYPE).int64(0).uint32(IOS_INT).int32(v).uint32(IOS_STR).string('');
        else w.uint32(IOS_TYPE).int64(1).uint32(IOS_INT).int32(0).uint32(IOS_STR).string(String(v));
        w.ldelim();
      };
    case 'raw':
      return (w, v) => void w.uint32(t).fork().uint32(RAW).bytes(Buffer.from(JSON.stringify(v))).ldelim();
    case 'struct': {
      const p = planFor(s);
      return (w, v) => {
        w.uint32(t).fork();
        writeStruct(p, w, v);
        w.ldelim();
      };
    }
    case 'list': {
      const element = elementWriter(s.items, num);
      return (w, v) => {
        if (!Array.isArray(v)) throw unencodable('list', v, 'not an array');
        for (const e of v) element(w, e);
      };
    }
    case 'map': {
      const value = elementWriter(s.values, 2);
      return (w, v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw unencodable('map', v, 'not an object');
        const m = v as Obj;
        for (const k of Object.keys(m).sort()) {
          w.uint32(t).fork().uint32(MAP_KEY).string(k);
          value(w, m[k]);
          w.ldelim();
        }
      };
    }
  }
}

/** Writes an element of a list or a value of a map as field `num`: nested collections in an `{items = 1}` wrapper, null as the zero. */
function elementWriter(s: Schema, num: number): Write {
  let write: Write;
  if (s.type === 'list' || s.type === 'map') {
    const inner = writerFor(s, 1);
    const t = tagOf(num, LENGTH_DELIMITED);
    write = (w, v) => {
      w.uint32(t).fork();
      inner(w, v);
      w.ldelim();
    };
  } else {
    write = writerFor(s, num);
  }
  const wireType = wireTypeOf(s);
  const t = tagOf(num, wireType);
  const zero: (w: Writer) => void =
    wireType === FIXED64 ? (w) => void w.uint32(t).double(0) : wireType === FIXED32 ? (w) => void w.uint32(t).float(0) : (w) => void w.uint32(t).uint32(0);
  return (w, v) => (v === null || v === undefined ? zero(w) : write(w, v));
}

function byNumber(a: [number, Step], b: [number, Step]): number {
  return a[0] - b[0];
}

/** The plan of a struct, built once (cached before its fields, for recursive structs). */
function planFor(s: StructSchema): WriterPlan {
  const cached = plans.get(s);
  if (cached) return cached;
  const p: WriterPlan = { id: s.id, steps: [] };
  plans.set(s, p);
  const top: Members = { steps: [], groups: new Map() };
  for (const [json, f] of Object.entries(structFields(s))) {
    if (f.proto === 0) continue;
    let members = top;
    for (const e of embeddingPath(f)) {
      const inner = members.groups.get(e.proto) ?? { steps: [], groups: new Map() };
      members.groups.set(e.proto, inner);
      members = inner;
    }
    members.steps.push([f.proto, { json, write: writerFor(f.schema, f.proto), tag: 0, group: undefined }]);
  }
  p.steps = orderedSteps(top);
  return p;
}

/** The properties and inline groups of one message while a plan is built, by field number. */
interface Members {
  steps: [number, Step][];
  groups: Map<number, Members>;
}

/** The steps of `m` by ascending field number, each inline group as one step (recursively). */
function orderedSteps(m: Members): Step[] {
  const all = [...m.steps];
  for (const [num, inner] of m.groups) all.push([num, { json: '', write: () => undefined, tag: tagOf(num, LENGTH_DELIMITED), group: orderedSteps(inner) }]);
  return all.sort(byNumber).map(([, step]) => step);
}

function anyPresent(o: Obj, steps: Step[]): boolean {
  for (const step of steps) if (step.group === undefined ? o[step.json] != null : anyPresent(o, step.group)) return true;
  return false;
}

/** Writes the properties of `o` that `steps` name; an inline group as one nested message when any member is present. */
function writeSteps(w: Writer, o: Obj, steps: Step[]): void {
  for (const step of steps) {
    if (step.group === undefined) {
      const x = o[step.json];
      if (x != null) step.write(w, x);
    } else if (anyPresent(o, step.group)) {
      w.uint32(step.tag).fork();
      writeSteps(w, o, step.group);
      w.ldelim();
    }
  }
}

function writeStruct(p: WriterPlan, w: Writer, v: unknown): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw unencodable(`message ${p.id}`, v, 'not an object');
  writeSteps(w, v as Obj, p.steps);
}

/**
 * Writes `obj` into `w` as the message of struct `schema` (without tag or length).
 * @throws ProtobufError `Unencodable` when a value does not fit its schema (a struct or map that
 *   is not an object, a list that is not an array, a time that is not RFC 3339…).
 */
export function writeMessage(w: Writer, schema: StructSchema, obj: Obj): void {
  writeStruct(planFor(schema), w, obj);
}

/**
 * The protobuf bytes of `obj` as the message of struct `schema` (no envelope).
 * @throws ProtobufError `Unencodable`, as writeMessage.
 */
export function encodeMessage(schema: StructSchema, obj: Obj): Uint8Array {
  const w = protobuf.Writer.create();
  writeMessage(w, schema, obj);
  return w.finish();
}
