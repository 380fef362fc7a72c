/**
 * Equality of runtime values and the `+` of lists, with the list semantics of spec 000
 * § Expression language (CEL) in fields: lists of type `set` or `map` compare equal irrespective
 * of order; `+` on a `set` is a union keeping the left positions and appending new right
 * elements; on a `map` a merge where right values overwrite matching keys and new keys append.
 * As upstream, the LEFT operand's list type decides.
 */

import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { deepEqual } from '../apimachinery/deep-equal.js';
import { Quantity } from '../apimachinery/quantity.js';
import { CelObject, listSemanticsOf, numericValue, withListSemantics, type ListSemantics } from './values.js';

/** A library value that defines its own equality (e.g. URLs). */
export interface Equatable {
  isEqualTo(other: unknown): boolean;
}

function isEquatable(v: object): v is Equatable {
  return typeof (v as Partial<Equatable>).isEqualTo === 'function';
}

function numbersEqual(a: bigint | number, b: bigint | number): boolean {
  if (typeof a === typeof b) return a === b;
  const n = (typeof a === 'number' ? a : b) as number;
  const i = (typeof a === 'bigint' ? a : b) as bigint;
  return Number.isInteger(n) && BigInt(n) === i;
}

function entriesOf(v: unknown): Map<unknown, unknown> | undefined {
  if (v instanceof Map) return v;
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) return new Map(Object.entries(v));
  }
  return undefined;
}

/** A hashable key for a scalar element (set elements and list-map keys are scalars). */
function scalarKey(v: unknown): string {
  if (v instanceof UnsignedInt) return `uint:${v.valueOf()}`;
  return `${typeof v}:${String(v)}`;
}

function mapListKey(element: unknown, keys: readonly string[]): string {
  const get = (k: string): unknown => (element instanceof Map ? element.get(k) : (element as Record<string, unknown> | null)?.[k]);
  return keys.map((k) => scalarKey(get(k))).join('\u0000');
}

function listsEqual(a: unknown[], b: unknown[], semantics: ListSemantics | undefined): boolean {
  if (a.length !== b.length) return false;
  if (semantics?.listType === 'set') {
    const keys = new Set(a.map(scalarKey));
    return b.every((e) => keys.has(scalarKey(e)));
  }
  if (semantics?.listType === 'map') {
    const byKey = new Map(a.map((e) => [mapListKey(e, semantics.mapKeys), e]));
    return b.every((e) => {
      const k = mapListKey(e, semantics.mapKeys);
      return byKey.has(k) && celEquals(byKey.get(k), e);
    });
  }
  for (let i = 0; i < a.length; i++) if (!celEquals(a[i], b[i])) return false;
  return true;
}

function mapsEqual(a: Map<unknown, unknown>, b: Map<unknown, unknown>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    if (!b.has(k) || !celEquals(v, b.get(k))) return false;
  }
  return true;
}

function unknownFieldsEqual(a: CelObject, b: CelObject): boolean {
  const ua = a.unknownFields ?? {};
  const ub = b.unknownFields ?? {};
  for (const k of Object.keys(ua)) {
    if (Object.hasOwn(ub, k) && !deepEqual(ua[k], ub[k])) return false;
  }
  return true;
}

/**
 * Expression-language equality: numbers compare across int, uint and double by value; NaN is
 * unequal to everything; lists compare by position unless the left one is a `set` / `map` list;
 * maps and objects compare by entries; values of different kinds are unequal.
 */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  const na = numericValue(a);
  const nb = numericValue(b);
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && numbersEqual(na, nb);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) return Array.isArray(b) && listsEqual(a, b, listSemanticsOf(a));
  if (a instanceof Uint8Array) return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof Duration) return b instanceof Duration && a.seconds === b.seconds && a.nanos === b.nanos;
  if (a instanceof Quantity) return b instanceof Quantity && a.equals(b);
  if (isEquatable(a)) return a.isEqualTo(b);
  if (a instanceof Optional) {
    if (!(b instanceof Optional)) return false;
    return a.hasValue() ? b.hasValue() && celEquals(a.value(), b.value()) : !b.hasValue();
  }
  if (a instanceof CelObject) {
    return b instanceof CelObject && a.constructor === b.constructor && mapsEqual(a, b) && unknownFieldsEqual(a, b);
  }
  const ma = entriesOf(a);
  const mb = entriesOf(b);
  if (ma && mb && !(b instanceof CelObject)) return mapsEqual(ma, mb);
  return false;
}

/**
 * `left + right` for lists: a union for a `set` list, a merge by key for a `map` list, plain
 * concatenation otherwise. The result keeps the left operand's semantics.
 */
export function concatLists(left: unknown[], right: unknown[]): unknown[] {
  const semantics = listSemanticsOf(left);
  if (semantics?.listType === 'set') {
    const seen = new Set(left.map(scalarKey));
    const out = [...left];
    for (const e of right) {
      const k = scalarKey(e);
      if (!seen.has(k)) {
        seen.add(k);
        out.push(e);
      }
    }
    return withListSemantics(out, semantics);
  }
  if (semantics?.listType === 'map') {
    const out = [...left];
    const index = new Map(left.map((e, i) => [mapListKey(e, semantics.mapKeys), i]));
    for (const e of right) {
      const k = mapListKey(e, semantics.mapKeys);
      const at = index.get(k);
      if (at === undefined) {
        index.set(k, out.length);
        out.push(e);
      } else {
        out[at] = e;
      }
    }
    return withListSemantics(out, semantics);
  }
  return [...left, ...right];
}
