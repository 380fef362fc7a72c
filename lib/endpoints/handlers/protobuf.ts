/**
 * Protobuf on the wire for built-in kinds (spec 000 § Protobuf envelope, § Content negotiation and
 * encoding; issue #6 item 4): request bodies, object / list / Status responses, watch frames, and
 * the metadata-only kinds of the meta group (PartialObjectMetadata and its list; issue #9).
 */
import { newBadRequest } from '../../apimachinery/errors.js';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import {
  ProtobufError,
  STATUS_KIND,
  decodeProtobuf,
  encodeProtobuf,
  encodeWatchEvent,
  isMessageList,
  protobufListChunks,
  type ProtobufKind,
  type WatchEventType,
  unsetDefaultedEmptyStrings,
} from '../../apimachinery/serializers/protobuf/index.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import { metaProtobufKind } from '../../apis/meta/v1/partial-object-metadata.js';
import { PROTOBUF_MEDIA_TYPE, UPSTREAM_PROTOBUF_MEDIA_TYPE } from '../../apis/vendor.js';
import { streamedBody } from './streamed-body.js';

/** Both spellings of the protobuf media type (ours, and upstream's for stock clients). */
const PROTOBUF_MEDIA_TYPES: readonly string[] = [PROTOBUF_MEDIA_TYPE, UPSTREAM_PROTOBUF_MEDIA_TYPE];

/** Only our spelling: a server without `--upstream-aliases`. */
const VENDOR_PROTOBUF_MEDIA_TYPES: readonly string[] = [PROTOBUF_MEDIA_TYPE];

/**
 * The protobuf media types a server speaks, in responses and request bodies: PROTOBUF_MEDIA_TYPE,
 * and UPSTREAM_PROTOBUF_MEDIA_TYPE too when `upstreamAliases` (`--upstream-aliases`; issue #9).
 * Without it the upstream name is an unknown media type: 406 in Accept, 415 as a Content-Type.
 */
export function protobufMediaTypes(upstreamAliases: boolean): readonly string[] {
  return upstreamAliases ? PROTOBUF_MEDIA_TYPES : VENDOR_PROTOBUF_MEDIA_TYPES;
}

/**
 * True for either spelling of the protobuf media type: for a media type already negotiated (so
 * already allowed by the server's setting) or a Status error's encoding.
 */
export function isProtobuf(mediaType: string): boolean {
  return PROTOBUF_MEDIA_TYPES.includes(mediaType);
}

/**
 * The protobuf message kind of a response document of `kind`: the object, its list, a Status, or
 * a PartialObjectMetadata(List) of the meta group (in the group/version it carries).
 */
export function protobufKindOf(kind: KindDefinition, obj: Obj): ProtobufKind | undefined {
  if (obj.apiVersion === kind.apiVersion) {
    if (obj.kind === kind.kind) return { apiVersion: kind.apiVersion, kind: kind.kind, schema: kind.schema };
    if (obj.kind === kind.listKind) return { apiVersion: kind.apiVersion, kind: kind.listKind, schema: kind.listSchema };
    return undefined;
  }
  if (obj.kind === 'Status' && obj.apiVersion === 'v1') return STATUS_KIND;
  return typeof obj.apiVersion === 'string' && typeof obj.kind === 'string' ? metaProtobufKind(obj.apiVersion, obj.kind) : undefined;
}

/**
 * Decodes a protobuf request body of one of `kinds` (one kind in each spelling accepted: its
 * vendor group and the group's upstream alias); 400 for anything else or malformed bytes. A
 * defaulted non-pointer string left `""` is removed, so defaulting fills it in as Go's does
 * (unset-defaults.ts).
 */
export function decodeProtobufBody(kinds: readonly KindDefinition[], body: Buffer): Obj {
  try {
    let schema: KindDefinition['schema'] | undefined;
    const decoded = decodeProtobuf(body, (apiVersion, k) => (schema = kinds.find((kind) => apiVersion === kind.apiVersion && k === kind.kind)?.schema));
    if (schema !== undefined) unsetDefaultedEmptyStrings(schema, decoded.object);
    return { apiVersion: decoded.apiVersion, kind: decoded.kind, ...decoded.object };
  } catch (err) {
    if (err instanceof ProtobufError) throw newBadRequest(err.message);
    throw err;
  }
}

/** Encodes a response document; a document of another kind (a Table…) cannot be, and throws. */
export function encodeProtobufBody(kind: KindDefinition, obj: Obj): Buffer {
  const pk = protobufKindOf(kind, obj);
  if (!pk) throw new Error(`no protobuf form for ${String(obj.apiVersion)}/${String(obj.kind)}`);
  return encodeProtobuf(obj, pk);
}

/**
 * One watch frame of an event of `kind`: its object, a Status for ERROR events, or the
 * PartialObjectMetadata a metadata-only watch turns the object into.
 */
export function protobufWatchFrame(kind: KindDefinition, type: WatchEventType, obj: Obj): Buffer {
  if (obj.kind === 'Status') return encodeWatchEvent(type, obj, STATUS_KIND);
  const meta = typeof obj.apiVersion === 'string' && obj.kind === 'PartialObjectMetadata' ? metaProtobufKind(obj.apiVersion, obj.kind) : undefined;
  return encodeWatchEvent(type, obj, meta ?? { apiVersion: kind.apiVersion, kind: kind.kind, schema: kind.schema });
}

/**
 * A response document in the protobuf envelope: a list document (`items` an array) as a streamed
 * body (streamed-body.ts: a Buffer below the gzip threshold), anything else as one buffer.
 * @throws Error for a document without protobuf form (a Table…); ProtobufError `Unencodable`.
 */
export async function encodeProtobufResponse(kind: KindDefinition, obj: Obj): Promise<Buffer | Readable> {
  const pk = Array.isArray(obj.items) ? protobufKindOf(kind, obj) : undefined;
  if (pk && isMessageList(pk)) return streamedBody(protobufListChunks(obj as Obj & { items: unknown[] }, pk, yieldToLoop));
  return encodeProtobufBody(kind, obj);
}
