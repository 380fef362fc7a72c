/**
 * Validation of a `metav1.LabelSelector` struct with the upstream field paths and messages
 * (spec 001 § Errors, 422 Invalid; issue #2 items 5–6).
 */
import { type FieldError, type FieldPath, forbidden, invalid, required } from '../field-errors.js';
import { isQualifiedName, isValidLabelValue } from '../validation/names.js';
import type { LabelSelectorObject } from './selector.js';

const IN_NOT_IN = "must be specified when `operator` is 'In' or 'NotIn'";
const EXISTS = "may not be specified when `operator` is 'Exists' or 'DoesNotExist'";

/**
 * Validates a label selector struct at `path` (e.g. `spec.selector`), as upstream
 * `ValidateLabelSelector`: `matchLabels` keys and values (both reported at `matchLabels` itself,
 * as upstream `ValidateLabels` does); for each `matchExpressions[i]`, the operator
 * (`operator: Invalid value: "Foo": not a valid selector operator`), the values it requires
 * (`values: Required value: …` for In/NotIn) or forbids (`values: Forbidden: …` for
 * Exists/DoesNotExist), the key as a qualified name and every value as a label value.
 * `null`/`undefined` is valid (whether a selector is required is the caller's rule).
 */
export function validateLabelSelectorObject(sel: LabelSelectorObject | null | undefined, path: FieldPath): FieldError[] {
  if (sel == null) return [];
  const errs: FieldError[] = [];
  const labelsPath = path.child('matchLabels');
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    for (const m of isQualifiedName(k)) errs.push(invalid(labelsPath, k, m));
    for (const m of isValidLabelValue(v)) errs.push(invalid(labelsPath, v, m));
  }
  (sel.matchExpressions ?? []).forEach((expr, i) => {
    const p = path.child('matchExpressions').index(i);
    const values = expr.values ?? [];
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(p.child('values'), IN_NOT_IN));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(forbidden(p.child('values'), EXISTS));
        break;
      default:
        errs.push(invalid(p.child('operator'), expr.operator, 'not a valid selector operator'));
    }
    for (const m of isQualifiedName(expr.key)) errs.push(invalid(p.child('key'), expr.key, m));
    values.forEach((v, j) => {
      for (const m of isValidLabelValue(v)) errs.push(invalid(p.child('values').index(j), v, m));
    });
  });
  return errs;
}
