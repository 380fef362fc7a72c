/**
 * Declared types from OpenAPI v3 schemas (the type mapping the upstream server applies; spec 000
 * § Expression language (CEL) in fields says it is "not shown"):
 *
 * | schema                                             | expression type                         |
 * |----------------------------------------------------|-----------------------------------------|
 * | object with properties                             | object type, fields escaped             |
 * | object with additionalProperties schema            | map<string, V>                          |
 * | embedded resource / resource root                  | object with apiVersion, kind, metadata.name, metadata.generateName added |
 * | preserve-unknown-fields without properties         | dyn                                     |
 * | int-or-string                                      | dyn                                     |
 * | array (list-type atomic, set, map)                 | list<T> with set/map semantics          |
 * | integer / number / boolean                         | int / double / bool                     |
 * | string (format byte, duration, date, date-time)    | string (bytes, duration, timestamp)     |
 *
 * Sizes come from maxItems / maxProperties / maxLength, or, when absent, from what fits in one
 * request (spec 001 § Limits, expression cost). Schemas that cannot be expressed are left out.
 */

import { schemaExtension } from '../apis/vendor.js';
import { escapeProperty } from './escaping.js';
import { MAX_REQUEST_SIZE_BYTES } from './limits.js';
import type { DeclType, FieldDecl, ListDecl, PrimitiveDecl } from './types.js';

/** The subset of an OpenAPI v3 schema object the mapping reads; vendor extensions by name. */
export interface OpenAPISchema {
  type?: string;
  format?: string;
  properties?: Record<string, OpenAPISchema>;
  items?: OpenAPISchema;
  additionalProperties?: boolean | OpenAPISchema;
  nullable?: boolean;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  maxItems?: number;
  maxLength?: number;
  maxProperties?: number;
  [extension: string]: unknown;
}

/** Serialized-size bounds of scalars in JSON, as upstream uses them. */
export const JSON_SIZES = {
  minString: 2,
  minBool: 4,
  minNumber: 1,
  minDuration: 3,
  maxDuration: 32,
  date: 12,
  minDatetime: 21,
  maxDatetime: 32,
} as const;

const X_INT_OR_STRING = schemaExtension('int-or-string');
const X_PRESERVE_UNKNOWN = schemaExtension('preserve-unknown-fields');
const X_EMBEDDED_RESOURCE = schemaExtension('embedded-resource');
const X_LIST_TYPE = schemaExtension('list-type');
const X_LIST_MAP_KEYS = schemaExtension('list-map-keys');

const STRING: OpenAPISchema = { type: 'string' };

const nonNegative = (n: number): number => Math.max(0, Math.floor(n));
const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Upstream estimateMaxArrayItemsFromMinSize: items of this size that fit in one request. */
function maxItemsFromMinSize(minSize: number): number {
  return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 1));
}

/** Upstream estimateMaxAdditionalPropertiesFromMinSize. */
function maxPropertiesFromMinSize(minSize: number): number {
  return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 6));
}

/**
 * Adds `apiVersion`, `kind` and `metadata` (with only `name` and `generateName`) to the root of
 * a resource or an embedded resource, as upstream does for validation rules.
 */
function withTypeAndObjectMeta(s: OpenAPISchema): OpenAPISchema {
  const p = s.properties;
  const meta = p?.metadata?.properties;
  if (
    p?.kind?.type === 'string' &&
    p.apiVersion?.type === 'string' &&
    p.metadata?.type === 'object' &&
    meta?.name?.type === 'string' &&
    meta.generateName?.type === 'string'
  ) {
    return s;
  }
  return {
    ...s,
    type: 'object',
    properties: {
      ...p,
      kind: STRING,
      apiVersion: STRING,
      metadata: { type: 'object', properties: { name: STRING, generateName: STRING } },
    },
  };
}

/**
 * Builds declared types from schemas, naming object types after the variable and the property
 * path (`self.spec.items.item`). One builder per environment: the same schema object always
 * maps to the same type, so `self` and `oldSelf` declared with one schema compare equal.
 */
export class SchemaTypeBuilder {
  private readonly memo = new WeakMap<OpenAPISchema, { root?: DeclType; nested?: DeclType }>();
  private readonly names = new Set<string>();

  /**
   * The type of `schema` for a variable called `variable` (object types are named
   * `<variable>Type.<path>`); undefined when nothing in the schema is expressible.
   */
  build(schema: OpenAPISchema, variable: string, resourceRoot = false): DeclType | undefined {
    return this.convert(schema, `${variable}Type`, resourceRoot);
  }

  private convert(s: OpenAPISchema, path: string, resourceRoot: boolean): DeclType | undefined {
    const cached = this.memo.get(s);
    const hit = resourceRoot ? cached?.root : cached?.nested;
    if (hit) return hit;
    const t = this.convertUncached(s, path, resourceRoot);
    if (t) this.memo.set(s, { ...cached, [resourceRoot ? 'root' : 'nested']: t });
    return t;
  }

