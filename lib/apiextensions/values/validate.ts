/**
 * Schema validation of a custom resource's value on create and update (upstream apiextensions
 * registry/customresource strategy + validator: OpenAPI schema validation with ratcheting,
 * embedded resources' ObjectMeta, list-type set/map uniqueness), without the
 * `x-<vendor>-validations` rules and without the root ObjectMeta checks (the generic store's).
 */
import type { FieldError } from '../../apimachinery/field-errors.js';
import type { JSONSchemaProps } from '../types.js';
import { validateEmbeddedResources } from './embedded.js';
import { validateListSetsAndMaps } from './list-type.js';
import { toFieldErrors } from './openapi-errors.js';
import { openAPIErrors } from './openapi-validate.js';

/** Options of {@link validateCustomResourceValue}. */
export interface ValueValidationOptions {
  /** The stored object on update; absent on create. */
  old?: unknown;
  /** Ratchet errors of unchanged values on update (CRDValidationRatcheting; default true). */
  ratcheting?: boolean;
}

/**
 * Validates a custom resource value against its version's structural schema. Errors, in
 * upstream order: the OpenAPI value errors (`spec.replicas: Invalid value: "string":
 * spec.replicas in body must be of type integer: "string"`, `spec.name: Too long: may not be
 * longer than 5`, `spec.list: Too many: 4: must have at most 3 items`, `spec.x: Required
 * value`, `spec.mode: Unsupported value: "x": supported values: "a", "b"`), then embedded
 * resources' `apiVersion`/`kind`/`metadata` errors, then list-type duplicates
 * (`spec.ports[1]: Duplicate value: map[string]interface {}{"port":80}`). On update with
 * ratcheting, OpenAPI errors at values deep-equal to their correlated old values are dropped and
 * list-type errors are reported only when the old object had none. Never throws.
 */
export function validateCustomResourceValue(obj: unknown, schema: JSONSchemaProps, opts: ValueValidationOptions = {}): FieldError[] {
  const ratchet = opts.old !== undefined && opts.ratcheting !== false;
  const errs = toFieldErrors(openAPIErrors(obj, schema, ratchet ? { value: opts.old } : undefined));
  errs.push(...validateEmbeddedResources(obj, schema));
  if (!ratchet || validateListSetsAndMaps(opts.old, schema).length === 0) errs.push(...validateListSetsAndMaps(obj, schema));
  return errs;
}
