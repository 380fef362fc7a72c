/**
 * CSIStorageCapacity validation with the upstream paths and messages (upstream storage
 * validation `ValidateCSIStorageCapacity` / `ValidateCSIStorageCapacityUpdate` of v1.30). An
 * absent `storageClassName` is the declarative walk's `Required value`.
 */
import { type FieldError, FieldPath, invalid } from '../../../apimachinery/field-errors.js';
import type { LabelSelectorObject } from '../../../apimachinery/labels/selector.js';
import { validateLabelSelectorObject } from '../../../apimachinery/labels/validation.js';
import { validateClassName } from '../../core/v1/persistent-volume-validation.js';
import { parseQuantity } from '../../core/v1/resources-validation.js';
import { obj, str, type Obj } from '../../core/v1/obj-access.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';

const path = (name: string) => FieldPath.of(name);

/** Create and update: the topology selector, the class name (a DNS subdomain), a non-negative capacity. */
export function validateCSIStorageCapacity(c: Obj): FieldError[] {
  const errs = validateLabelSelectorObject(obj(c.nodeTopology) as LabelSelectorObject | undefined, path('nodeTopology'));
  const className = str(c.storageClassName);
  if (className !== '') errs.push(...validateClassName(className, path('storageClassName')));
  if (c.capacity !== undefined && c.capacity !== null) {
    const q = parseQuantity(c.capacity, path('capacity'));
    if ('type' in q) errs.push(q);
    else if (q.sign() < 0) errs.push(invalid(path('capacity'), q.toString(), 'must be greater than or equal to 0'));
  }
  return errs;
}

/** Update: `nodeTopology` and `storageClassName` are immutable. */
export function validateCSIStorageCapacityUpdate(c: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (!semanticEqual(c.nodeTopology, old.nodeTopology)) errs.push(invalid(path('nodeTopology'), c.nodeTopology ?? null, 'field is immutable'));
  if (str(c.storageClassName) !== str(old.storageClassName)) errs.push(invalid(path('storageClassName'), str(c.storageClassName), 'field is immutable'));
  return errs;
}
