/**
 * CRD schema checks and the conversion of a CRD schema into the type model (upstream
 * apiextensions validation and apiserver/schema, v1.30).
 */
export { type CustomResourceSchemaOptions, isStructuralSchema, validateCustomResourceSchema } from './validate.js';
export { toStructSchema } from './model.js';
