/**
 * Label maps used as selectors (Service `spec.selector`) and single label keys (taint keys),
 * with the upstream paths and messages (apimachinery meta/v1 validation `ValidateLabels`,
 * `ValidateLabelName`). A bad key or value is reported at the map's own path, as upstream does
 * (also for `metadata.labels`, see validateLabels). For `metav1.LabelSelector` structs see
 * labels/validation.ts.
 */
import { type FieldError, type FieldPath, invalid } from '../field-errors.js';
import { isQualifiedName, isValidLabelValue } from './names.js';

/** A label key: a qualified name (`[prefix/]name`); errors at `path`. */
export function validateLabelName(key: string, path: FieldPath): FieldError[] {
  return isQualifiedName(key).map((m) => invalid(path, key, m));
}

/** A `map[string]string` of labels: every key and value, all errors at `path`. */
export function validateLabelMap(labels: unknown, path: FieldPath): FieldError[] {
  if (!labels || typeof labels !== 'object') return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    errs.push(...validateLabelName(k, path));
    for (const m of isValidLabelValue(String(v))) errs.push(invalid(path, v, m));
  }
  return errs;
}
