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
import { type CST, Composer, type Document, isMap, isSeq, Lexer, type Node, Parser, visit, type YAMLError } from 'yaml';
import { goSyntaxString } from '../go-format.js';
import { StatusError, newBadRequest } from '../errors.js';
import { yamlDuplicateFields, yamlDuplicateKeyErrors } from './duplicate-fields.js';
import { goYAMLError, goYAMLMessage, goYAMLValueError } from './go-yaml-errors.js';
import { JSONSyntaxError, decodeJSON } from './json.js';
import { MAX_OBJECT_DEPTH, valueTooDeep, yamlTokenDepth } from './nesting.js';

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

const TOO_DEEP = goYAMLMessage(`exceeded max depth of ${MAX_OBJECT_DEPTH}`);

/**
 * The documents of a YAML stream, composed as the `yaml` package's parseAllDocuments composes
 * them (YAML 1.2, repeated keys allowed: decodeYAML reports them), once their depth was checked:
 * the `yaml` package composes recursively, about 1 KiB of stack a level, so a stream nested past
 * MAX_OBJECT_DEPTH is a YAMLSyntaxError in go-yaml's words with that limit (`yaml: exceeded max
 * depth of 512`), found while parsing (its Parser would otherwise spend seconds on a body of
 * 3 MiB of `[`) and never composed.
 */
function composeDocuments(text: string): { docs: Document[]; streamErrors: readonly YAMLError[] } {
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  // The parser's stack holds the document, its open collections and at most one scalar.
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (parser.stack.length > MAX_OBJECT_DEPTH + 2) throw new YAMLSyntaxError(TOO_DEEP);
  }
  for (const token of parser.end()) tokens.push(token);
  if (yamlTokenDepth(tokens) > MAX_OBJECT_DEPTH) throw new YAMLSyntaxError(TOO_DEEP);
  const composer = new Composer({ version: '1.2', uniqueKeys: false });
  const docs = Array.from(composer.compose(tokens)) as Document[];
  // An empty stream (nothing, or only comments and directives) has no document and reads null.
  return { docs, streamErrors: docs.length > 0 ? [] : composer.streamInfo().errors };
}

/**
 * Parses the first YAML document of a body (an empty body is null); malformed input is a
 * YAMLSyntaxError with go-yaml's wording, as is a stream nested deeper than MAX_OBJECT_DEPTH
 * (aliases expanded). When `duplicates` is given, the paths of keys repeated within one mapping
 * are appended to it (the last value wins, as in JSON). A body that is a JSON object or array
 * (as kubectl sends server-side apply configurations) is read by the JSON decoder: JSON is YAML,
 * and that decoder is several times faster; one it refuses is parsed as YAML for go-yaml's error.
 */
export function decodeYAML(body: Buffer | string, duplicates?: string[]): unknown {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (/^\s*[{[]/.test(text)) {
    const found: string[] = [];
    try {
      const value = decodeJSON(text, duplicates && found);
      if (duplicates) duplicates.push(...found);
      return value;
    } catch (e) {
      if (!(e instanceof JSONSyntaxError)) throw e;
    }
  }
  const { docs, streamErrors } = composeDocuments(text);
  if (streamErrors[0]) throw new YAMLSyntaxError(goYAMLError(text, streamErrors[0], streamErrors));
  const doc = docs[0];
  if (!doc) return null;
  const err = doc.errors[0];
  if (err) throw new YAMLSyntaxError(goYAMLError(text, err, doc.errors));
  if (duplicates) duplicates.push(...yamlDuplicateFields(doc));
  const collectionKey = collectionKeyError(doc);
  if (collectionKey) throw new YAMLSyntaxError(collectionKey);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    // Only alias faults are expected here; anything else still answers in go-yaml's words.
    throw new YAMLSyntaxError(goYAMLValueError(e as Error) ?? goYAMLMessage('did not find expected node content'));
  }
  // An alias nests its anchor's value where it stands: only then can the value be deeper than the tokens.
  if (text.includes('*') && valueTooDeep(value)) throw new YAMLSyntaxError(TOO_DEEP);
  return value;
}

export { encodeYAML } from './yaml-emitter/index.js';

/**
 * go-yaml v2's strict-mode error for the duplicate keys of a body (JSON or YAML) that
 * decodeYAML read, as sigs.k8s.io/yaml wraps it: `error converting YAML to JSON: yaml: unmarshal
 * errors:\n  line 1: key "a" already set in map`; undefined when it has none. Parses the body
 * again, for its positions: call it only when decodeYAML found duplicates.
 */
export function yamlStrictDuplicateError(body: Buffer | string): string | undefined {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const doc = composeDocuments(text).docs[0];
  const lines = doc ? yamlDuplicateKeyErrors(doc, text) : [];
  return lines.length === 0 ? undefined : `error converting YAML to JSON: yaml: unmarshal errors:\n  ${lines.join('\n  ')}`;
}

/**
 * sigs.k8s.io/yaml's refusal of a mapping key that is itself a list or a mapping (JSON has only
 * string keys): `unsupported map key of type: []interface {}, key: []interface {}{"a"}, value:
 * "b"`, for the first such key in document order; undefined when there is none. The `yaml`
 * package would turn the key into a string (`"[ a ]"`) and warn on the process's stderr.
 */
function collectionKeyError(doc: Document): string | undefined {
  let found: string | undefined;
  visit(doc, {
    Pair(_, pair) {
      const key = pair.key as Node | null;
      if (!isMap(key) && !isSeq(key)) return undefined;
      const js = (n: unknown) => (n === null || n === undefined ? null : (n as Node).toJS(doc, { mapAsMap: true, maxAliasCount: MAX_ALIAS_COUNT }));
      const value = pair.value === null ? '<nil>' : goSyntaxString(js(pair.value));
      found = `unsupported map key of type: ${isSeq(key) ? '[]interface {}' : 'map[interface {}]interface {}'}, key: ${goSyntaxString(js(key))}, value: ${value}`;
      return visit.BREAK;
    },
  });
  return found;
}
