/**
 * A custom kind's `openAPIV3Schema` in the server's type model (lib/apimachinery/schema/types.ts),
 * for managed fields (server-side apply list types, map keys, map types), OpenAPI publishing and
 * expression typing (ARCHITECTURE.md § Layers: a CustomResourceDefinition produces the same
 * structure at run time). Only the structural part of the schema is read: junctors (allOf, anyOf,
 * oneOf, not) validate values and add no structure.
 */
import type { Field, IntegerSchema, ListSchema, NumberSchema, Schema, SchemaBase, StringSchema, StructSchema } from '../../apimachinery/schema/types.js';
import { objectMeta } from '../../apis/meta/v1/types.js';
import { EXT, type JSONSchemaProps } from '../types.js';
import { flag, isObject, itemsSchema, listType, mapType, schemaAt, schemaMap, str, strings } from './access.js';

const RESOURCE_META = new Set(['apiVersion', 'kind', 'metadata']);
const STRING: StringSchema = { type: 'string' };
const RAW: Schema = { type: 'raw' };

/** Builds one kind's model; struct ids are unique per conversion (no global cache). */
class Converter {
  private readonly ids = new Set<string>();

  constructor(private readonly rootId: string) {}

  /** The struct id of the node at `path` (property names, `items`, `additionalProperties`). */
  private structId(path: readonly string[]): string {
    const base = path.length === 0 ? this.rootId : `${this.rootId}.${path.join('.')}`;
    let id = base;
    for (let n = 2; this.ids.has(id); n++) id = `${base}~${n}`;
    this.ids.add(id);
    return id;
  }

  /** A resource (the root or an embedded resource): apiVersion, kind, metadata, then its properties. */
  resource(s: JSONSchemaProps, path: readonly string[]): StructSchema {
    const fields: Record<string, Field> = {
      kind: property(STRING),
      apiVersion: property(STRING),
      metadata: property(objectMeta),
    };
    const own = this.fields(s, path);
    for (const [name, f] of Object.entries(own)) if (!RESOURCE_META.has(name)) fields[name] = f;
    return this.struct(s, path, fields);
  }

  node(s: JSONSchemaProps, path: readonly string[]): Schema {
    if (flag(s, EXT.intOrString)) return { type: 'int-or-string', ...base(s) };
    if (flag(s, EXT.embeddedResource)) return this.resource(s, path);
    switch (str(s, 'type')) {
      case 'object':
        return this.object(s, path);
      case 'array':
        return this.list(s, path);
      case 'string':
        return stringSchema(s);
      case 'integer':
        return integerSchema(s);
      case 'number':
        return numberSchema(s);
      case 'boolean':
        return { type: 'boolean', ...base(s) };
      case '':
        // any JSON value kept as is; an object's members are deduced, as upstream's untyped nodes are
        return flag(s, EXT.preserveUnknownFields) ? this.struct(s, path, {}) : { ...RAW, ...base(s) };
      default:
        return { ...RAW, ...base(s) };
    }
  }

  private object(s: JSONSchemaProps, path: readonly string[]): Schema {
    if (schemaMap(s, 'properties').length > 0) return this.struct(s, path, this.fields(s, path));
    const values = schemaAt(s, 'additionalProperties');
    if (values) {
      const mt = mapType(s);
      return {
        type: 'map',
        values: this.node(values, [...path, 'additionalProperties']),
        ...base(s),
        ...(mt === 'atomic' || mt === 'granular' ? { mapType: mt } : {}),
      };
    }
    // preserve-unknown-fields or additionalProperties: true keep any member (deduced, granular);
    // otherwise an object without properties keeps none
    return this.struct(s, path, {});
  }

  private struct(s: JSONSchemaProps, path: readonly string[], fields: Record<string, Field>): StructSchema {
    const mt = mapType(s);
    const preserve = flag(s, EXT.preserveUnknownFields) || s.additionalProperties === true;
    return {
      type: 'struct',
      id: this.structId(path),
      fields,
      ...base(s),
      ...(mt === 'atomic' || mt === 'granular' ? { mapType: mt } : {}),
      ...(preserve ? { preserveUnknownFields: true } : {}),
    };
  }

