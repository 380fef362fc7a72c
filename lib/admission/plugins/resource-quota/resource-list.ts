/**
 * Resource lists (resource name → Quantity) and the arithmetic quota needs on them (upstream
 * `k8s.io/apiserver/pkg/quota/v1` resources.go): add, subtract, mask, compare, print. Lists are
 * never mutated: every operation returns a new map. Spec 001 § Admission control (ResourceQuota).
 */
import { Quantity } from '../../../apimachinery/quantity.js';
import { obj } from '../../../apis/core/v1/obj-access.js';

/** Resource name → amount. */
export type ResourceList = ReadonlyMap<string, Quantity>;

const ZERO = Quantity.fromInt(0);

/** A quantity of `n` (DecimalSI). */
export const quantityOf = (n: number): Quantity => Quantity.fromInt(n);

/**
 * Reads a `{name: quantity}` object of an API object (status.hard, resources.requests…). Entries
 * whose value is not a valid quantity are skipped (stored objects were validated; bad input from
 * anywhere else must not throw).
 */
export function readResourceList(v: unknown): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  const o = obj(v);
  if (!o) return out;
  for (const [k, x] of Object.entries(o)) {
    if (typeof x === 'number' && Number.isFinite(x)) {
      if (Quantity.isQuantity(String(x))) out.set(k, Quantity.parse(String(x)));
    } else if (typeof x === 'string' && Quantity.isQuantity(x)) {
      out.set(k, Quantity.parse(x));
    }
  }
  return out;
}

/** The list as an API object `{name: canonical quantity}`, names sorted. */
export function resourceListObject(l: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...l.keys()].sort()) out[k] = l.get(k)!.toString();
  return out;
}

/** a + b, key by key (a key of one list only is copied). */
export function addLists(a: ResourceList, b: ResourceList): Map<string, Quantity> {
  const out = new Map(a);
  for (const [k, v] of b) {
    const x = out.get(k);
    out.set(k, x ? x.add(v) : v);
  }
  return out;
}

/** a - b with every result at least zero; keys of `b` only become zero (upstream `SubtractWithNonNegativeResult`). */
export function subtractNonNegative(a: ResourceList, b: ResourceList): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [k, v] of a) {
    const other = b.get(k);
    const d = other ? v.sub(other) : v;
    out.set(k, d.sign() > 0 ? d : ZERO);
  }
  for (const k of b.keys()) if (!out.has(k)) out.set(k, ZERO);
  return out;
}

/** The entries of `l` whose names are in `names`. */
export function maskList(l: ResourceList, names: Iterable<string>): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const k of names) {
    const v = l.get(k);
    if (v) out.set(k, v);
  }
  return out;
}

/** `l` without its zero entries. */
export function removeZeros(l: ResourceList): Map<string, Quantity> {
  return new Map([...l].filter(([, v]) => !v.isZero()));
}

/** The names whose amount is negative, sorted. */
export function negativeNames(l: ResourceList): string[] {
  return [...l].filter(([, v]) => v.sign() < 0).map(([k]) => k).sort();
}

/** Whether both lists have the same names with equal amounts (formats ignored). */
export function listsEqual(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (!w || !w.equals(v)) return false;
  }
  return true;
}

/** The names of `limits` that `usage` has a greater amount of (upstream `LessThanOrEqual`, failing side). */
export function exceededNames(usage: ResourceList, limits: ResourceList): string[] {
  const out: string[] = [];
  for (const [k, limit] of limits) {
    const v = usage.get(k);
    if (v && v.cmp(limit) > 0) out.push(k);
  }
  return out;
}

/** `a=1,b=2Gi`: names sorted, canonical quantities (upstream `prettyPrint`). */
export function prettyPrint(l: ResourceList): string {
  return [...l.keys()]
    .sort()
    .map((k) => `${k}=${l.get(k)!.toString()}`)
    .join(',');
}

/** Element-wise maximum: for each name, the larger amount (upstream `maxResourceList`). */
export function maxLists(a: ResourceList, b: ResourceList): Map<string, Quantity> {
  const out = new Map(a);
  for (const [k, v] of b) {
    const x = out.get(k);
    if (!x || v.cmp(x) > 0) out.set(k, v);
  }
  return out;
}
