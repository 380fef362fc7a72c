/**
 * A walk over every schema node of a JSONSchemaProps tree (upstream `SchemaHas`): properties,
 * items (a schema or a list of schemas), allOf/anyOf/oneOf/not, additionalProperties and
 * additionalItems (when schemas), patternProperties, definitions and dependencies (when schemas).
 */
import type { JSONSchemaProps } from '../types.js';

const isSchema = (v: unknown): v is JSONSchemaProps => v !== null && typeof v === 'object' && !Array.isArray(v);
const values = (v: unknown): unknown[] => (isSchema(v) ? Object.values(v) : []);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** True when `pred` holds for `s` or any schema under it. */
export function schemaHas(s: unknown, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!isSchema(s)) return false;
  if (pred(s)) return true;
  const children: unknown[] = [
    ...(Array.isArray(s.items) ? s.items : [s.items]),
    ...list(s.allOf),
    ...list(s.anyOf),
    ...list(s.oneOf),
    s.not,
    ...values(s.properties),
    s.additionalProperties,
    ...values(s.patternProperties),
    s.additionalItems,
    ...values(s.definitions),
    ...values(s.dependencies),
  ];
  return children.some((c) => schemaHas(c, pred));
}

/** Some node of the schema has a `default` (upstream `schemaHasDefaults`). */
export function schemaHasDefaults(s: JSONSchemaProps): boolean {
  return schemaHas(s, (n) => n.default !== undefined);
}
