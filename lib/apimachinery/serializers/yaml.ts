/**
 * YAML wire encoding. Decoding uses the `yaml` package, YAML 1.2 core schema (a key `on` stays a
 * string), bounded alias expansion (LIBRARIES.md § YAML), and speaks upstream's errors: a body
 * that does not parse fails with go-yaml's wording (go-yaml-errors.ts), and only the first
 * document of a stream is read, as go-yaml's Unmarshal reads it.
 *
 * Encoding (encodeYAML, yaml-emitter/) is a port of go-yaml v2's emitter: upstream's bytes (its
 * quoting, folding at 80 columns, key order) cannot be produced with the `yaml` package's options.
 * It is verified byte-for-byte against go-yaml v2.4.0 (sigs.k8s.io/yaml's JSONToYAML).
 */
import { type Document, parseAllDocuments } from 'yaml';
import { StatusError, newBadRequest } from '../errors.js';
import { yamlDuplicateFields } from './duplicate-fields.js';
import { GO_YAML_MAX_DEPTH, goYAMLError, goYAMLMessage, goYAMLValueError } from './go-yaml-errors.js';
import { yamlTooDeep } from './nesting.js';

export const YAML_MEDIA_TYPE = 'application/yaml';

/** Largest number of alias expansions accepted in one document (alias bombs). */
const MAX_ALIAS_COUNT = 100;

/**
 * A body that is not YAML: 400 BadRequest `error converting YAML to JSON: <yamlError>`, where
 * `yamlError` is go-yaml's error (`yaml: line 2: did not find expected key`), the text
 * sigs.k8s.io/yaml's Unmarshal gives. Upstream's object decoder (YAMLToJSON) passes `yamlError`
 * on bare; callers that word it so (handlers/body.ts) catch this by class.
 */
export class YAMLSyntaxError extends StatusError {
  constructor(readonly yamlError: string) {
    super(newBadRequest(`error converting YAML to JSON: ${yamlError}`).status);
    this.name = 'YAMLSyntaxError';
  }
}

const TOO_DEEP = goYAMLMessage(`exceeded max depth of ${GO_YAML_MAX_DEPTH}`);

/**
 * Parses the first YAML document of a body (an empty body is null); malformed input is a
 * YAMLSyntaxError with go-yaml's wording. When `duplicates` is given, the paths of keys repeated
 * within one mapping are appended to it (the last value wins, as in JSON).
 */
export function decodeYAML(body: Buffer | string, duplicates?: string[]): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  let doc: Document | undefined;
  try {
    const docs = parseAllDocuments(text, { version: '1.2', uniqueKeys: false, prettyErrors: false });
    // An empty stream (nothing, or only comments and directives) has no document and reads null.
    const streamErrors = 'empty' in docs ? docs.errors : [];
    if (streamErrors[0]) throw new YAMLSyntaxError(goYAMLError(text, streamErrors[0], streamErrors));
    doc = docs[0];
  } catch (e) {
    if (e instanceof RangeError) throw new YAMLSyntaxError(TOO_DEEP);
    throw e;
  }
  if (!doc) return null;
  const err = doc.errors[0];
  if (err) throw new YAMLSyntaxError(/call stack/i.test(err.message) ? TOO_DEEP : goYAMLError(text, err, doc.errors));
  if (yamlTooDeep(doc)) throw new YAMLSyntaxError(TOO_DEEP);
  if (duplicates) duplicates.push(...yamlDuplicateFields(doc));
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    if (e instanceof RangeError) throw new YAMLSyntaxError(TOO_DEEP);
    // Only alias faults are expected here; anything else still answers in go-yaml's words.
    throw new YAMLSyntaxError(goYAMLValueError(e as Error) ?? goYAMLMessage('did not find expected node content'));
  }
}

export { encodeYAML } from './yaml-emitter/index.js';
