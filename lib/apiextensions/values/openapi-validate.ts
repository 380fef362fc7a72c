/**
 * OpenAPI value validation of a custom resource, walking the value the way kube-openapi's
 * SchemaValidator does (validate/schema.go: per node the type, allOf/anyOf/oneOf/not, string,
 * format, number, array, enum and object checks, in that order), with the ratcheting of
 * unchanged values (upstream apiextensions apiserver/validation/ratcheting.go: a node whose
 * value deep-equals its correlated old value reports no errors).
 */
import { deepEqual } from '../../apimachinery/deep-equal.js';
import { goFloatString } from '../../apimachinery/go-format.js';
import type { JSONSchemaProps } from '../types.js';
import { type CompiledNode, compiled } from './compile.js';
import { jsonTypeOf } from './messages.js';
import { msg, type OpenAPIError } from './openapi-errors.js';
import { cachedDeepEqual, correlateIndex, correlateKey, type RatchetNode, ratchetNode } from './ratchet.js';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isJSONInteger = (v: number): boolean => Number.isInteger(v) && Math.abs(v) <= 2 ** 53;

function checkType(n: CompiledNode, data: unknown, path: string, out: OpenAPIError[]): void {
  if (n.types.length === 0 && n.format === '') return;
  if (data === null) {
    if (n.types.length > 0 && !n.types.includes('null') && !n.nullable) out.push(msg.type(path, n.typeText, 'null'));
    return;
  }
  const schType = jsonTypeOf(data);
  const valueFormat = schType === 'integer' ? 'int64' : schType === 'number' ? 'float64' : '';
  const stringOrSlice = schType === 'string' || schType === 'array';
  const numeric = n.types.includes('number') || n.types.includes('integer');
  const intFloat = schType === 'integer' && n.types.includes('number');
  if (!stringOrSlice && n.format !== '' && !(n.types.includes(schType) || valueFormat === n.format || intFloat)) {
    out.push(msg.type(path, n.format, valueFormat));
    return;
  }
  if (!numeric && n.format !== '' && stringOrSlice) return;
  if (!(n.types.includes(schType) || intFloat)) out.push(msg.type(path, n.typeText, schType));
}

function checkString(n: CompiledNode, s: string, path: string, out: OpenAPIError[]): void {
  const { maxLength, minLength } = n.schema;
  if (maxLength !== undefined || minLength !== undefined) {
    const len = [...s].length;
    if (maxLength !== undefined && len > maxLength) {
      out.push(msg.tooLong(path, maxLength));
      return;
    }
    if (minLength !== undefined && len < minLength) {
      out.push(msg.tooShort(path, minLength, s));
      return;
    }
  }
  if (n.pattern !== undefined && !n.pattern.test(s)) out.push(msg.pattern(path, n.patternText, s));
}

function checkNumber(n: CompiledNode, v: number, path: string, out: OpenAPIError[]): void {
  const { multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum } = n.schema;
  const int = Number.isInteger(v);
  const show = (bound: number): string => (int ? String(Math.trunc(bound)) : goFloatString(bound));
  if (multipleOf !== undefined) {
    if (int) {
      const f = Math.trunc(multipleOf);
      if (f <= 0) out.push(msg.multipleOfPositive(path, String(f), v));
      else if (v % f !== 0) out.push(msg.bound(path, v, `a multiple of ${f}`));
    } else if (multipleOf <= 0) {
      out.push(msg.multipleOfPositive(path, goFloatString(multipleOf), v));
    } else if (!isJSONInteger(multipleOf < 1 ? (1 / multipleOf) * v : v / multipleOf)) {
      out.push(msg.bound(path, v, `a multiple of ${goFloatString(multipleOf)}`));
    }
  }
  if (minimum !== undefined) {
    const min = int ? Math.trunc(minimum) : minimum;
    if (exclusiveMinimum === true ? v <= min : v < min) {
      out.push(msg.bound(path, v, `${exclusiveMinimum === true ? 'greater than' : 'greater than or equal to'} ${show(minimum)}`));
    }
  }
  if (maximum !== undefined) {
    const max = int ? Math.trunc(maximum) : maximum;
    if (exclusiveMaximum === true ? v >= max : v > max) {
      out.push(msg.bound(path, v, `${exclusiveMaximum === true ? 'less than' : 'less than or equal to'} ${show(maximum)}`));
    }
  }
}

function hasDuplicates(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) for (let j = 0; j < i; j++) if (deepEqual(list[i], list[j])) return true;
  return false;
}

/** Validates one child value, with ratcheting when it correlates to an old value. */
function validateChild(schema: JSONSchemaProps, data: unknown, path: string, r: RatchetNode | undefined, out: OpenAPIError[]): void {
  if (r === undefined) {
    validateNode(compiled(schema), data, path, undefined, out);
    return;
  }
  const errs: OpenAPIError[] = [];
  validateNode(compiled(schema), data, path, r, errs);
  if (errs.length > 0 && !cachedDeepEqual(r)) out.push(...errs);
}

