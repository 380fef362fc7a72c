/**
 * Safe readers of a decoded `openAPIV3Schema` node (upstream apiextensions JSONSchemaProps). The
 * schema arrives as JSON, so every member is read defensively: a member of the wrong JSON type
 * counts as absent where upstream's typed decoder would have refused it earlier. Zero values
 * (`false`, `""`, empty lists and maps) count as unset, as Go's zero values do.
 */
import { EXT, type JSONSchemaProps } from '../types.js';

/** True for a plain JSON object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `s[key]` when it is a schema object, else undefined. */
export function schemaAt(s: JSONSchemaProps, key: string): JSONSchemaProps | undefined {
  const v = s[key];
  return isObject(v) ? (v as JSONSchemaProps) : undefined;
}

/** The schemas of a list member (`allOf`, `anyOf`, `oneOf`, items given as an array); non-objects skipped with their index kept. */
export function schemaList(s: JSONSchemaProps, key: string): Array<[number, JSONSchemaProps]> {
  const v = s[key];
  if (!Array.isArray(v)) return [];
  const out: Array<[number, JSONSchemaProps]> = [];
  v.forEach((item, i) => {
    if (isObject(item)) out.push([i, item as JSONSchemaProps]);
  });
  return out;
}

/** The entries of a map of schemas (`properties`, `definitions`…), in document order. */
export function schemaMap(s: JSONSchemaProps, key: string): Array<[string, JSONSchemaProps]> {
  const v = s[key];
  if (!isObject(v)) return [];
  const out: Array<[string, JSONSchemaProps]> = [];
  for (const [k, item] of Object.entries(v)) if (isObject(item)) out.push([k, item as JSONSchemaProps]);
  return out;
}

/** The `properties` map, or undefined when absent or empty. */
export function properties(s: JSONSchemaProps): Record<string, JSONSchemaProps> | undefined {
  const p = s.properties;
  return isObject(p) && Object.keys(p).length > 0 ? p : undefined;
}

/** `s[key]` as a string ('' when absent or not a string). */
export function str(s: JSONSchemaProps, key: string): string {
  const v = s[key];
  return typeof v === 'string' ? v : '';
}

/** True when `s[key] === true`. */
export function flag(s: JSONSchemaProps, key: string): boolean {
  return s[key] === true;
}

/** `s[key]` as a list of strings (non-strings dropped), [] when absent. */
export function strings(s: JSONSchemaProps, key: string): string[] {
  const v = s[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** True when a JSON value is Go's zero value of its field (absent, null, false, "", [] or {}). */
export function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).length === 0;
}

/** The single items schema, or undefined when absent or given as an array. */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return schemaAt(s, 'items');
}

/** `x-<vendor>-list-type`, undefined when unset. */
export function listType(s: JSONSchemaProps): unknown {
  return s[EXT.listType] ?? undefined;
}

/** `x-<vendor>-map-type`, undefined when unset. */
export function mapType(s: JSONSchemaProps): unknown {
  return s[EXT.mapType] ?? undefined;
}

/**
 * The members of upstream's JSONSchemaProps in struct order: JSON key, Go name, and how Go holds
 * it (`ref`: pointer, slice or map, set when present; `string` and `bool`: set when non-zero).
 * Other keys are dropped by upstream's decoder.
 */
export const SCHEMA_MEMBERS: ReadonlyArray<[string, string, 'string' | 'bool' | 'ref']> = [
  ['id', 'ID', 'string'], ['$schema', 'Schema', 'string'], ['$ref', 'Ref', 'ref'], ['description', 'Description', 'string'],
  ['type', 'Type', 'string'], ['nullable', 'Nullable', 'bool'], ['format', 'Format', 'string'], ['title', 'Title', 'string'],
  ['default', 'Default', 'ref'], ['maximum', 'Maximum', 'ref'], ['exclusiveMaximum', 'ExclusiveMaximum', 'bool'],
  ['minimum', 'Minimum', 'ref'], ['exclusiveMinimum', 'ExclusiveMinimum', 'bool'], ['maxLength', 'MaxLength', 'ref'],
  ['minLength', 'MinLength', 'ref'], ['pattern', 'Pattern', 'string'], ['maxItems', 'MaxItems', 'ref'], ['minItems', 'MinItems', 'ref'],
  ['uniqueItems', 'UniqueItems', 'bool'], ['multipleOf', 'MultipleOf', 'ref'], ['enum', 'Enum', 'ref'],
  ['maxProperties', 'MaxProperties', 'ref'], ['minProperties', 'MinProperties', 'ref'], ['required', 'Required', 'ref'],
  ['items', 'Items', 'ref'], ['allOf', 'AllOf', 'ref'], ['oneOf', 'OneOf', 'ref'], ['anyOf', 'AnyOf', 'ref'], ['not', 'Not', 'ref'],
  ['properties', 'Properties', 'ref'], ['additionalProperties', 'AdditionalProperties', 'ref'],
  ['patternProperties', 'PatternProperties', 'ref'], ['dependencies', 'Dependencies', 'ref'],
  ['additionalItems', 'AdditionalItems', 'ref'], ['definitions', 'Definitions', 'ref'], ['externalDocs', 'ExternalDocs', 'ref'],
  ['example', 'Example', 'ref'], [EXT.preserveUnknownFields, 'XPreserveUnknownFields', 'ref'],
  [EXT.embeddedResource, 'XEmbeddedResource', 'bool'], [EXT.intOrString, 'XIntOrString', 'bool'],
  [EXT.listMapKeys, 'XListMapKeys', 'ref'], [EXT.listType, 'XListType', 'ref'], [EXT.mapType, 'XMapType', 'ref'],
  [EXT.validations, 'XValidations', 'ref'],
];

/** True when the member `v` of kind `kind` (SCHEMA_MEMBERS) holds Go's zero value. */
export function isGoZero(v: unknown, kind: 'string' | 'bool' | 'ref'): boolean {
  if (kind === 'string') return typeof v !== 'string' || v === '';
  if (kind === 'bool') return v !== true;
  return v === undefined || v === null;
}
