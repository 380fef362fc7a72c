/**
 * The CustomResourceDefinition-write checks of every `default` in a structural schema
 * (upstream apiextensions schema/defaulting validation.go ValidateDefaults with pruned defaults
 * required, as for apiextensions v1): a default must survive pruning unchanged, its embedded
 * resources must coerce and validate, and it must pass the OpenAPI validation of its own node;
 * a default inside an embedded resource's `apiVersion`, `kind` or `metadata` is checked inside a
 * surrounding object (`apiVersion: validation/v1`, `kind: Validation`) and must result in valid
 * metadata. The `x-<vendor>-validations` rules of defaults are checked elsewhere.
 */
import { deepCopy, deepEqual } from '../../apimachinery/deep-equal.js';
import { type FieldError, type FieldPath, fieldErrorString, invalid } from '../../apimachinery/field-errors.js';
import type { JSONSchemaProps } from '../types.js';
import { compiled } from './compile.js';
import { validateEmbeddedResources } from './embedded.js';
import { goBadValue } from './messages.js';
import { coerceError } from './meta-decode.js';
import { toFieldErrors } from './openapi-errors.js';
import { openAPIErrors } from './openapi-validate.js';
import { pruneStructural } from './prune.js';

/** One step from an embedded resource's root down to a node: a property name, or a list item. */
type Step = string | { index: true };

/** Places `value` at `steps` below a root object carrying the validation TypeMeta. */
function surround(steps: readonly Step[], value: unknown): Record<string, unknown> {
  let x: unknown = value;
  for (let i = steps.length - 1; i >= 0; i--) {
    const st = steps[i]!;
    x = typeof st === 'string' ? { [st]: x } : [x];
  }
  const obj = (x !== null && typeof x === 'object' && !Array.isArray(x) ? x : {}) as Record<string, unknown>;
  if (!Object.hasOwn(obj, 'kind')) obj.kind = 'Validation';
  if (!Object.hasOwn(obj, 'apiVersion')) obj.apiVersion = 'validation/v1';
  return obj;
}

/** Go's aggregate error text: one message as is, several (deduplicated) in brackets. */
function aggregate(errs: readonly FieldError[]): string {
  const msgs = [...new Set(errs.map(fieldErrorString))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}

interface Ctx {
  root: JSONSchemaProps;
  rootIsResource: boolean;
  steps: readonly Step[];
  insideMeta: boolean;
}

function checkDefault(s: JSONSchemaProps, path: FieldPath, ctx: Ctx, out: FieldError[]): void {
  const def = s.default;
  const defPath = path.child('default');
  const embedded = ctx.root === s && ctx.rootIsResource;
  if (ctx.insideMeta) {
    const obj = surround(ctx.steps, deepCopy(def));
    const coerce = coerceError('', obj, ctx.root, true);
    if (coerce !== undefined) {
      out.push(invalid(defPath, goBadValue(def), `must result in valid metadata: ${fieldErrorString(coerce)}`));
      return;
    }
    const metaErrs = validateEmbeddedResources(obj, ctx.root, undefined, true);
    if (metaErrs.length > 0) {
      out.push(invalid(defPath, goBadValue(def), `must result in valid metadata: ${aggregate(metaErrs)}`));
      return;
    }
    out.push(...toFieldErrors(openAPIErrors(def, s), defPath));
    return;
  }
  const pruned = deepCopy(def);
  pruneStructural(pruned, s, embedded);
  if (!deepEqual(pruned, def)) out.push(invalid(defPath, goBadValue(def), 'must not have unknown fields'));
  const coerce = coerceError(defPath.toString(), def, s, embedded);
  if (coerce !== undefined) {
    out.push(coerce);
    return;
  }
  const metaErrs = validateEmbeddedResources(def, s, defPath, embedded);
  if (metaErrs.length > 0) {
    out.push(...metaErrs);
    return;
  }
  out.push(...toFieldErrors(openAPIErrors(def, s), defPath));
}

function walk(s: JSONSchemaProps | undefined, path: FieldPath, ctx: Ctx, out: FieldError[]): void {
  if (s === undefined) return;
  const n = compiled(s);
  const resource = n.embedded || (ctx.root === s && ctx.rootIsResource);
  const here: Ctx = n.embedded ? { root: s, rootIsResource: true, steps: [], insideMeta: false } : ctx;
  if (s.default !== undefined && s.default !== null) checkDefault(s, path, here, out);
  walk(n.items, path.child('items'), { ...here, steps: [...here.steps, { index: true }] }, out);
  for (const [k, prop] of n.properties) {
    const insideMeta = here.insideMeta || (resource && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    walk(prop, path.child('properties').key(k), { ...here, steps: [...here.steps, k], insideMeta }, out);
  }
  if (n.additional !== undefined) walk(n.additional, path.child('additionalProperties'), { ...here, steps: [...here.steps, '*'] }, out);
}

/**
 * Checks every `default` of a structural schema at CRD write time; `fldPath` is the schema's
 * path (`spec.versions[0].schema.openAPIV3Schema`), errors are reported under
 * `<node path>.default`, e.g. `….properties[spec].properties[a].default: Invalid value:
 * map[string]interface {}{"x":1}: must not have unknown fields` or `….default: Invalid value:
 * "string": in body must be of type integer: "string"`. `isResourceRoot` treats the top as a
 * resource (its apiVersion, kind and metadata defaults are checked as metadata). Never throws.
 */
export function validateSchemaDefaults(schema: JSONSchemaProps, fldPath: FieldPath, opts: { isResourceRoot: boolean }): FieldError[] {
  const out: FieldError[] = [];
  walk(schema, fldPath, { root: schema, rootIsResource: opts.isResourceRoot, steps: [], insideMeta: false }, out);
  return out;
}
