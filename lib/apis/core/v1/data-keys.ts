/**
 * Key and size rules shared by ConfigMap and Secret data maps, and the `immutable` rule
 * (upstream core validation).
 */
import { type FieldError, FieldPath, forbidden, invalid, tooLong } from '../../../apimachinery/field-errors.js';
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import type { Obj } from '../../define.js';

/** Maximum total size of a ConfigMap's or Secret's data (1 MiB). */
export const MAX_DATA_SIZE = 1024 * 1024;

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

/**
 * The problems with one data key (upstream `IsConfigMapKey`): `[-._a-zA-Z0-9]+`, ≤ 253 characters,
 * not `.`, `..` or starting with `..`. Empty list = valid.
 */
export function configMapKeyErrors(k: string): string[] {
  const errs: string[] = [];
  if (k.length > 253) errs.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(k))
    errs.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
  if (k === '.') errs.push("must not be '.'");
  else if (k === '..') errs.push("must not be '..'");
  else if (k.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** Checks data keys (configMapKeyErrors) and the total size. */
export function validateConfigMapKeys(data: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!data || typeof data !== 'object') return errs;
  let total = 0;
  for (const [k, v] of Object.entries(data as Obj)) {
    for (const m of configMapKeyErrors(k)) errs.push(invalid(path, k, m));
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
