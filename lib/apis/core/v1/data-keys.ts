/**
 * Key and size rules shared by ConfigMap and Secret data maps, and the `immutable` rule
 * (upstream core validation).
 */
import { type FieldError, FieldPath, forbidden, invalid, tooLong } from '../../../apimachinery/field-errors.js';
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import { isConfigMapKey } from '../../../apimachinery/validation/formats.js';
import type { Obj } from '../../define.js';

/** Maximum total size of a ConfigMap's or Secret's data (1 MiB). */
export const MAX_DATA_SIZE = 1024 * 1024;

/** Checks data keys (upstream `IsConfigMapKey`) and the total size. */
export function validateConfigMapKeys(data: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!data || typeof data !== 'object') return errs;
  let total = 0;
  for (const [k, v] of Object.entries(data as Obj)) {
    for (const m of isConfigMapKey(k)) errs.push(invalid(path, k, m));
    total += typeof v === 'string' ? Buffer.byteLength(v) : 0;
  }
  if (total > MAX_DATA_SIZE) errs.push(tooLong(path, '', MAX_DATA_SIZE));
  return errs;
}

/** Once `immutable: true` was stored, the data fields and the flag itself may not change. */
export function validateImmutableData(obj: Obj, old: Obj, fields: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  for (const f of fields) {
    if (!deepEqual(obj[f] ?? {}, old[f] ?? {}))
      errs.push(forbidden(FieldPath.of(f), 'field is immutable when `immutable` is set'));
  }
  if (obj.immutable !== true) errs.push(forbidden(FieldPath.of('immutable'), 'field is immutable when `immutable` is set'));
  return errs;
}
