/**
 * JSON wire encoding (spec 000 § Content negotiation and encoding): compact with a trailing
 * newline like the upstream encoder, or indented for `pretty`.
 */
import { newBadRequest } from '../errors.js';
import { jsonDuplicateFields } from './duplicate-fields.js';
import { jsonTooDeep } from './nesting.js';

export const JSON_MEDIA_TYPE = 'application/json';

/** Serializes a value. */
export function encodeJSON(value: unknown, pretty = false): Buffer {
  return Buffer.from(`${pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`);
}

/**
 * Parses a JSON body; malformed input is 400 with the parser's reason. When `duplicates` is
 * given, the paths of keys repeated within one object are appended to it (the last value wins).
 */
export function decodeJSON(body: Buffer | string, duplicates?: string[]): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (jsonTooDeep(text)) throw newBadRequest('error decoding JSON body: json: exceeded max depth');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw newBadRequest(`error decoding JSON body: ${(err as Error).message}`);
  }
  if (duplicates) duplicates.push(...jsonDuplicateFields(text));
  return value;
}
