/**
 * The one error type of the protobuf serializer (spec 000 § Protobuf envelope). Decoding errors
 * describe a bad request body or response (callers answer 400 for a request body); encoding
 * errors mean the object does not fit its schema (a server bug, 500).
 */

/** Why protobuf data could not be decoded, or an object encoded. */
export type ProtobufErrorCode =
  /** The data is empty or does not start with the magic `6b 38 73 00`. */
  | 'NotProtobuf'
  /** The envelope or the object message is not valid protobuf for its type. */
  | 'Malformed'
  /** The envelope names no kind or no apiVersion. */
  | 'MissingKind'
  /** The resolver knows no schema for the envelope's apiVersion and kind. */
  | 'UnknownKind'
  /** The envelope declares a content encoding or content type this serializer cannot read. */
  | 'UnsupportedEncoding'
  /** A watch frame is longer than the decoder accepts, or the stream ends inside a frame. */
  | 'BadFrame'
  /** Encoding: a JSON value does not fit the schema (a time that is not RFC 3339…). */
  | 'Unencodable';

/** An error of the protobuf serializer; `code` says which kind (see ProtobufErrorCode). */
export class ProtobufError extends Error {
  constructor(
    readonly code: ProtobufErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ProtobufError';
  }
}

/** `Unencodable`: `cannot encode <what> <value as JSON> as protobuf: <why>`. */
export function unencodable(what: string, v: unknown, why: string, cause?: unknown): ProtobufError {
  return new ProtobufError('Unencodable', `cannot encode ${what} ${JSON.stringify(v)} as protobuf: ${why}`, { cause });
}
