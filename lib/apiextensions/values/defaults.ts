/**
 * Structural defaulting of a custom resource (upstream apiextensions schema/defaulting
 * algorithm.go `Default` and prunenulls.go `PruneNonNullableNullsWithoutDefaults`).
 */
import { deepCopy } from '../../apimachinery/deep-equal.js';
import type { JSONSchemaProps } from '../types.js';
import { compiled } from './compile.js';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const itemsOf = (s: JSONSchemaProps): JSONSchemaProps | undefined => (Array.isArray(s.items) ? undefined : s.items);
const additionalOf = (s: JSONSchemaProps): JSONSchemaProps | undefined =>
  typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
const hasDefault = (s: JSONSchemaProps | undefined): s is JSONSchemaProps & { default: unknown } =>
  s !== undefined && s.default !== undefined && s.default !== null;
const isNonNullableNull = (v: unknown, s: JSONSchemaProps | undefined): boolean => v === null && s !== undefined && s.nullable !== true;

function walkDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsOf(s);
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], items) && hasDefault(items)) x[i] = deepCopy(items.default);
      walkDefaults(x[i], items);
    }
    return;
  }
  if (!isObject(x)) return;
  const props = compiled(s).properties;
  for (const [k, prop] of props) {
    if (!hasDefault(prop)) continue;
    if (!Object.hasOwn(x, k) || isNonNullableNull(x[k], prop)) x[k] = deepCopy(prop.default);
  }
  const add = additionalOf(s);
  for (const k of Object.keys(x)) {
    const prop = props.get(k);
    if (prop !== undefined) {
      walkDefaults(x[k], prop);
    } else if (add !== undefined) {
      if (isNonNullableNull(x[k], add) && hasDefault(add)) x[k] = deepCopy(add.default);
      walkDefaults(x[k], add);
    }
  }
}

/**
 * Removes, in place, `null` values of object fields (properties and additionalProperties, not
 * list items) whose schema is neither nullable nor defaulted (upstream
 * PruneNonNullableNullsWithoutDefaults, run by the decoder right after pruning).
 */
export function pruneNonNullableNullsWithoutDefaults(x: unknown, s: JSONSchemaProps | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsOf(s);
    for (const v of x) pruneNonNullableNullsWithoutDefaults(v, items);
    return;
  }
  if (!isObject(x)) return;
  const add = additionalOf(s);
  for (const k of Object.keys(x)) {
    const sub = compiled(s).properties.get(k) ?? add;
    if (sub === undefined) continue;
    if (x[k] === null && sub.nullable !== true && !hasDefault(sub)) {
      delete x[k];
      continue;
    }
    pruneNonNullableNullsWithoutDefaults(x[k], sub);
  }
}

/**
 * Applies the schema's defaults to `obj` in place: an absent property, or a `null` one whose
 * schema is not nullable, gets a deep copy of its `default`, at every depth (inside items,
 * additionalProperties and embedded resources); afterwards `null`s of non-nullable fields
 * without a default are removed. Never throws.
 */
export function applyDefaults(obj: unknown, schema: JSONSchemaProps): void {
  walkDefaults(obj, schema);
  pruneNonNullableNullsWithoutDefaults(obj, schema);
}
