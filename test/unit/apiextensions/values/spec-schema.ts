import type { JSONSchemaProps } from '../../../../lib/apiextensions/types.js';

/** The schema of a custom resource whose `spec` object has `properties`: `{type: object, properties: {spec: {type: object, properties}}}`. */
export function specSchema(properties: Record<string, JSONSchemaProps>): JSONSchemaProps {
  return { type: 'object', properties: { spec: { type: 'object', properties } } };
}
