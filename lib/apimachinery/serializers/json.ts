/**
 * JSON wire encoding (spec 000 § Content negotiation and encoding): compact with a trailing
 * newline like the upstream encoder, or indented for `pretty`. Decoding speaks upstream's errors:
 * a body that is not JSON fails with Go encoding/json's syntax error, and the type meta is read as
 * upstream's json serializer reads it (`interpretTypeMeta`).
 */
import { StatusError, newBadRequest } from '../errors.js';
import { jsonDuplicateFields, memberCount } from './duplicate-fields.js';
import { goFoldName, goJSONSyntaxError, goJSONTypeName } from './go-json-errors.js';
import { MAX_OBJECT_DEPTH, jsonKeyCount } from './nesting.js';

export const JSON_MEDIA_TYPE = 'application/json';

/** Serializes a value. */
export function encodeJSON(value: unknown, pretty = false): Buffer {
  return Buffer.from(`${pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)}\n`);
}

/**
 * A body that is not JSON: 400 BadRequest whose message is Go encoding/json's syntax error
 * (`goMessage`: `invalid character 'a' looking for beginning of value`, `unexpected end of JSON
 * input`, `invalid character '[' exceeded max depth`), as upstream's handlers that pass
 * json.Unmarshal's error on unwrapped answer (strategic merge patch bodies). Callers that word it
 * otherwise (object bodies: handlers/body.ts) catch it by class.
 */
export class JSONSyntaxError extends StatusError {
  constructor(readonly goMessage: string) {
    super(newBadRequest(goMessage).status);
    this.name = 'JSONSyntaxError';
  }
}

/**
 * The Go syntax error of a body JSON.parse refused, or that nests deeper than MAX_OBJECT_DEPTH:
 * the error Go's scanner gives with that depth limit (`invalid character '[' exceeded max depth`).
 */
function syntaxError(body: Buffer | string): JSONSyntaxError {
  // JSON.parse and Go's scanner accept the same language; should they ever disagree, the answer
  // still speaks Go rather than the JavaScript parser.
  return new JSONSyntaxError(goJSONSyntaxError(body, MAX_OBJECT_DEPTH) ?? 'unexpected end of JSON input');
}

/**
 * Parses a JSON body; malformed input (or nesting past MAX_OBJECT_DEPTH levels) is a JSONSyntaxError with
 * Go's wording, found by scanning the body again only once JSON.parse failed. When `duplicates`
 * is given, the paths of keys repeated within one object are appended to it (the last value wins).
 */
export function decodeJSON(body: Buffer | string, duplicates?: string[]): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const keys = jsonKeyCount(text);
  if (keys < 0) throw syntaxError(body);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw syntaxError(body);
  }
  // The paths of repeated keys are looked for only when the parsed value has fewer members than the text has keys.
  if (duplicates && memberCount(value) !== keys) duplicates.push(...jsonDuplicateFields(text));
  return value;
}

/** Go's type of the struct upstream's json serializer reads the type meta into (json/meta.go). */
export const TYPE_META_GO_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * What upstream's json serializer says reading the type meta of a decoded body
 * (`SimpleMetaFactory.Interpret`), or undefined when it reads one: a body that is not an object
 * (nor null) or an `apiVersion`/`kind` that is not a string is `couldn't get version/kind; json
 * parse error: json: cannot unmarshal …` (keys matched as encoding/json matches struct fields,
 * case-insensitively), and an apiVersion with more than one `/` is `unexpected GroupVersion
 * string: …`.
 */
export function interpretTypeMeta(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const prefix = "couldn't get version/kind; json parse error: json: cannot unmarshal";
  if (typeof value !== 'object' || Array.isArray(value)) return `${prefix} ${goJSONTypeName(value)} into Go value of type ${TYPE_META_GO_TYPE}`;
  let apiVersion = '';
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const folded = goFoldName(key);
    const field = folded === 'APIVERSION' ? 'apiVersion' : folded === 'KIND' ? 'kind' : undefined;
    if (!field || v === null) continue;
    if (typeof v !== 'string') return `${prefix} ${goJSONTypeName(v)} into Go struct field .${field} of type string`;
    if (field === 'apiVersion') apiVersion = v;
  }
  if (apiVersion !== '/' && apiVersion.split('/').length > 2) return `unexpected GroupVersion string: ${apiVersion}`;
  return undefined;
}
