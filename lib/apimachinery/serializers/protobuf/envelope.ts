/**
 * The protobuf envelope of spec 000 § Protobuf envelope: the magic `6b 38 73 00`, then a
 * `runtime.Unknown` whose `typeMeta` names the kind and whose `raw` is the object's message.
 * Objects, lists (`<Kind>List`) and Status errors all travel this way (§ Content negotiation and
 * encoding, media type PROTOBUF_MEDIA_TYPE).
 */
import protobuf from 'protobufjs';
import type { StructSchema } from '../../schema/types.js';
import { PROTOBUF_MEDIA_TYPE } from '../../../apis/vendor.js';
import { ProtobufError } from './errors.js';
import { TypeMeta, Unknown } from './meta-types.js';
import { decodeMessage } from './reader.js';
import type { Message } from './scalars.js';
import { builtinSchema } from './status.js';
import { writeMessage } from './writer.js';

/** The four bytes every enveloped message starts with (`k8s\0`). */
export const PROTOBUF_MAGIC: Buffer = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The tag (number, length-delimited wire type) of a field of a declared envelope message. */
function tag(type: protobuf.Type, name: string): number {
  return ((type.fields[name]!.id << 3) | 2) >>> 0;
}

const UNKNOWN_TYPE_META = tag(Unknown, 'typeMeta');
const UNKNOWN_RAW = tag(Unknown, 'raw');
const UNKNOWN_CONTENT_ENCODING = tag(Unknown, 'contentEncoding');
const UNKNOWN_CONTENT_TYPE = tag(Unknown, 'contentType');
const TYPE_META_API_VERSION = tag(TypeMeta, 'apiVersion');
const TYPE_META_KIND = tag(TypeMeta, 'kind');

/** What the envelope needs to know about an object: its type meta and its struct schema. */
export interface ProtobufKind {
  /** `v1`, `apps/v1`. */
  apiVersion: string;
  /** `Pod`, `PodList`, `Status`. */
  kind: string;
  /** The struct schema of that kind (a kind's `schema` or `listSchema`). */
  schema: StructSchema;
}

/** Finds the struct schema of an apiVersion and kind; undefined when the kind is unknown. */
export type ProtobufResolver = (apiVersion: string, kind: string) => StructSchema | undefined;

/** A decoded envelope: the type meta it carried and the JSON object (with apiVersion and kind). */
export interface DecodedProtobuf {
  apiVersion: string;
  kind: string;
  object: Record<string, unknown>;
}

/**
 * Encodes a JSON object in the envelope: magic + `Unknown{typeMeta{apiVersion, kind}, raw,
 * contentEncoding: "", contentType: ""}` — the two strings written empty as upstream writes them —
 * in one buffer (the object's message is written in place).
 * The object's own apiVersion/kind are not read; `kind` names them.
 * @throws ProtobufError `Unencodable` when a value does not fit the schema.
 */
export function encodeProtobuf(obj: Record<string, unknown>, kind: ProtobufKind): Buffer {
  return envelope(kind.apiVersion, kind.kind, (w) => {
    w.fork();
    writeMessage(w, kind.schema, obj);
    w.ldelim();
  });
}

/** The envelope around a `raw` message of `rawLength` bytes written apart: what comes before it and after it. */
export interface EnvelopeFraming {
  /** Magic, `typeMeta`, and the `raw` field's tag and length. */
  prefix: Buffer;
  /** The empty `contentEncoding` and `contentType`. */
  suffix: Buffer;
}

/**
 * The envelope of `apiVersion`/`kind` split around a `raw` message of `rawLength` bytes, for
 * callers that stream the message in pieces (large lists): `prefix`, the message, `suffix` are
 * exactly the bytes of `encodeProtobuf` of the same object.
 */
export function envelopeFraming(apiVersion: string, kind: string, rawLength: number): EnvelopeFraming {
  const w = protobuf.Writer.create();
  writeTypeMeta(w, apiVersion, kind);
  w.uint32(UNKNOWN_RAW).uint32(rawLength);
  const suffix = protobuf.Writer.create();
  writeContentFields(suffix);
  return { prefix: w.finish() as Buffer, suffix: suffix.finish() as Buffer };
}

