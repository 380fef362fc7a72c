/**
 * The checks upstream's ObjectMeta coercion makes of embedded resources before validating them
 * (apiextensions schema/objectmeta coerce.go Coerce without dropping invalid fields):
 * `apiVersion` and `kind` must be strings and `metadata` must decode into ObjectMeta; the first
 * failure is returned, worded as Go's JSON decoder words it
 * (`json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`).
 */
import { type FieldError, invalid } from '../../apimachinery/field-errors.js';
import type { JSONSchemaProps } from '../types.js';
import { compiled } from './compile.js';
import { goBadValue } from './messages.js';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const STRING_FIELDS = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp'];
const INT_FIELDS = ['generation', 'deletionGracePeriodSeconds'];
const MAP_FIELDS = ['labels', 'annotations'];

function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

const fieldErr = (v: unknown, field: string, goType: string): string =>
  `json: cannot unmarshal ${jsonKind(v)} into Go struct field ObjectMeta.${field} of type ${goType}`;

/** Why `meta` does not decode into ObjectMeta; undefined when it does. */
function objectMetaDecodeError(meta: unknown): string | undefined {
  if (meta === null) return undefined;
  if (!isObject(meta)) return `json: cannot unmarshal ${jsonKind(meta)} into Go value of type v1.ObjectMeta`;
  for (const f of STRING_FIELDS) if (meta[f] !== undefined && meta[f] !== null && typeof meta[f] !== 'string') return fieldErr(meta[f], f, 'string');
  for (const f of INT_FIELDS) {
    const v = meta[f];
    if (v !== undefined && v !== null && !(typeof v === 'number' && Number.isInteger(v))) return fieldErr(v, f, 'int64');
  }
  for (const f of MAP_FIELDS) {
    const v = meta[f];
    if (v === undefined || v === null) continue;
    if (!isObject(v)) return fieldErr(v, f, 'map[string]string');
    for (const x of Object.values(v)) if (x !== null && typeof x !== 'string') return fieldErr(x, f, 'string');
  }
  const fin = meta.finalizers;
  if (fin !== undefined && fin !== null) {
    if (!Array.isArray(fin)) return fieldErr(fin, 'finalizers', '[]string');
    for (const x of fin) if (x !== null && typeof x !== 'string') return fieldErr(x, 'finalizers', 'string');
  }
  return undefined;
}

function coerceAt(path: string, x: unknown, s: JSONSchemaProps | undefined, embedded: boolean): FieldError | undefined {
  if (s === undefined) return undefined;
  const n = compiled(s);
  const at = (k: string): string => (path === '' ? k : `${path}.${k}`);
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const e = coerceAt(`${path}[${i}]`, x[i], n.items, n.items !== undefined && compiled(n.items).embedded);
      if (e) return e;
    }
    return undefined;
  }
  if (!isObject(x)) return undefined;
  for (const [k, v] of Object.entries(x)) {
    if (embedded) {
      if ((k === 'apiVersion' || k === 'kind') && typeof v !== 'string') return invalid(at(k), goBadValue(v), 'must be a string');
      if (k === 'metadata') {
        const err = objectMetaDecodeError(v);
        if (err !== undefined) return invalid(at(k), goBadValue(v), err);
      }
    }
    const prop = n.properties.get(k);
    const sub = prop ?? n.additional;
    if (sub === undefined) continue;
    const e = coerceAt(prop !== undefined ? at(k) : `${path}[${k}]`, v, sub, compiled(sub).embedded);
    if (e) return e;
  }
  return undefined;
}

/**
 * The first coercion failure of `value` under `schema` (paths below `prefix`), treating the
 * top as a resource when `isResourceRoot`; undefined when the value coerces.
 */
export function coerceError(prefix: string, value: unknown, schema: JSONSchemaProps, isResourceRoot: boolean): FieldError | undefined {
  return coerceAt(prefix, value, schema, isResourceRoot || compiled(schema).embedded);
}
