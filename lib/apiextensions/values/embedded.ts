/**
 * Validation of the `x-<vendor>-embedded-resource` objects inside a custom resource (upstream
 * apiextensions schema/objectmeta validation.go `Validate` with isResourceRoot=false):
 * `apiVersion` and `kind` are required strings (`kind` a DNS-1035 label ignoring case), and the
 * embedded `metadata` is checked as ObjectMeta with path-segment names (an absent name is
 * allowed), namespace only when set.
 */
import { type FieldError, type FieldPath, invalid, prefixErrors, required } from '../../apimachinery/field-errors.js';
import { isDNS1035Label } from '../../apimachinery/validation/names.js';
import { validateObjectMeta } from '../../apimachinery/validation/object-meta.js';
import type { JSONSchemaProps } from '../types.js';
import { compiled } from './compile.js';
import { goBadValue } from './messages.js';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const childPath = (path: string, name: string): string => (path === '' ? name : `${path}.${name}`);

function validateEmbeddedResource(path: string, x: Obj): FieldError[] {
  const at = (name: string): string => childPath(path, name);
  const errs: FieldError[] = [];
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(required(at('apiVersion')));
  if (!Object.hasOwn(x, 'kind')) errs.push(required(at('kind')));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(at(k), goBadValue(v), 'must be a string'));
      else if (v === '') errs.push(invalid(at(k), v, 'must not be empty'));
      else if (v.split('/').length > 2) errs.push(invalid(at(k), v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(at(k), goBadValue(v), 'must be a string'));
      else if (v === '') errs.push(invalid(at(k), v, 'must not be empty'));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length > 0) errs.push(invalid(at(k), v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
      }
    } else if (k === 'metadata' && isObject(v)) {
      const meta: Obj = { ...v, name: typeof v.name === 'string' && v.name !== '' ? v.name : 'fakename' };
      const ns = typeof v.namespace === 'string' ? v.namespace : '';
      const metaErrs = validateObjectMeta(meta, ns !== '', 'pathSegment');
      errs.push(...(path === '' ? metaErrs : prefixErrors(path, metaErrs)));
    }
  }
  return errs;
}

function walk(path: string, x: unknown, s: JSONSchemaProps | undefined, out: FieldError[], resource = false): void {
  if (s === undefined) return;
  const n = compiled(s);
  if (Array.isArray(x)) {
    x.forEach((v, i) => walk(`${path}[${i}]`, v, n.items, out));
    return;
  }
  if (!isObject(x)) return;
  if (n.embedded || resource) out.push(...validateEmbeddedResource(path, x));
  for (const [k, v] of Object.entries(x)) {
    const prop = n.properties.get(k);
    if (prop !== undefined) walk(childPath(path, k), v, prop, out);
    else if (n.additional !== undefined) walk(`${path}[${k}]`, v, n.additional, out);
  }
}

/**
 * The errors of every embedded resource inside `value` (the root itself only when
 * `isResourceRoot` or its schema says it is embedded), in walk order, with paths such as
 * `spec.template.metadata.name` below `prefix`.
 */
export function validateEmbeddedResources(value: unknown, schema: JSONSchemaProps, prefix?: FieldPath, isResourceRoot = false): FieldError[] {
  const out: FieldError[] = [];
  walk(prefix?.toString() ?? '', value, schema, out, isResourceRoot);
  return out;
}