/** The magic and the `typeMeta` field. */
function writeTypeMeta(w: protobuf.Writer, apiVersion: string, kind: string): void {
  w.raw(PROTOBUF_MAGIC);
  w.uint32(UNKNOWN_TYPE_META).fork().uint32(TYPE_META_API_VERSION).string(apiVersion).uint32(TYPE_META_KIND).string(kind).ldelim();
}

/** The `contentEncoding` and `contentType` fields, written empty as upstream writes them. */
function writeContentFields(w: protobuf.Writer): void {
  w.uint32(UNKNOWN_CONTENT_ENCODING).string('').uint32(UNKNOWN_CONTENT_TYPE).string('');
}

/** Magic + Unknown around the `raw` field's length-delimited value, which `writeRaw` writes. */
function envelope(apiVersion: string, kind: string, writeRaw: (w: protobuf.Writer) => void): Buffer {
  const w = protobuf.Writer.create();
  writeTypeMeta(w, apiVersion, kind);
  w.uint32(UNKNOWN_RAW);
  writeRaw(w);
  writeContentFields(w);
  return w.finish() as Buffer;
}

function readEnvelope(data: Uint8Array): Message {
  if (data.length === 0) throw new ProtobufError('NotProtobuf', 'empty data');
  if (data.length < PROTOBUF_MAGIC.length || !PROTOBUF_MAGIC.equals(data.subarray(0, PROTOBUF_MAGIC.length))) {
    throw new ProtobufError('NotProtobuf', `provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_MAGIC].join(' ')}]`);
  }
  if (data.length === PROTOBUF_MAGIC.length) throw new ProtobufError('NotProtobuf', 'empty body');
  try {
    return Unknown.decode(data.subarray(PROTOBUF_MAGIC.length)) as unknown as Message;
  } catch (err) {
    throw new ProtobufError('Malformed', `malformed protobuf envelope: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Decodes an enveloped object: checks the magic, reads the Unknown, resolves its kind and
 * decodes `raw` as that kind's message. The object gets the envelope's apiVersion and kind
 * first, like a JSON object. `v1` `Status` resolves to the built-in Status schema when
 * `resolve` does not know it.
 * @throws ProtobufError `NotProtobuf` (empty data, missing magic: "provided data does not
 *   appear to be a protobuf message, expected prefix [107 56 115 0]"), `Malformed`,
 *   `MissingKind`, `UnknownKind` (`no kind "X" is registered for version "v1"`),
 *   `UnsupportedEncoding` (a contentEncoding, or a contentType other than protobuf).
 */
export function decodeProtobuf(data: Uint8Array, resolve: ProtobufResolver): DecodedProtobuf {
  const envelope = readEnvelope(data);
  const typeMeta = (envelope.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const apiVersion = typeMeta.apiVersion ?? '';
  const kind = typeMeta.kind ?? '';
  if (!kind) throw new ProtobufError('MissingKind', `Object 'Kind' is missing in the protobuf envelope (apiVersion ${JSON.stringify(apiVersion)})`);
  if (!apiVersion) throw new ProtobufError('MissingKind', `Object 'apiVersion' is missing in the protobuf envelope (kind ${JSON.stringify(kind)})`);
  const contentEncoding = (envelope.contentEncoding as string | undefined) ?? '';
  if (contentEncoding) throw new ProtobufError('UnsupportedEncoding', `unsupported content encoding ${JSON.stringify(contentEncoding)} in the protobuf envelope`);
  const contentType = (envelope.contentType as string | undefined) ?? '';
  if (contentType && contentType !== PROTOBUF_MEDIA_TYPE) {
    throw new ProtobufError('UnsupportedEncoding', `unsupported content type ${JSON.stringify(contentType)} in the protobuf envelope`);
  }
  const schema = resolve(apiVersion, kind) ?? builtinSchema(apiVersion, kind);
  if (!schema) throw new ProtobufError('UnknownKind', `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`);
  const raw = (envelope.raw as Uint8Array | undefined) ?? new Uint8Array(0);
  return { apiVersion, kind, object: { apiVersion, kind, ...decodeMessage(schema, raw) } };
}
