/**
 * Reading and decoding request bodies: size-limited, JSON (also when no Content-Type is sent),
 * YAML or, where the caller decodes it, protobuf in the spellings the server speaks; 415 for
 * other media types; 400 for malformed input (spec 000 § Content negotiation and encoding;
 * spec 001 § Errors; issue #9).
 */
import type { IncomingMessage } from 'node:http';
import { newBadRequest, newRequestEntityTooLarge, newUnsupportedMediaType } from '../../apimachinery/errors.js';
import { JSON_MEDIA_TYPE, decodeJSON } from '../../apimachinery/serializers/json.js';
import { YAML_MEDIA_TYPE, decodeYAML } from '../../apimachinery/serializers/yaml.js';
import { essence, parseContentType } from '../negotiation/media-type.js';

/** Largest accepted request body (upstream default 3 MiB). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** Media types accepted for object bodies (create, update). */
export const OBJECT_BODY_TYPES = [JSON_MEDIA_TYPE, YAML_MEDIA_TYPE] as const;

/** Reads the whole body, rejecting with 413 past `limit` bytes. */
export async function readBody(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) throw newRequestEntityTooLarge(`limit is ${limit}`);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** The essence of a request Content-Type, defaulting to JSON when absent. */
export function requestMediaType(contentType: string | undefined): string {
  const ct = parseContentType(contentType);
  return ct ? essence(ct) : JSON_MEDIA_TYPE;
}

/**
 * How a caller takes protobuf bodies: the media type spellings the server speaks
 * (`protobufMediaTypes(s.upstreamAliases)`) and the decoder of the message it expects.
 */
export interface ProtobufBody {
  mediaTypes: readonly string[];
  decode: (body: Buffer) => Record<string, unknown>;
}

/**
 * Decodes an object body (JSON, YAML, or protobuf in one of `protobuf.mediaTypes` through
 * `protobuf.decode`) into a plain object. 415 for any other media type (the accepted ones
 * listed), 400 for a body that is not an object. Keys repeated within one object are appended
 * to `duplicates` when given.
 */
export function decodeObjectBody(contentType: string | undefined, body: Buffer, duplicates?: string[], protobuf?: ProtobufBody): Record<string, unknown> {
  const mt = requestMediaType(contentType);
  let value: unknown;
  if (mt === JSON_MEDIA_TYPE) value = decodeJSON(body, duplicates);
  else if (mt === YAML_MEDIA_TYPE || mt === 'application/x-yaml' || mt === 'text/yaml') value = decodeYAML(body, duplicates);
  else if (protobuf && protobuf.mediaTypes.includes(mt)) value = protobuf.decode(body);
  else throw newUnsupportedMediaType(protobuf ? [...OBJECT_BODY_TYPES, ...protobuf.mediaTypes] : OBJECT_BODY_TYPES);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw newBadRequest(`the body of the request was not a JSON or YAML object`);
  }
  return value as Record<string, unknown>;
}
