/**
 * The OpenAPI v3 schema of a served kind as the expression type checker reads it (the shapes
 * lib/cel/schema-types.ts maps to types; upstream resolves the same from the kinds' OpenAPI
 * definitions): structs are objects with their properties, maps `additionalProperties`, lists
 * arrays with their list type, times date-time strings, byte arrays byte strings, durations and
 * quantities strings, int-or-string and raw objects untyped. A struct met again inside itself
 * (a recursive type) is untyped from there on. One schema object per struct and kind, so
 * `object` and `oldObject` get one type.
 */
import type { Schema, StructSchema } from '../../../apimachinery/schema/types.js';
import { structFields } from '../../../apimachinery/schema/types.js';
import { schemaExtension } from '../../../apis/vendor.js';
import type { OpenAPISchema } from '../../../cel/index.js';

const X_PRESERVE_UNKNOWN = schemaExtension('preserve-unknown-fields');
const X_INT_OR_STRING = schemaExtension('int-or-string');
const X_EMBEDDED_RESOURCE = schemaExtension('embedded-resource');
const X_LIST_TYPE = schemaExtension('list-type');
const X_LIST_MAP_KEYS = schemaExtension('list-map-keys');

const cache = new WeakMap<StructSchema, OpenAPISchema>();

function convert(s: Schema, path: ReadonlySet<string>): OpenAPISchema {
  switch (s.type) {
    case 'string': {
      const out: OpenAPISchema = { type: 'string' };
      if (s.format) out.format = s.format;
      if (s.enum) out.enum = [...s.enum];
      if (s.maxLength !== undefined) out.maxLength = s.maxLength;
      return out;
    }
    case 'integer':
      return { type: 'integer', format: s.format };
    case 'number':
      return { type: 'number', format: s.format ?? 'double' };
    case 'boolean':
      return { type: 'boolean' };
    case 'bytes':
      return { type: 'string', format: 'byte' };
    case 'time':
      return { type: 'string', format: 'date-time' };
    case 'duration':
    case 'quantity':
      return { type: 'string' };
    case 'int-or-string':
      return { [X_INT_OR_STRING]: true };
    case 'raw':
      return s.embeddedResource ? { type: 'object', [X_PRESERVE_UNKNOWN]: true, [X_EMBEDDED_RESOURCE]: true } : { [X_PRESERVE_UNKNOWN]: true };
    case 'map':
      return { type: 'object', additionalProperties: convert(s.values, path) };
    case 'list': {
      const out: OpenAPISchema = { type: 'array', items: convert(s.items, path) };
      if (s.maxItems !== undefined) out.maxItems = s.maxItems;
      if (s.listType) out[X_LIST_TYPE] = s.listType;
      if (s.listMapKeys) out[X_LIST_MAP_KEYS] = [...s.listMapKeys];
      return out;
    }
    case 'struct':
      return structSchema(s, path);
  }
}

function structSchema(s: StructSchema, path: ReadonlySet<string>): OpenAPISchema {
  if (path.has(s.id)) return { type: 'object', [X_PRESERVE_UNKNOWN]: true };
  if (path.size === 0) {
    const cached = cache.get(s);
    if (cached) return cached;
  }
  const inner = new Set(path).add(s.id);
  const properties: Record<string, OpenAPISchema> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(structFields(s))) {
    properties[name] = convert(f.schema, inner);
    if (f.required) required.push(name);
  }
  const out: OpenAPISchema = { type: 'object', properties };
  if (required.length > 0) out.required = required;
  if (s.preserveUnknownFields) out[X_PRESERVE_UNKNOWN] = true;
  if (path.size === 0) cache.set(s, out);
  return out;
}

/** The OpenAPI schema of a kind's object (`schema` of its definition), built once per kind. */
export function kindSchema(schema: StructSchema): OpenAPISchema {
  return structSchema(schema, new Set());
}
