/**
 * Correlation of old and new values for validation ratcheting (upstream v1.30
 * apiextensions apiserver/validation/ratcheting.go over apiserver cel/common CorrelatedObject;
 * CRDValidationRatcheting, on by default): a property or additionalProperties value correlates
 * by key when both objects have it; an item of an `x-<vendor>-list-type: map` list correlates
 * with the old item of the same map keys; items of other lists do not correlate. Equality
 * (CachedDeepEqual): objects compare key by key through correlated children (a key without a
 * schema makes them unequal), map lists item by item, other lists and scalars as plain values.
 */
import { deepEqual } from '../../apimachinery/deep-equal.js';
import type { JSONSchemaProps } from '../types.js';
import { compiled } from './compile.js';

/** One correlated (old, new) pair with its schema and the children correlated so far. */
export interface RatchetNode {
  readonly old: unknown;
  readonly value: unknown;
  readonly schema: JSONSchemaProps;
  readonly children: Map<string | number, RatchetNode>;
  /** The old map-list by key text, built on first use. */
  mapList?: Map<string, unknown>;
  equal?: boolean;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A root node correlating `old` with `value` under `schema`. */
export function ratchetNode(old: unknown, value: unknown, schema: JSONSchemaProps): RatchetNode {
  return { old, value, schema, children: new Map() };
}

/** The child node of property (or map key) `key`; undefined when it does not correlate. */
export function correlateKey(r: RatchetNode, key: string): RatchetNode | undefined {
  const hit = r.children.get(key);
  if (hit !== undefined) return hit;
  if (!isObject(r.old) || !isObject(r.value) || !Object.hasOwn(r.old, key) || !Object.hasOwn(r.value, key)) return undefined;
  const n = compiled(r.schema);
  const schema = n.properties.get(key) ?? n.additional;
  if (schema === undefined) return undefined;
  const child = ratchetNode(r.old[key], r.value[key], schema);
  r.children.set(key, child);
  return child;
}

function mapKeyText(item: Obj, keys: readonly string[], itemSchema: JSONSchemaProps): string {
  const props = compiled(itemSchema).properties;
  return JSON.stringify(keys.map((k) => (Object.hasOwn(item, k) ? item[k] : props.get(k)?.default) ?? null));
}

/** The child node of list index `i`; undefined when it does not correlate. */
export function correlateIndex(r: RatchetNode, i: number): RatchetNode | undefined {
  const hit = r.children.get(i);
  if (hit !== undefined) return hit;
  const n = compiled(r.schema);
  if (!Array.isArray(r.old) || !Array.isArray(r.value) || i >= r.value.length || n.items === undefined) return undefined;
  if (n.listType !== 'map') return undefined;
  if (r.mapList === undefined) {
    r.mapList = new Map();
    for (const item of r.old) if (isObject(item)) r.mapList.set(mapKeyText(item, n.listMapKeys, n.items), item);
  }
  const current = r.value[i];
  if (!isObject(current)) return undefined;
  const old = r.mapList.get(mapKeyText(current, n.listMapKeys, n.items));
  if (old === undefined) return undefined;
  const child = ratchetNode(old, current, n.items);
  r.children.set(i, child);
  return child;
}

function computeEqual(r: RatchetNode): boolean {
  const { old, value } = r;
  const oldMissing = old === null || old === undefined;
  const newMissing = value === null || value === undefined;
  if (oldMissing || newMissing) return oldMissing && newMissing;
  if (Array.isArray(old) !== Array.isArray(value) || isObject(old) !== isObject(value)) return false;
  if (Array.isArray(old) && Array.isArray(value)) {
    if (old.length !== value.length) return false;
    for (let i = 0; i < value.length; i++) {
      const c = correlateIndex(r, i);
      if (c === undefined) return r.mapList === undefined ? deepEqual(old, value) : false;
      if (!cachedDeepEqual(c)) return false;
    }
    return true;
  }
  if (isObject(old) && isObject(value)) {
    const keys = Object.keys(value);
    if (Object.keys(old).length !== keys.length) return false;
    for (const k of keys) {
      const c = correlateKey(r, k);
      if (c === undefined || !cachedDeepEqual(c)) return false;
    }
    return true;
  }
  return old === value;
}

/** Whether the node's new value equals its old one, as upstream CachedDeepEqual decides (cached). */
export function cachedDeepEqual(r: RatchetNode): boolean {
  r.equal ??= computeEqual(r);
  return r.equal;
}
