/**
 * A small vocabulary for declaring kinds with the structural type model (types.ts):
 * `struct('api.core.v1.ConfigMap', { data: field(2, mapOf(string)) })`.
 * See EXAMPLES.md § A kind, defined once.
 */
import type {
  BooleanSchema,
  BytesSchema,
  DurationSchema,
  Field,
  IntegerSchema,
  IntOrStringSchema,
  ListMarkers,
  ListSchema,
  MapSchema,
  NumberSchema,
  QuantitySchema,
  RawSchema,
  Schema,
  StringSchema,
  StructSchema,
  TimeSchema,
} from './types.js';

export const string: StringSchema = { type: 'string' };
export const int32: IntegerSchema = { type: 'integer', format: 'int32' };
export const int64: IntegerSchema = { type: 'integer', format: 'int64' };
export const float64: NumberSchema = { type: 'number', format: 'double' };
export const boolean: BooleanSchema = { type: 'boolean' };
export const bytes: BytesSchema = { type: 'bytes' };
export const time: TimeSchema = { type: 'time', precision: 'seconds' };
export const microTime: TimeSchema = { type: 'time', precision: 'micros' };
export const duration: DurationSchema = { type: 'duration' };
export const quantity: QuantitySchema = { type: 'quantity' };
export const intOrString: IntOrStringSchema = { type: 'int-or-string' };
export const raw: RawSchema = { type: 'raw' };
export const embeddedResource: RawSchema = { type: 'raw', embeddedResource: true };

/** A string restricted to `values` (declarative validation reports `Unsupported value`). */
export function enumOf(...values: string[]): StringSchema {
  return { type: 'string', enum: values };
}

/** A string with extra constraints (`maxLength`, `format`, `pattern`). */
export function stringWith(opts: Omit<StringSchema, 'type'>): StringSchema {
  return { type: 'string', ...opts };
}

/** `map[string]<values>`. */
export function mapOf(values: Schema, opts: Omit<MapSchema, 'type' | 'values'> = {}): MapSchema {
  return { type: 'map', values, ...opts };
}

/** `[]<items>` with merge markers: `listOf(container, { patchMergeKey: 'name', patchStrategy: 'merge' })`. */
export function listOf(items: Schema, opts: ListMarkers & { maxItems?: number; description?: string } = {}): ListSchema {
  return { type: 'list', items, ...opts };
}

/** A named struct; `fields` may be a thunk for recursive types. */
export function struct(
  id: string,
  fields: Record<string, Field> | (() => Record<string, Field>),
  opts: Omit<StructSchema, 'type' | 'id' | 'fields'> = {},
): StructSchema {
  return { type: 'struct', id, fields, ...opts };
}

/** A property with its protobuf field number and options (`required`, `default`, `omitEmpty`, `pointer`…). */
export function field(proto: number, schema: Schema, opts: Omit<Field, 'schema' | 'proto'> = {}): Field {
  return { schema, proto, ...opts };
}
