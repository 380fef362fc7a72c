/**
 * `selectableFields` of a CustomResourceDefinition version (upstream v1.30
 * `ValidateCustomResourceSelectableFields`): each `jsonPath` is a field path through the
 * schema's properties (`.spec.color`, `.spec['a.b']`; upstream's CEL `ValidFieldPath`, with its
 * messages), not into metadata, ending at a string, boolean or integer field; no duplicates;
 * at most 8.
 */
import { duplicate, type FieldError, type FieldPath, invalid, required, tooMany } from '../../apimachinery/field-errors.js';
import type { JSONSchemaProps, SelectableField } from '../types.js';

/** The most selectable fields a version may have (upstream `MaxSelectableFields`). */
const MAX_SELECTABLE_FIELDS = 8;
const SELECTABLE_TYPES = ['string', 'boolean', 'integer'];

type Resolved = { segments: string[]; schema: JSONSchemaProps | undefined } | { error: string };

const isObject = (v: unknown): v is JSONSchemaProps => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Splits a path into `.`, `[`, `]` and the text between them; a single-quoted string is one token. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i]!;
    if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      out.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < path.length && !'.[]'.includes(path[j]!)) j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

/** Follows one step from `schema`: a property, or any key of a map (`additionalProperties`). */
function step(schema: JSONSchemaProps | undefined, name: string): JSONSchemaProps | undefined | null {
  if (schema?.properties && isObject(schema.properties)) return isObject(schema.properties[name]) ? schema.properties[name]! : null;
  const ap = schema?.additionalProperties;
  if (ap !== undefined && ap !== false) return isObject(ap) ? ap : undefined;
  return null;
}

/** Resolves `path` against `root` as upstream's `ValidFieldPath` does; the segments print the path. */
function resolve(path: string, root: JSONSchemaProps): Resolved {
  const ts = tokens(path);
  let schema: JSONSchemaProps | undefined = root;
  const segments: string[] = [];
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    let name: string;
    if (t === '.') {
      if (i + 1 >= ts.length) return { error: 'unexpected end of JSON path' };
      name = ts[++i]!;
    } else if (t === '[') {
      if (i + 1 >= ts.length) return { error: 'unexpected end of JSON path' };
      const q = ts[++i]!;
      if (q.length < 2 || q[0] !== "'" || q[q.length - 1] !== "'") return { error: `expected single quoted string but got ${q}` };
      name = q.slice(1, -1).replace(/\\(.)/g, '$1');
      if (i + 1 >= ts.length) return { error: 'unexpected end of JSON path' };
      if (ts[++i] !== ']') return { error: `expected ] but got ${ts[i]}` };
    } else return { error: `expected [ or . but got: ${t}` };
    const next = step(schema, name);
    if (next === null) return { error: 'does not refer to a valid field' };
    segments.push(name);
    schema = next;
  }
  return { segments, schema };
}

/** The errors of `fields` at `fldPath` (`…selectableFields`) against the version's schema `root`. */
export function validateSelectableFields(fields: SelectableField[], root: JSONSchemaProps, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const path = fldPath.index(i).child('jsonPath');
    const jsonPath = typeof f?.jsonPath === 'string' ? f.jsonPath : '';
    if (jsonPath.length === 0) {
      errs.push(required(path));
      return;
    }
    const r = resolve(jsonPath, root);
    if ('error' in r) {
      errs.push(invalid(path, jsonPath, `is an invalid path: ${r.error}`));
      return;
    }
    if (r.segments[0] === 'metadata') errs.push(invalid(path, jsonPath, 'must not point to fields in metadata'));
    if (!SELECTABLE_TYPES.includes(r.schema?.type ?? '')) {
      errs.push(invalid(path, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    const key = r.segments.join('\u0000');
    if (unique.has(key)) errs.push(duplicate(path, jsonPath));
    else unique.add(key);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(tooMany(fldPath, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}
