/**
 * The CRD-write check of a printer column's JSONPath (upstream apiextensions validation
 * `ValidateCustomResourceColumnDefinition` → `validateSimpleJSONPath`). Upstream reports it at
 * the internal field name `JSONPath` (not the wire name `jsonPath`), and so do we.
 */
import { invalid, required, type FieldError, type FieldPath } from '../../apimachinery/field-errors.js';

/**
 * Errors of `additionalPrinterColumns[i].jsonPath`; `columnPath` is the column's path
 * (`spec.versions[0].additionalPrinterColumns[0]`), errors are at `<columnPath>.JSONPath`:
 * `Required value` when empty, `Invalid value: "spec.x": must be a simple json path starting
 * with .` when it does not start with a dot. Nothing else is checked at write time.
 */
export function validatePrinterColumnJSONPath(jsonPath: string, columnPath: FieldPath): FieldError[] {
  const at = columnPath.child('JSONPath');
  if (jsonPath.length === 0) return [required(at)];
  if (!jsonPath.startsWith('.')) return [invalid(at, jsonPath, 'must be a simple json path starting with .')];
  return [];
}
