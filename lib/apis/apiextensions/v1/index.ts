/** The kinds of `apiextensions.<vendor>/v1` (issue #14): CustomResourceDefinition. */

export { customResourceDefinition } from './crd.js';
export { jsonSchemaProps, validationRule } from './schema-props.js';
export { APIEXTENSIONS_GROUP, NONE_CONVERSION, WEBHOOK_CONVERSION } from './types.js';

