/**
 * Field paths and field-level validation errors, with the upstream wording
 * (`spec.containers[0].name: Required value`). spec 001 § Errors (422 Invalid, details.causes).
 */

import { goQuote } from './go-quote.js';

/** Kind of a field error; the wire cause reason is `FieldValue<Type>` (e.g. `FieldValueRequired`). */
export type FieldErrorType =
  | 'NotFound'
  | 'Required'
  | 'Duplicate'
  | 'Invalid'
  | 'NotSupported'
  | 'Forbidden'
  | 'TooLong'
  | 'TooMany'
  | 'TypeInvalid'
  | 'InternalError';

/** One validation failure at a field path. `badValue` is omitted where the message shows none. */
export interface FieldError {
  type: FieldErrorType;
  /** Field path, e.g. `metadata.labels[app]` or `spec.containers[0].image`. */
  field: string;
  badValue?: unknown;
  detail: string;
}

/**
 * An immutable field path builder: `root('spec').child('containers').index(0).child('name')`
 * prints `spec.containers[0].name`; `.key('app')` prints `[app]`.
 */
export class FieldPath {
  private constructor(private readonly text: string) {}

  /** A root path with one or more dotted segments: `FieldPath.of('metadata', 'name')`. */
  static of(...names: string[]): FieldPath {
    return new FieldPath(names.join('.'));
  }

  /** Appends `.name` segments. */
  child(...names: string[]): FieldPath {
    const tail = names.join('.');
    return new FieldPath(this.text === '' ? tail : `${this.text}.${tail}`);
  }

  /** Appends `[i]`. */
  index(i: number): FieldPath {
    return new FieldPath(`${this.text}[${i}]`);
  }

  /** Appends `[key]` (map keys are printed unquoted, as upstream does). */
  key(k: string): FieldPath {
    return new FieldPath(`${this.text}[${k}]`);
  }

  toString(): string {
    return this.text;
  }
}

type PathLike = FieldPath | string;
const str = (p: PathLike): string => (typeof p === 'string' ? p : p.toString());

/** `Required value` (+ `: detail`). */
export function required(path: PathLike, detail = ''): FieldError {
  return { type: 'Required', field: str(path), detail };
}
/** `Invalid value: <value>: detail`. */
export function invalid(path: PathLike, value: unknown, detail: string): FieldError {
  return { type: 'Invalid', field: str(path), badValue: value, detail };
}
/** `Unsupported value: <value>: supported values: "a", "b"`. */
export function notSupported(path: PathLike, value: unknown, supported: readonly string[]): FieldError {
  const detail = supported.length > 0 ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '';
  return { type: 'NotSupported', field: str(path), badValue: value, detail };
}
/** `Forbidden: detail`. */
export function forbidden(path: PathLike, detail: string): FieldError {
  return { type: 'Forbidden', field: str(path), detail };
}
/** `Duplicate value: <value>`. */
export function duplicate(path: PathLike, value: unknown): FieldError {
  return { type: 'Duplicate', field: str(path), badValue: value, detail: '' };
}
/** `Not found: <value>`. */
export function notFound(path: PathLike, value: unknown): FieldError {
  return { type: 'NotFound', field: str(path), badValue: value, detail: '' };
}
/** `Too long: may not be more than <max> bytes` (strings) — upstream `field.TooLong`. */
export function tooLong(path: PathLike, value: unknown, maxLength: number): FieldError {
  return { type: 'TooLong', field: str(path), badValue: value, detail: `may not be more than ${maxLength} bytes` };
}
/** `Too many: <actual>: must have at most <max> items` — upstream `field.TooMany`. */
export function tooMany(path: PathLike, actual: number, max: number): FieldError {
  return { type: 'TooMany', field: str(path), badValue: actual, detail: `must have at most ${max} items` };
}
/** `Invalid value: <value>: detail` for a wrong JSON type. */
export function typeInvalid(path: PathLike, value: unknown, detail: string): FieldError {
  return { type: 'TypeInvalid', field: str(path), badValue: value, detail };
}
/** `Internal error: detail`. */
export function internalError(path: PathLike, detail: string): FieldError {
  return { type: 'InternalError', field: str(path), detail };
}

const TYPE_TEXT: Record<FieldErrorType, string> = {
  NotFound: 'Not found',
  Required: 'Required value',
  Duplicate: 'Duplicate value',
  Invalid: 'Invalid value',
  NotSupported: 'Unsupported value',
  Forbidden: 'Forbidden',
  TooLong: 'Too long',
  TooMany: 'Too many',
  TypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

/**
 * Prints a bad value the way upstream does: strings quoted, numbers and booleans bare, a missing
 * value (null, undefined) as the quoted string `"null"`, others as JSON.
 */
export function formatBadValue(value: unknown): string {
  if (value === null || value === undefined) return '"null"';
  if (value instanceof GoSyntax) return value.text;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** A bad value shown as written in Go syntax (upstream prints typed values with `%#v`). */
export class GoSyntax {
  constructor(readonly text: string) {}
}

/**
 * Go's `%#v` of a `map[string]string`, as upstream prints a label map it refuses:
 * `map[string]string{"app":"web", "tier":"db"}` (keys sorted, as fmt prints maps),
 * `map[string]string(nil)` for an absent one.
 */
export function goStringMap(m: Readonly<Record<string, string>> | undefined): GoSyntax {
  if (m === undefined) return new GoSyntax('map[string]string(nil)');
  const keys = Object.keys(m).sort();
  return new GoSyntax(`map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(m[k]!)}`).join(', ')}}`);
}

/** Go's `%#v` of a `[]string`, as upstream prints a bad value list: `[]string{"a", "b"}`, `[]string(nil)`. */
export function goStringSlice(values: readonly string[]): GoSyntax {
  return new GoSyntax(values.length === 0 ? '[]string(nil)' : `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`);
}

/** The error text without the field path, e.g. `Invalid value: "Foo": must be lower case`. */
export function fieldErrorBody(e: FieldError): string {
  let s = TYPE_TEXT[e.type];
  const showsValue = e.type === 'Invalid' || e.type === 'NotSupported' || e.type === 'Duplicate' || e.type === 'NotFound' || e.type === 'TypeInvalid' || (e.type === 'TooMany' && e.badValue !== undefined);
  if (showsValue) s += `: ${formatBadValue(e.badValue)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** `field: body`, as upstream `field.Error.Error()`. */
export function fieldErrorString(e: FieldError): string {
  return e.field ? `${e.field}: ${fieldErrorBody(e)}` : fieldErrorBody(e);
}

/** Prefixes every error's field with `prefix.` (used when validating an embedded struct). */
export function prefixErrors(prefix: PathLike, errs: FieldError[]): FieldError[] {
  const p = str(prefix);
  return errs.map((e) => ({ ...e, field: e.field.startsWith('[') ? `${p}${e.field}` : `${p}.${e.field}` }));
}
