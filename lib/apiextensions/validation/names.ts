/**
 * `spec.names` and `status.acceptedNames` of a CustomResourceDefinition (upstream v1.30
 * `ValidateCustomResourceDefinitionNames`): plural, singular, short names and categories are
 * DNS-1035 labels, kind and listKind are too once lower-cased, and kind ≠ listKind. Empty names
 * are not reported here (the spec requires them separately; the status may leave them empty).
 */
import { type FieldError, type FieldPath, invalid } from '../../apimachinery/field-errors.js';
import { isDNS1035Label } from '../../apimachinery/validation/names.js';
import type { CustomResourceDefinitionNames } from '../types.js';

const MIXED_CASE = 'may have mixed case, but should otherwise match: ';
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);

/** The errors of one names struct at `fldPath` (absent or non-object names count as empty). */
export function validateNames(names: CustomResourceDefinitionNames | undefined, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const plural = str(names?.plural);
  const singular = str(names?.singular);
  const kind = str(names?.kind);
  const listKind = str(names?.listKind);
  const label = (path: FieldPath, value: string, prefix = '', check = value) => {
    const msgs = isDNS1035Label(check);
    if (value.length > 0 && msgs.length > 0) errs.push(invalid(path, value, prefix + msgs.join(',')));
  };
  label(fldPath.child('plural'), plural);
  label(fldPath.child('singular'), singular);
  label(fldPath.child('kind'), kind, MIXED_CASE, kind.toLowerCase());
  label(fldPath.child('listKind'), listKind, MIXED_CASE, listKind.toLowerCase());
  strings(names?.shortNames).forEach((s, i) => {
    const msgs = isDNS1035Label(s);
    if (msgs.length > 0) errs.push(invalid(fldPath.child('shortNames').index(i), s, msgs.join(',')));
  });
  if (kind.length > 0 && kind === listKind) errs.push(invalid(fldPath.child('listKind'), listKind, 'kind and listKind may not be the same'));
  strings(names?.categories).forEach((c, i) => {
    const msgs = isDNS1035Label(c);
    if (msgs.length > 0) errs.push(invalid(fldPath.child('categories').index(i), c, msgs.join(',')));
  });
  return errs;
}