function checkArray(n: CompiledNode, list: readonly unknown[], path: string, r: RatchetNode | undefined, out: OpenAPIError[]): void {
  if (n.items !== undefined) {
    for (let i = 0; i < list.length; i++) {
      const child = r === undefined ? undefined : correlateIndex(r, i);
      validateChild(n.items, list[i], `${path}[${i}]`, child, out);
    }
  }
  const { minItems, maxItems, uniqueItems } = n.schema;
  if (minItems !== undefined && list.length < minItems) out.push(msg.tooFewItems(path, minItems, list.length));
  if (maxItems !== undefined && list.length > maxItems) out.push(msg.tooManyItems(path, maxItems, list.length));
  if (uniqueItems === true && hasDuplicates(list)) out.push(msg.unique(path));
}

function checkObject(n: CompiledNode, obj: Obj, path: string, r: RatchetNode | undefined, out: OpenAPIError[]): void {
  const keys = Object.keys(obj);
  const { minProperties, maxProperties, required } = n.schema;
  if (minProperties !== undefined && keys.length < minProperties) out.push(msg.tooFewProperties(path, minProperties, keys.length));
  if (maxProperties !== undefined && keys.length > maxProperties) out.push(msg.tooManyProperties(path, maxProperties, keys.length));
  for (const k of keys) {
    if (n.properties.has(k)) continue;
    if (n.noAdditional) out.push(msg.notAllowed(path, k));
    else if (n.additional !== undefined) validateChild(n.additional, obj[k], `${path}.${k}`, r === undefined ? undefined : correlateKey(r, k), out);
  }
  for (const [name, prop] of n.properties) {
    if (!Object.hasOwn(obj, name)) continue;
    validateChild(prop, obj[name], path === '' ? name : `${path}.${name}`, r === undefined ? undefined : correlateKey(r, name), out);
  }
  if (required !== undefined) for (const k of required) if (!Object.hasOwn(obj, k)) out.push(msg.required(`${path}.${k}`));
}

function sub(schema: JSONSchemaProps, data: unknown, path: string, r: RatchetNode | undefined): OpenAPIError[] {
  const errs: OpenAPIError[] = [];
  validateNode(compiled(schema), data, path, r, errs);
  return errs;
}

function checkComposition(n: CompiledNode, data: unknown, path: string, r: RatchetNode | undefined, out: OpenAPIError[]): void {
  const { anyOf, oneOf, allOf, not } = n.schema;
  if (anyOf !== undefined && anyOf.length > 0) {
    let best: OpenAPIError[] | undefined;
    let ok = false;
    for (const s of anyOf) {
      const errs = sub(s, data, path, r);
      if (errs.length === 0) {
        ok = true;
        break;
      }
      if (best === undefined || errs.length < best.length) best = errs;
    }
    if (!ok) out.push(msg.anyOf(path), ...(best ?? []));
  }
  if (oneOf !== undefined && oneOf.length > 0) {
    let best: OpenAPIError[] | undefined;
    let valid = 0;
    for (const s of oneOf) {
      const errs = sub(s, data, path, r);
      if (errs.length === 0) {
        valid++;
        best = undefined;
      } else if (valid === 0 && (best === undefined || errs.length < best.length)) {
        best = errs;
      }
    }
    if (valid !== 1) out.push(msg.oneOf(path, valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`), ...(best ?? []));
  }
  if (allOf !== undefined && allOf.length > 0) {
    let valid = 0;
    for (const s of allOf) {
      const errs = sub(s, data, path, r);
      if (errs.length === 0) valid++;
      out.push(...errs);
    }
    if (valid !== allOf.length) out.push(msg.allOf(path, valid === 0 ? '. None validated' : ''));
  }
  if (not !== undefined && sub(not, data, path, r).length === 0) out.push(msg.not(path));
}

function checkEnum(n: CompiledNode, data: unknown, path: string, out: OpenAPIError[]): void {
  const values = n.schema.enum;
  if (values === undefined || values.length === 0) return;
  if (!values.some((e) => deepEqual(e, data))) out.push(msg.enum(path, data, values));
}

/** Validates `data` against one node, appending kube-openapi errors to `out`. */
function validateNode(n: CompiledNode, data: unknown, path: string, r: RatchetNode | undefined, out: OpenAPIError[]): void {
  if (data === null || data === undefined) {
    checkType(n, null, path, out);
    checkEnum(n, null, path, out);
    return;
  }
  checkType(n, data, path, out);
  checkComposition(n, data, path, r, out);
  if (typeof data === 'string') {
    checkString(n, data, path, out);
    if (n.formatCheck !== undefined && !n.formatCheck(data)) out.push(msg.format(path, n.format, data));
  } else if (typeof data === 'number') {
    checkNumber(n, data, path, out);
  } else if (Array.isArray(data)) {
    checkArray(n, data, path, r, out);
  }
  checkEnum(n, data, path, out);
  if (isObject(data)) checkObject(n, data, path, r, out);
}

/**
 * Runs kube-openapi's validation of `value` against `schema`; with `old` (an update with
 * CRDValidationRatcheting) errors of values equal to their correlated old values are dropped.
 * Returns the kube-openapi errors in upstream order.
 */
export function openAPIErrors(value: unknown, schema: JSONSchemaProps, old?: { value: unknown }): OpenAPIError[] {
  const out: OpenAPIError[] = [];
  validateChild(schema, value, '', old === undefined ? undefined : ratchetNode(old.value, value, schema), out);
  return out;
}
