/**
 * YAML wire encoding with the `yaml` package, YAML 1.2 core schema (a key `on` stays a string),
 * bounded alias expansion (LIBRARIES.md § YAML).
 */
import { type Document, parseDocument, stringify } from 'yaml';
import { newBadRequest } from '../errors.js';
import { yamlDuplicateFields } from './duplicate-fields.js';
import { yamlTooDeep } from './nesting.js';

export const YAML_MEDIA_TYPE = 'application/yaml';

/** Largest number of alias expansions accepted in one document (alias bombs). */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses one YAML document; malformed input is 400. When `duplicates` is given, the paths of
 * keys repeated within one mapping are appended to it (the last value wins, as in JSON).
 */
export function decodeYAML(body: Buffer | string, duplicates?: string[]): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  let doc: Document;
  try {
    doc = parseDocument(text, { version: '1.2', uniqueKeys: false, prettyErrors: false });
  } catch (e) {
    if (e instanceof RangeError) throw newBadRequest('error converting YAML to JSON: yaml: exceeded max depth');
    throw e;
  }
  const err = doc.errors[0];
  if (err) throw newBadRequest(`error converting YAML to JSON: yaml: ${/call stack/i.test(err.message) ? 'exceeded max depth' : err.message}`);
  if (yamlTooDeep(doc)) throw newBadRequest('error converting YAML to JSON: yaml: exceeded max depth');
  if (duplicates) duplicates.push(...yamlDuplicateFields(doc));
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    if (e instanceof RangeError) throw newBadRequest('error converting YAML to JSON: yaml: exceeded max depth');
    throw newBadRequest(`error converting YAML to JSON: yaml: ${(e as Error).message}`);
  }
}

/** Serializes a value as YAML. */
export function encodeYAML(value: unknown): Buffer {
  return Buffer.from(stringify(value, { version: '1.2', aliasDuplicateObjects: false, lineWidth: 0 }));
}
