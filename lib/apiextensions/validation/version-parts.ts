/**
 * The per-version parts of a CustomResourceDefinition other than the schema (upstream v1.30
 * apiextensions validation): `deprecationWarning`, the scale subresource's paths, and the
 * printer columns, with upstream's messages and its internal field names in paths
 * (`scale.specReplicasPath`, a column's `JSONPath`).
 */
import { type FieldError, type FieldPath, invalid, required } from '../../apimachinery/field-errors.js';
import type { CustomResourceColumnDefinition, CustomResourceSubresources } from '../types.js';
import type { CRDValidationHooks } from './hooks.js';

/** The most bytes a deprecation warning may have. */
const MAX_DEPRECATION_WARNING = 256;
const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
/**
 * Characters Go's `unicode.IsPrint` refuses: other (C*, control characters included, so upstream's
 * separate control-character message never shows) and separators (Z*) except the ASCII space.
 */
const NON_PRINTABLE = /[\p{C}\p{Z}]/u;
const utf8 = new TextEncoder();

/**
 * The problems of a version's `deprecationWarning` (upstream `validateDeprecationWarning`),
 * each reported as `Invalid value` at the field: set on a version not deprecated, longer than
 * 256 bytes, empty, or holding a non-printable character (at its UTF-8 byte index).
 */
export function deprecationWarningProblems(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const problems: string[] = [];
  if (utf8.encode(warning).length > MAX_DEPRECATION_WARNING) problems.push(`must be <= ${MAX_DEPRECATION_WARNING} characters long`);
  if (warning.length === 0) problems.push('must not be an empty string');
  let byteIndex = 0;
  for (const ch of warning) {
    if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      problems.push(`must only contain printable UTF-8 characters; non-printable character found at index ${byteIndex}`);
      break;
    }
    byteIndex += utf8.encode(ch).length;
  }
  return problems;
}

/** Upstream `validateSimpleJSONPath`: non-empty and starting with `.`. */
export function validateSimpleJSONPath(s: string, fldPath: FieldPath): FieldError[] {
  if (s.length === 0) return [invalid(fldPath, s, 'must not be empty')];
  if (s[0] !== '.') return [invalid(fldPath, s, 'must be a simple json path starting with .')];
  return [];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** One scale path: required, simple, under `prefix` (upstream reports only the first problem). */
function scalePath(value: string, fldPath: FieldPath, prefixes: string[], under: string): FieldError[] {
  if (value.length === 0) return [required(fldPath)];
  const errs = validateSimpleJSONPath(value, fldPath);
  if (errs.length > 0) return errs;
  return prefixes.some((p) => value.startsWith(p)) ? [] : [invalid(fldPath, value, `should be a json path under ${under}`)];
}

/** Upstream `ValidateCustomResourceDefinitionSubresources` at `fldPath` (`…subresources`). */
export function validateSubresources(subresources: CustomResourceSubresources | undefined, fldPath: FieldPath): FieldError[] {
  const scale = subresources?.scale;
  if (scale === undefined || scale === null) return [];
  const errs = [
    ...scalePath(str(scale.specReplicasPath), fldPath.child('scale.specReplicasPath'), ['.spec.'], '.spec'),
    ...scalePath(str(scale.statusReplicasPath), fldPath.child('scale.statusReplicasPath'), ['.status.'], '.status'),
  ];
  const selector = str(scale.labelSelectorPath);
  if (selector.length > 0) errs.push(...scalePath(selector, fldPath.child('scale.labelSelectorPath'), ['.spec.', '.status.'], 'either .spec or .status'));
  return errs;
}

/**
 * Upstream `ValidateCustomResourceColumnDefinition` at `fldPath` (`…additionalPrinterColumns[i]`):
 * name and jsonPath required, type and format from upstream's lists; a simple jsonPath is then
 * handed to `hooks.jsonPath`.
 */
export function validateColumn(col: CustomResourceColumnDefinition, fldPath: FieldPath, hooks: CRDValidationHooks): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(col.name);
  const type = str(col.type);
  const format = str(col.format);
  const jsonPath = str(col.jsonPath);
  if (name.length === 0) errs.push(required(fldPath.child('name')));
  const types = `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`;
  if (type.length === 0) errs.push(required(fldPath.child('type'), types));
  else if (!PRINTER_COLUMN_TYPES.includes(type)) errs.push(invalid(fldPath.child('type'), type, types));
  if (format.length > 0 && !PRINTER_COLUMN_FORMATS.includes(format)) errs.push(invalid(fldPath.child('format'), format, `must be one of ${PRINTER_COLUMN_FORMATS.join(',')}`));
  const pathField = fldPath.child('JSONPath');
  if (jsonPath.length === 0) errs.push(required(pathField));
  else {
    const pathErrs = validateSimpleJSONPath(jsonPath, pathField);
    errs.push(...(pathErrs.length > 0 ? pathErrs : hooks.jsonPath(jsonPath, pathField)));
  }
  return errs;
}
