/**
 * The schema checks of one CRD version's `openAPIV3Schema` (upstream apiextensions validation
 * validateCustomResourceDefinitionValidation, v1.30), in upstream's order: the root restrictions
 * of the status subresource, `nullable` at the root, the structural-schema rules (only when the
 * schema converts), the OpenAPI-level rules, and last the conversion error (only when nothing
 * else was reported). Defaults and `x-<vendor>-validations` rules are checked by other modules,
 * which upstream runs only on a structural schema (see isStructuralSchema).
 */
import { type FieldError, FieldPath, forbidden, invalid } from '../../apimachinery/field-errors.js';
import type { JSONSchemaProps } from '../types.js';
import { isGoZero, isObject, SCHEMA_MEMBERS, str } from './access.js';
import { goSchemaProps } from './go-syntax.js';
import { validateOpenAPISchema } from './openapi-rules.js';
import { structuralConversionError, validateStructural } from './structural.js';

/** Options of validateCustomResourceSchema. */
export interface CustomResourceSchemaOptions {
  /** The version has the status subresource: the root may only hold some keywords. */
  statusEnabled: boolean;
  /**
   * Accepted for the caller's wiring; upstream v1 places no restriction on
   * `x-<vendor>-preserve-unknown-fields: true`, so it does not change the result.
   */
  preserveUnknownFieldsAllowed?: boolean;
}

const ALLOWED_AT_ROOT = [
  'Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength',
  'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties',
  'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations',
];
const ALLOWED_AT_ROOT_TEXT = `only [${ALLOWED_AT_ROOT.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`;

/** The first root member the status subresource forbids, in struct order (upstream stops there). */
function checkStatusRoot(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  for (const [key, name, kind] of SCHEMA_MEMBERS) {
    if (isGoZero(schema[key], kind)) continue;
    if (name === 'Type') {
      const type = str(schema, 'type');
      if (type !== 'object') return [invalid(path.child('type'), type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      continue;
    }
    if (!ALLOWED_AT_ROOT.includes(name)) return [invalid(path, goSchemaProps(schema), ALLOWED_AT_ROOT_TEXT)];
  }
  return [];
}

/**
 * Every upstream v1.30 check of `spec.versions[i].schema.openAPIV3Schema` except the values of
 * defaults and the `x-<vendor>-validations` rules. `fldPath` is the path of the schema itself
 * (`spec.versions[0].schema.openAPIV3Schema`); the errors carry upstream's messages and paths
 * (upstream apiextensions validation; apiserver/schema ValidateStructural). Never throws.
 */
export function validateCustomResourceSchema(schema: JSONSchemaProps, fldPath: FieldPath, opts: CustomResourceSchemaOptions): FieldError[] {
  if (!isObject(schema)) return [];
  const errs: FieldError[] = [];
  if (opts.statusEnabled) errs.push(...checkStatusRoot(schema, fldPath));
  if (schema.nullable === true) errs.push(forbidden(fldPath.child('nullable'), 'nullable cannot be true at the root'));
  const conversionError = structuralConversionError(schema);
  if (conversionError === undefined) errs.push(...validateStructural(schema, fldPath));
  errs.push(...validateOpenAPISchema(schema, fldPath));
  if (errs.length === 0 && conversionError !== undefined) errs.push(invalid(fldPath, '', conversionError));
  return errs;
}

/**
 * True when `schema` is structural (it converts and has no structural error): upstream checks
 * defaults, and then compiles the validation rules, only for such schemas.
 */
export function isStructuralSchema(schema: JSONSchemaProps): boolean {
  return isObject(schema) && structuralConversionError(schema) === undefined && validateStructural(schema, FieldPath.of()).length === 0;
}
