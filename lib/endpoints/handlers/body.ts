/**
 * Reading and decoding request bodies: size-limited, JSON (also when no Content-Type is sent),
 * YAML or, where the caller decodes it, protobuf in the spellings the server speaks; 415 for
 * other media types; malformed input fails with the decoder errors of upstream's serializers
 * (spec 000 § Content negotiation and encoding; spec 001 § Errors; issues #9, #23).
 */
import type { IncomingMessage } from 'node:http';
import { StatusError, newRequestEntityTooLarge, newUnsupportedMediaType } from '../../apimachinery/errors.js';
import { JSON_MEDIA_TYPE, JSONSyntaxError, decodeJSON, interpretTypeMeta } from '../../apimachinery/serializers/json.js';
import { YAML_MEDIA_TYPE, YAMLSyntaxError, decodeYAML } from '../../apimachinery/serializers/yaml.js';
import { essence, parseContentType } from '../negotiation/media-type.js';
import { recordRequestBody } from '../filters/audit-capture.js';

/** Largest accepted request body (upstream default 3 MiB). */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** Media types accepted for object bodies (create, update). */
export const OBJECT_BODY_TYPES = [JSON_MEDIA_TYPE, YAML_MEDIA_TYPE] as const;

/**
 * Reads the whole body, rejecting with 413 past `limit` bytes; kept for the audit event when the
 * audit filter asked for it. The 413 answer carries `Connection: close` (as upstream's server
 * closes a connection whose body it stopped reading): the rest of the body is never read, so the
 * connection could not carry another request. A body cut short (the client closed the stream
 * before its end) rejects with the stream's error, or ERR_STREAM_PREMATURE_CLOSE. Listens to the
 * stream's events rather than its async iterator, which costs a promise per chunk.
 */
export function readBody(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (err: Error | undefined) => {
      req.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose);
      if (err) {
        req.pause();
        reject(err);
        return;
      }
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      recordRequestBody(req, body);
      resolve(body);
    };
    const onData = (b: Buffer) => {
      size += b.length;
      if (size > limit) settle(new StatusError(newRequestEntityTooLarge(`limit is ${limit}`).status, { Connection: 'close' }));
      else chunks.push(b);
    };
    const onEnd = () => settle(undefined);
    const onClose = () => settle(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    if (req.readableEnded) settle(undefined);
    else if (req.destroyed) onClose();
    else req.on('data', onData).on('end', onEnd).on('error', settle).on('close', onClose);
  });
}

/**
 * The essence of a request Content-Type, defaulting to JSON when absent or blank. A header that is
 * not `type/subtype` comes back as written (lower-cased), so that it matches no decoder and the
 * request is answered 415, as upstream's NegotiateInputSerializerForMediaType does.
 */
export function requestMediaType(contentType: string | undefined): string {
  if (contentType === undefined || contentType.trim() === '') return JSON_MEDIA_TYPE;
  const ct = parseContentType(contentType);
  return ct ? essence(ct) : contentType.trim().toLowerCase();
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
 * A body upstream's serializer could not decode, with that decoder's error (`decodeError`:
 * `couldn't get version/kind; json parse error: invalid character 'a' looking for beginning of
 * value`, `yaml: line 2: did not find expected key`). Left alone (DeleteOptions bodies) it answers
 * 400 BadRequest with that text: upstream passes such an error on unworded and answers 500, but
 * malformed input is never a server error here. Create and update word it as upstream's
 * transformDecodeError does (decode-object.ts: 400 `the object provided is unrecognized …`).
 */
export class BodyDecodeError extends StatusError {
  constructor(readonly decodeError: string) {
    super({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: decodeError, reason: 'BadRequest', code: 400 });
    this.name = 'BodyDecodeError';
  }
}

/**
 * Decodes an object body (JSON, YAML, or protobuf in one of `protobuf.mediaTypes` through
 * `protobuf.decode`) into a plain object; `null` reads as an empty object, as it decodes into
 * upstream's typed object. 415 for any other media type (the accepted ones listed). A body that
 * is not JSON or YAML, is not an object, or whose `apiVersion`/`kind` upstream's serializer could
 * not read (json.ts `interpretTypeMeta`) is a BodyDecodeError. Keys repeated within one object are
 * appended to `duplicates` when given.
 */
export function decodeObjectBody(contentType: string | undefined, body: Buffer, duplicates?: string[], protobuf?: ProtobufBody): Record<string, unknown> {
  const mt = requestMediaType(contentType);
  let value: unknown;
  try {
    if (mt === JSON_MEDIA_TYPE) value = decodeJSON(body, duplicates);
    else if (mt === YAML_MEDIA_TYPE || mt === 'application/x-yaml' || mt === 'text/yaml') value = decodeYAML(body, duplicates);
    else if (protobuf && protobuf.mediaTypes.includes(mt)) return protobuf.decode(body);
    else throw newUnsupportedMediaType(protobuf ? [...OBJECT_BODY_TYPES, ...protobuf.mediaTypes] : OBJECT_BODY_TYPES);
  } catch (err) {
    // Upstream reads the type meta with json.Unmarshal (json parse error) after YAML bodies were
    // converted to JSON by YAMLToJSON, whose error passes on bare.
    if (err instanceof JSONSyntaxError) throw new BodyDecodeError(`couldn't get version/kind; json parse error: ${err.goMessage}`);
    if (err instanceof YAMLSyntaxError) throw new BodyDecodeError(err.yamlError);
    throw err;
  }
  const problem = interpretTypeMeta(value);
  if (problem) throw new BodyDecodeError(problem);
  return (value ?? {}) as Record<string, unknown>;
}
