/**
 * The errors of OpenAPI value validation as kube-openapi raises them (validation/errors
 * schema.go: `<name> in body must be of type integer: "string"`, `... should be at most 5 chars
 * long`) and their translation to field errors as upstream apiextensions does it
 * (apiserver/validation kubeOpenAPIResultToFieldErrors): Required, NotSupported, TooLong,
 * TooMany and TypeInvalid for their codes, Invalid with the kube-openapi message otherwise.
 */
import { type FieldError, FieldPath, invalid, notSupported, required } from '../../apimachinery/field-errors.js';
import { goBadValue } from './messages.js';

/** A kube-openapi validation error (its `Name` is the dotted value path, maybe with a leading `.`). */
export type OpenAPIError =
  | { kind: 'required'; name: string }
  | { kind: 'enum'; name: string; value: unknown; values: readonly unknown[] }
  | { kind: 'tooLong'; name: string; max: number }
  | { kind: 'tooMany'; name: string; actual: number; max: number }
  | { kind: 'type'; name: string; value: unknown; message: string }
  | { kind: 'invalid'; name: string; value: unknown; message: string }
  /** An error that is no kube-openapi Validation (anyOf/oneOf/allOf/not): reported at the prefix. */
  | { kind: 'composite'; message: string };

/** The field path an error's name resolves to under `prefix` (kube-openapi trims one leading `.`). */
function errPath(prefix: FieldPath | undefined, name: string): string {
  if (name === '' || name === '.') return prefix?.toString() ?? '';
  const n = name.startsWith('.') ? name.slice(1) : name;
  return prefix === undefined ? n : prefix.child(n).toString();
}

function enumValueText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * Translates kube-openapi errors into field errors under `prefix` (none for a custom resource,
 * `<schema path>.default` for a default value), keeping their order.
 */
export function toFieldErrors(errs: readonly OpenAPIError[], prefix?: FieldPath): FieldError[] {
  return errs.map((e): FieldError => {
    switch (e.kind) {
      case 'required':
        return required(errPath(prefix, e.name));
      case 'enum':
        return notSupported(errPath(prefix, e.name), goBadValue(e.value), e.values.map(enumValueText));
      case 'tooLong':
        return { type: 'TooLong', field: errPath(prefix, e.name), detail: `may not be longer than ${e.max}` };
      case 'tooMany':
        return { type: 'TooMany', field: errPath(prefix, e.name), badValue: e.actual, detail: `must have at most ${e.max} items` };
      case 'type':
        return { type: 'TypeInvalid', field: errPath(prefix, e.name), badValue: goBadValue(e.value ?? ''), detail: e.message };
      case 'invalid':
        return invalid(errPath(prefix, e.name), goBadValue(e.value ?? ''), e.message);
      case 'composite':
        return invalid(prefix?.toString() ?? '', '', e.message);
    }
  });
}

/** Builders of kube-openapi's messages (`in` is always `body`). */
export const msg = {
  type: (name: string, type: string, value: string): OpenAPIError => ({
    kind: 'type',
    name,
    value,
    message: `${name} in body must be of type ${type}: ${JSON.stringify(value)}`,
  }),
  required: (name: string): OpenAPIError => ({ kind: 'required', name }),
  enum: (name: string, value: unknown, values: readonly unknown[]): OpenAPIError => ({ kind: 'enum', name, value, values }),
  tooLong: (name: string, max: number): OpenAPIError => ({ kind: 'tooLong', name, max }),
  tooShort: (name: string, min: number, value: string): OpenAPIError => ({
    kind: 'invalid',
    name,
    value,
    message: `${name} in body should be at least ${min} chars long`,
  }),
  pattern: (name: string, pattern: string, value: string): OpenAPIError => ({
    kind: 'invalid',
    name,
    value,
    message: `${name} in body should match '${pattern}'`,
  }),
  format: (name: string, format: string, value: string): OpenAPIError => msg.type(name, format, value),
  bound: (name: string, value: number, text: string): OpenAPIError => ({ kind: 'invalid', name, value, message: `${name} in body should be ${text}` }),
  multipleOfPositive: (name: string, factor: string, value: number): OpenAPIError => ({
    kind: 'invalid',
    name,
    value,
    message: `factor MultipleOf declared for ${name} must be positive: ${factor}`,
  }),
  unique: (name: string): OpenAPIError => ({ kind: 'invalid', name, value: undefined, message: `${name} in body shouldn't contain duplicates` }),
  tooFewItems: (name: string, min: number, size: number): OpenAPIError => ({
    kind: 'invalid',
    name,
    value: size,
    message: `${name} in body should have at least ${min} items`,
  }),
  tooManyItems: (name: string, max: number, size: number): OpenAPIError => ({ kind: 'tooMany', name, actual: size, max }),
  tooFewProperties: (name: string, min: number, size: number): OpenAPIError => ({
    kind: 'invalid',
    name,
    value: size,
    message: `${name} in body should have at least ${min} properties`,
  }),
  tooManyProperties: (name: string, max: number, size: number): OpenAPIError => ({ kind: 'tooMany', name, actual: size, max }),
  notAllowed: (name: string, key: string): OpenAPIError => ({
    kind: 'invalid',
    name,
    value: key,
    message: `${name}.${key} in body is a forbidden property`,
  }),
  anyOf: (name: string): OpenAPIError => ({ kind: 'composite', message: `${JSON.stringify(name)} must validate at least one schema (anyOf)` }),
  oneOf: (name: string, detail: string): OpenAPIError => ({
    kind: 'composite',
    message: `${JSON.stringify(name)} must validate one and only one schema (oneOf). ${detail}`,
  }),
  allOf: (name: string, detail: string): OpenAPIError => ({ kind: 'composite', message: `${JSON.stringify(name)} must validate all the schemas (allOf)${detail}` }),
  not: (name: string): OpenAPIError => ({ kind: 'composite', message: `${JSON.stringify(name)} must not validate the schema (not)` }),
};
