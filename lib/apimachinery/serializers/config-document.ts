/**
 * Decoding of the server's own configuration files (AuthenticationConfiguration,
 * AuthorizationConfiguration): JSON or YAML, then the apiVersion/kind check, with the messages of
 * upstream's decoder (spec 001 § Authentication configuration file, § Authorization).
 */
import { goJSONTypeName } from './go-json-errors.js';
import { JSONSyntaxError, decodeJSON } from './json.js';
import { YAMLSyntaxError, decodeYAML } from './yaml.js';

/** A document that cannot be decoded; `message` is the reason, worded as upstream's decoder. */
export class ConfigDecodeError extends Error {
  override readonly name = 'ConfigDecodeError';
}

/** Which documents a file may hold. */
export interface ConfigDocumentType {
  /** The expected kind (`AuthorizationConfiguration`). */
  kind: string;
  /** The API group (vendor spelling) and the versions accepted. */
  group: string;
  versions: readonly string[];
  /** Maps a written group to its canonical spelling (the upstream alias is read as the vendor's). */
  canonicalGroup: (group: string) => string;
  /** Appended to the "no kind … is registered" message, as the upstream decoder of this file words it. */
  unregisteredSuffix?: string;
}

/**
 * Parses `data` (JSON when it starts with `{`, YAML otherwise) and checks its apiVersion and kind.
 * Returns the object and the duplicate keys the parser met (for the strict decoder's message).
 * @throws ConfigDecodeError for a syntax error, a document that is not an object, a missing kind,
 *   or an apiVersion/kind that is not `type`'s.
 */
export function decodeConfigDocument(data: string, type: ConfigDocumentType): { raw: Record<string, unknown>; duplicates: string[] } {
  const duplicates: string[] = [];
  let raw: unknown;
  try {
    raw = /^\s*\{/.test(data) ? decodeJSON(data, duplicates) : decodeYAML(data, duplicates);
  } catch (err) {
    if (err instanceof JSONSyntaxError) throw new ConfigDecodeError(err.goMessage);
    if (err instanceof YAMLSyntaxError) throw new ConfigDecodeError(`error converting YAML to JSON: ${err.yamlError}`);
    throw err;
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigDecodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goJSONTypeName(raw)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const { apiVersion, kind } = raw as { apiVersion?: unknown; kind?: unknown };
  if (typeof kind !== 'string' || kind === '') throw new ConfigDecodeError(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  const text = typeof apiVersion === 'string' ? apiVersion : String(apiVersion ?? '');
  const slash = typeof apiVersion === 'string' ? text.lastIndexOf('/') : -1;
  const group = slash < 0 ? '' : type.canonicalGroup(text.slice(0, slash));
  if (group !== type.group || !type.versions.includes(text.slice(slash + 1)) || kind !== type.kind) {
    throw new ConfigDecodeError(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(text)}${type.unregisteredSuffix ?? ''}`);
  }
  return { raw: raw as Record<string, unknown>, duplicates };
}