  private convertUncached(input: OpenAPISchema, path: string, resourceRoot: boolean): DeclType | undefined {
    if (input[X_INT_OR_STRING] === true) {
      return { kind: 'dyn', intOrString: true, maxElements: MAX_REQUEST_SIZE_BYTES - 2, minSerializedSize: 1 };
    }
    const s = resourceRoot ? withTypeAndObjectMeta(input) : input;
    switch (s.type) {
      case 'array':
        return s.items ? this.list(s, s.items, path) : undefined;
      case 'object':
        return this.object(s, path);
      case 'string':
        return stringType(s);
      case 'boolean':
        return scalar('bool', JSON_SIZES.minBool);
      case 'number':
        return scalar('double', JSON_SIZES.minNumber);
      case 'integer':
        return scalar('int', JSON_SIZES.minNumber);
      default:
        if (s[X_PRESERVE_UNKNOWN] === true) return { kind: 'dyn', intOrString: false, maxElements: MAX_REQUEST_SIZE_BYTES - 2, minSerializedSize: 1 };
        return undefined;
    }
  }

  private list(s: OpenAPISchema, items: OpenAPISchema, path: string): ListDecl | undefined {
    const elem = this.convert(items, `${path}.item`, items[X_EMBEDDED_RESOURCE] === true);
    if (!elem) return undefined;
    const rawType = s[X_LIST_TYPE];
    const listType = rawType === 'set' || rawType === 'map' ? rawType : 'atomic';
    const keys = Array.isArray(s[X_LIST_MAP_KEYS]) ? (s[X_LIST_MAP_KEYS] as unknown[]).map(String) : [];
    return {
      kind: 'list',
      elem,
      listType,
      mapKeys: listType === 'map' ? keys.map((k) => escapeProperty(k) ?? k) : [],
      maxElements: s.maxItems !== undefined ? nonNegative(s.maxItems) : maxItemsFromMinSize(elem.minSerializedSize),
      minSerializedSize: 2,
    };
  }

  private object(s: OpenAPISchema, path: string): DeclType | undefined {
    const extra = s.additionalProperties;
    if (extra !== undefined && typeof extra === 'object') {
      const value = this.convert(extra, `${path}.value`, extra[X_EMBEDDED_RESOURCE] === true);
      if (!value) return undefined;
      return {
        kind: 'map',
        key: scalar('string', JSON_SIZES.minString),
        value,
        maxElements: s.maxProperties !== undefined ? nonNegative(s.maxProperties) : maxPropertiesFromMinSize(value.minSerializedSize),
        minSerializedSize: 2,
      };
    }
    if (!s.properties && s[X_PRESERVE_UNKNOWN] === true) {
      return { kind: 'dyn', intOrString: false, maxElements: MAX_REQUEST_SIZE_BYTES - 2, minSerializedSize: 2 };
    }
    const name = this.uniqueName(path);
    const required = new Set(s.required ?? []);
    const fields = new Map<string, FieldDecl>();
    let minSerializedSize = 2;
    for (const [property, propSchema] of Object.entries(s.properties ?? {})) {
      const ident = escapeProperty(property);
      const type = this.convert(propSchema, `${path}.${ident ?? 'field'}`, propSchema[X_EMBEDDED_RESOURCE] === true);
      if (!type) continue;
      if (ident) fields.set(ident, { property, type });
      if (required.has(property) && propSchema.default === undefined) {
        minSerializedSize += utf8Length(property) + type.minSerializedSize + 4;
      }
    }
    return { kind: 'object', name, fields, maxElements: 0, minSerializedSize };
  }

  private uniqueName(path: string): string {
    let name = path;
    for (let i = 2; this.names.has(name); i++) name = `${path}${i}`;
    this.names.add(name);
    return name;
  }
}

function scalar(name: PrimitiveDecl['name'], minSerializedSize: number, maxElements = 0): PrimitiveDecl {
  return { kind: 'primitive', name, maxElements, minSerializedSize };
}

function stringType(s: OpenAPISchema): PrimitiveDecl {
  const maxLength = s.maxLength !== undefined ? nonNegative(s.maxLength) : undefined;
  switch (s.format) {
    case 'byte':
      return { ...scalar('bytes', JSON_SIZES.minString, maxLength ?? MAX_REQUEST_SIZE_BYTES - 2), format: 'byte' };
    case 'duration':
      return { ...scalar('google.protobuf.Duration', JSON_SIZES.minDuration, JSON_SIZES.maxDuration), format: 'duration' };
    case 'date':
      return { ...scalar('google.protobuf.Timestamp', JSON_SIZES.date, JSON_SIZES.date), format: 'date' };
    case 'date-time':
      return { ...scalar('google.protobuf.Timestamp', JSON_SIZES.minDatetime, JSON_SIZES.maxDatetime), format: 'date-time' };
  }
  if (maxLength !== undefined) {
    // maxLength counts code points; a code point takes up to 4 bytes (upstream sizes in bytes).
    return scalar('string', JSON_SIZES.minString, maxLength * 4);
  }
  const enumStrings = (s.enum ?? []).filter((v): v is string => typeof v === 'string');
  if (enumStrings.length > 0) {
    return scalar('string', JSON_SIZES.minString, Math.max(...enumStrings.map(utf8Length)));
  }
  return scalar('string', JSON_SIZES.minString, MAX_REQUEST_SIZE_BYTES - 2);
}
