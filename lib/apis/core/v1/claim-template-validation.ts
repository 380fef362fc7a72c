/**
 * Validation of the PersistentVolumeClaim template of an ephemeral volume (upstream
 * `ValidatePersistentVolumeClaimTemplate`): template metadata limited to labels and annotations,
 * access modes, selector, a positive storage request and the storage class name.
 */
import { type FieldError, type FieldPath, forbidden, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { validateLabelSelectorObject } from '../../../apimachinery/labels/validation.js';
import { Quantity } from '../../../apimachinery/quantity.js';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { validateAnnotations, validateLabels } from '../../../apimachinery/validation/object-meta.js';
import { list, obj, str, type Obj } from './obj-access.js';
import { parseQuantity, validateResourceQuantity } from './resources-validation.js';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

/** Metadata of an embedded template: only labels and annotations may be set. */
export function validateTemplateMetadata(meta: unknown, path: FieldPath): FieldError[] {
  const m = obj(meta) ?? {};
  const errs = [...validateAnnotations(m.annotations, path.child('annotations')), ...validateLabels(m.labels, path.child('labels'))];
  for (const k of Object.keys(m)) if (k !== 'labels' && k !== 'annotations') errs.push(forbidden(path.child(k), 'cannot be set'));
  return errs;
}

function validateClaimSpec(spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const modes = list(spec.accessModes).map(str);
  if (modes.length === 0) errs.push(required(path.child('accessModes'), 'at least 1 access mode is required'));
  errs.push(...validateLabelSelectorObject(obj(spec.selector) as never, path.child('selector')));
  for (const m of modes) if (!ACCESS_MODES.includes(m)) errs.push(notSupported(path.child('accessModes'), m, ACCESS_MODES));
  if (modes.includes('ReadWriteOncePod') && modes.some((m) => m !== 'ReadWriteOncePod' && ACCESS_MODES.includes(m)))
    errs.push(forbidden(path.child('accessModes'), 'may not use ReadWriteOncePod with other access modes'));
  const storagePath = path.child('resources').key('storage');
  const storage = obj(obj(spec.resources)?.requests)?.storage;
  if (storage === undefined) errs.push(required(storagePath));
  else {
    const q = parseQuantity(storage, storagePath);
    if (!(q instanceof Quantity)) errs.push(q);
    else if (q.sign() <= 0) errs.push(invalid(storagePath, q.toString(), 'must be greater than zero'));
    else errs.push(...validateResourceQuantity('storage', q, storagePath));
  }
  const className = str(spec.storageClassName);
  if (className) errs.push(...isDNS1123Subdomain(className).map((m) => invalid(path.child('storageClassName'), className, m)));
  return errs;
}

/** Validates an ephemeral volume's `volumeClaimTemplate` at `path`. */
export function validateClaimTemplate(tmpl: Obj, path: FieldPath): FieldError[] {
  return [...validateTemplateMetadata(tmpl.metadata, path.child('metadata')), ...validateClaimSpec(obj(tmpl.spec) ?? {}, path.child('spec'))];
}
