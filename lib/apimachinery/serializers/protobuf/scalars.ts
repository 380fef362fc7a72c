/**
 * JSON ↔ protobuf conversions of the scalar kinds of the type model (schema/types.ts), each to
 * and from the message shapes declared in meta-types.ts, as the upstream Go types marshal them:
 * metav1.Time / MicroTime, metav1.Duration, resource.Quantity, intstr.IntOrString,
 * runtime.RawExtension, `[]byte`, int64. Spec 000 § Protobuf envelope.
 *
 * Decoders receive protobufjs messages (proto2: a field is present when it is an own property).
 */
import { goJSONSyntaxError } from '../go-json-errors.js';
import { MAX_OBJECT_DEPTH, jsonTooDeep } from '../nesting.js';
import { DurationError, formatDurationNanos, parseDurationNanos } from '../../duration.js';
import { ProtobufError, unencodable } from './errors.js';

/** A decoded protobufjs message: fields by name, present ones as own properties. */
export type Message = Record<string, unknown>;

/** An int64 as protobufjs decodes it when long.js is present (the shape used here). */
interface Long {
  toNumber(): number;
  toString(): string;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Whether a proto2 optional field is set in a decoded message. */
function isSet(m: Message, name: string): boolean {
  return hasOwn.call(m, name) && m[name] != null;
}

/** An int64 as protobufjs decodes it (a Long, or a number without long.js) → a JSON number. */
export function int64ToNumber(v: unknown): number {
  return typeof v === 'number' ? v : (v as Long).toNumber();
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * RFC 3339 text → Time/MicroTime `{seconds, nanos}` (both always written, as upstream's
 * Timestamp marshaller does).
 * @throws ProtobufError `Unencodable` when the text is not RFC 3339.
 */
export function timeToProto(v: unknown): { seconds: number; nanos: number } {
  const m = typeof v === 'string' ? RFC3339.exec(v) : null;
  const ms = m ? Date.parse(`${m[1]}T${m[2]}${m[4] === 'z' ? 'Z' : m[4]}`) : NaN;
  if (Number.isNaN(ms)) throw unencodable('time', v, 'not an RFC 3339 date-time');
  return { seconds: Math.floor(ms / 1000), nanos: m![3] ? Number(m![3].padEnd(9, '0')) : 0 };
}

/** Go's RFC 3339 range: years 0000 to 9999 (Unix seconds). */
const MIN_SECONDS = -62167219200;
const MAX_SECONDS = 253402300799;

/**
 * `YYYY-MM-DDTHH:MM:SS` of a Unix time in seconds, UTC.
 * @throws ProtobufError `Malformed` outside years 0000–9999, which RFC 3339 cannot write.
 */
function isoSeconds(seconds: number): string {
  if (!(seconds >= MIN_SECONDS && seconds <= MAX_SECONDS)) throw new ProtobufError('Malformed', `time of ${seconds} seconds is outside the years 0000–9999`);
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

/**
 * Time `{seconds, nanos}` → RFC 3339 at second precision (`2024-05-01T10:00:00Z`); nanoseconds
 * are dropped as upstream's Time unmarshaller drops them. An empty message is Go's zero time:
 * null.
 * @throws ProtobufError `Malformed` for a time outside years 0000–9999.
 */
export function timeFromProto(m: Message): string | null {
  if (!isSet(m, 'seconds') && !isSet(m, 'nanos')) return null;
  return `${isoSeconds(int64ToNumber(m.seconds ?? 0))}Z`;
}

/** MicroTime `{seconds, nanos}` → RFC 3339 with six fraction digits; an empty message is null. */
export function microTimeFromProto(m: Message): string | null {
  if (!isSet(m, 'seconds') && !isSet(m, 'nanos')) return null;
  const micros = Math.floor(((m.nanos as number | undefined) ?? 0) / 1000);
  return `${isoSeconds(int64ToNumber(m.seconds ?? 0))}.${String(micros).padStart(6, '0')}Z`;
}

/**
 * Go duration text (`1h30m`) → the int64 nanoseconds of Duration `{duration}`, as decimal text
 * (exact beyond 2^53; protobufjs writes it as an int64).
 * @throws ProtobufError `Unencodable` for text Go's ParseDuration rejects.
 */
export function durationToNanos(v: unknown): string {
  try {
    return parseDurationNanos(String(v)).toString();
  } catch (err) {
    if (err instanceof DurationError) throw unencodable('duration', v, err.message, err);
    throw err;
  }
}

/** Duration `{duration}` → Go's `Duration.String` text (`1h30m0s`). */
export function durationFromProto(m: Message): string {
  const d = m.duration ?? 0;
  return formatDurationNanos(BigInt(typeof d === 'number' ? d : (d as Long).toString()));
}

/** Quantity in JSON (text, or a number some clients send) → the text of Quantity `{string}`. */
export function quantityText(v: unknown): string {
  return typeof v === 'number' ? String(v) : (v as string);
}

/** Quantity `{string}` → its text; an empty one is Go's zero Quantity, `0`. */
export function quantityFromProto(m: Message): string {
  return (m.string as string | undefined) || '0';
}

/** IntOrString `{type, intVal, strVal}` → a JSON number (type 0) or string (type 1). */
export function intOrStringFromProto(m: Message): number | string {
  return int64ToNumber(m.type ?? 0) === 1 ? ((m.strVal as string | undefined) ?? '') : ((m.intVal as number | undefined) ?? 0);
}

/**
 * RawExtension `{raw}` → the JSON value its bytes hold; empty is null (Go's nil RawExtension).
 * @throws ProtobufError `Malformed` when the bytes are not JSON, or nest deeper than
 * MAX_OBJECT_DEPTH (nesting.ts).
 */
export function rawFromProto(m: Message): unknown {
  const raw = m.raw as Uint8Array | undefined;
  if (!raw || raw.length === 0) return null;
  const text = bytesView(raw).toString('utf8');
  let cause: unknown;
  if (!jsonTooDeep(text)) {
    try {
      return JSON.parse(text);
    } catch (err) {
      cause = err;
    }
  }
  throw new ProtobufError('Malformed', `raw extension does not hold JSON: ${goJSONSyntaxError(raw, MAX_OBJECT_DEPTH) ?? 'unexpected end of JSON input'}`, { cause });
}

/** A Buffer over the same memory as `u8` (protobufjs yields Buffers in Node, Uint8Arrays otherwise). */
function bytesView(u8: Uint8Array): Buffer {
  return Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}

/** `[]byte` in JSON (standard base64) → bytes. */
export function bytesToProto(v: unknown): Buffer {
  return Buffer.from(v as string, 'base64');
}

/** bytes → standard padded base64, as Go's encoding/json writes `[]byte`. */
export function bytesFromProto(v: unknown): string {
  return bytesView(v as Uint8Array).toString('base64');
}