  private fields(s: JSONSchemaProps, path: readonly string[]): Record<string, Field> {
    const req = new Set(strings(s, 'required'));
    const out: Record<string, Field> = {};
    for (const [name, p] of schemaMap(s, 'properties')) {
      const f = property(this.node(p, [...path, name]));
      if (req.has(name)) f.required = true;
      if (p.default !== undefined && p.default !== null) f.default = p.default;
      if (str(p, 'description') !== '') f.description = str(p, 'description');
      out[name] = f;
    }
    return out;
  }

  private list(s: JSONSchemaProps, path: readonly string[]): ListSchema {
    const items = itemsSchema(s);
    const out: ListSchema = { type: 'list', items: items ? this.node(items, [...path, 'items']) : RAW, ...base(s) };
    const lt = listType(s);
    if (lt === 'atomic' || lt === 'set' || lt === 'map') out.listType = lt;
    if (lt === 'map') out.listMapKeys = strings(s, EXT.listMapKeys);
    if (typeof s.maxItems === 'number') out.maxItems = s.maxItems;
    return out;
  }
}

function property(schema: Schema): Field {
  return { schema, proto: 0, omitEmpty: true };
}

function base(s: JSONSchemaProps): SchemaBase {
  const out: SchemaBase = {};
  if (str(s, 'description') !== '') out.description = str(s, 'description');
  if (s.nullable === true) out.nullable = true;
  return out;
}

function stringSchema(s: JSONSchemaProps): StringSchema {
  const out: StringSchema = { type: 'string', ...base(s) };
  if (str(s, 'format') !== '') out.format = str(s, 'format');
  if (Array.isArray(s.enum)) out.enum = s.enum.filter((v): v is string => typeof v === 'string');
  if (typeof s.maxLength === 'number') out.maxLength = s.maxLength;
  if (typeof s.minLength === 'number') out.minLength = s.minLength;
  if (str(s, 'pattern') !== '') out.pattern = str(s, 'pattern');
  return out;
}

function integerSchema(s: JSONSchemaProps): IntegerSchema {
  const out: IntegerSchema = { type: 'integer', format: s.format === 'int32' ? 'int32' : 'int64', ...base(s) };
  if (typeof s.minimum === 'number') out.minimum = s.minimum;
  if (typeof s.maximum === 'number') out.maximum = s.maximum;
  return out;
}

function numberSchema(s: JSONSchemaProps): NumberSchema {
  const out: NumberSchema = { type: 'number', ...base(s) };
  if (s.format === 'float' || s.format === 'double') out.format = s.format;
  return out;
}

/**
 * The model of a custom kind whose `openAPIV3Schema` is `schema` (a structural schema, as
 * validateCustomResourceSchema accepts), with struct ids `${id}` for the root and
 * `${id}.<path>` for nested structs (`<path>` joins property names, `items` and
 * `additionalProperties`; a clash gets `~2`, `~3`…). The root holds `kind`, `apiVersion`,
 * `metadata` (ObjectMeta) and then the schema's properties; embedded resources likewise.
 * Objects with properties are structs (`preserveUnknownFields` from the extension), objects with
 * only an additionalProperties schema are maps (`mapType`), objects without properties (and
 * untyped values) that preserve unknown fields are field-less structs with
 * `preserveUnknownFields` (members deduced, as upstream's managed fields treat them), arrays are
 * lists (`listType`, `listMapKeys`, `maxItems`), int-or-string nodes int-or-string, scalars keep
 * description, enum (strings), format, pattern, lengths, integer bounds and nullable; property
 * defaults become Field.default. Fields are `omitEmpty`, protobuf numbers 0. Never throws; a
 * malformed member reads as absent. Nothing is cached.
 */
export function toStructSchema(schema: JSONSchemaProps, id: string): StructSchema {
  return new Converter(id).resource(isObject(schema) ? schema : {}, []);
}
