/**
 * JSON wire encoding (spec 000 § Content negotiation and encoding): compact with a trailing
 * newline like the upstream encoder, or indented for `pretty`.
 */
import { newBadRequest } from '../errors.js';

export const JSON_MEDIA_TYPE = 'application/json';

/** Serializes a value. */
export function encodeJSON(value: unknown, pretty = false): Buffer {
  return Buffer.from(`${pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`);
}

/** Parses a JSON body; malformed input is 400 with the parser's reason. */
export function decodeJSON(body: Buffer | string): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw newBadRequest(`error decoding JSON body: ${(err as Error).message}`);
  }
}
