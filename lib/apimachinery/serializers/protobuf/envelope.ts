/**
 * The protobuf envelope of spec 000 § Protobuf envelope: the magic `6b 38 73 00`, then a
 * `runtime.Unknown` whose `typeMeta` names the kind and whose `raw` is the object's message.
 * Objects, lists (`<Kind>List`) and Status errors all travel this way (§ Content negotiation and
 * encoding, media type PROTOBUF_MEDIA_TYPE).
 */
import type { StructSchema } from '../../schema/types.js';
import { PROTOBUF_MEDIA_TYPE } from '../../../apis/vendor.js';
import { ProtobufError } from './errors.js';
import { Unknown } from './meta-types.js';
import { decodeMessage, encodeMessage } from './plans.js';
import type { Message } from './scalars.js';
import { builtinSchema } from './status.js';

/** The four bytes every enveloped message starts with (`k8s\0`). */
export const PROTOBUF_MAGIC: Buffer = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

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
 * contentEncoding: "", contentType: ""}` — the two strings written empty as upstream writes them.
 * The object's own apiVersion/kind are not read; `kind` names them.
 * @throws ProtobufError `Unencodable` when a value does not fit the schema.
 */
export function encodeProtobuf(obj: Record<string, unknown>, kind: ProtobufKind): Buffer {
  const raw = encodeMessage(kind.schema, obj);
  const envelope = Unknown.encode({
    typeMeta: { apiVersion: kind.apiVersion, kind: kind.kind },
    raw,
    contentEncoding: '',
    contentType: '',
  }).finish();
  return Buffer.concat([PROTOBUF_MAGIC, envelope], PROTOBUF_MAGIC.length + envelope.length);
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
