/**
 * The value of a selectable field of a custom resource (CustomResourceFieldSelectors, upstream
 * customresource strategy `selectableFields`): the JSONPath `{<jsonPath>}` with missing keys
 * allowed, its single value printed as Go's `fmt.Sprint` (strings as is, integers and booleans
 * as text), `""` when absent or null. Paths are compiled once and cached.
 */
import { evaluateJSONPath } from '../../apimachinery/jsonpath/evaluate.js';
import type { JSONPathTemplate } from '../../apimachinery/jsonpath/nodes.js';
import { parseJSONPath } from '../../apimachinery/jsonpath/parser.js';
import { goSprint } from '../../apimachinery/go-format.js';

/** Compiled paths by jsonPath text (`null` when it does not parse); cleared when it grows past the cap. */
const compiled = new Map<string, JSONPathTemplate | null>();
const CACHE_CAP = 1024;

function template(jsonPath: string): JSONPathTemplate | null {
  let t = compiled.get(jsonPath);
  if (t !== undefined) return t;
  try {
    t = parseJSONPath(`{${jsonPath}}`);
  } catch {
    t = null;
  }
  if (compiled.size >= CACHE_CAP) compiled.clear();
  compiled.set(jsonPath, t);
  return t;
}

/**
 * The field-selector value of `obj` at `jsonPath` (`.spec.color`): `"blue"`, `"3"`, `"true"`;
 * `""` when the path finds nothing or null. Undefined where upstream fails the request's
 * attribute extraction: the path does not parse, fails on the object, or finds more than one
 * value.
 */
export function selectableFieldValue(obj: unknown, jsonPath: string): string | undefined {
  const t = template(jsonPath);
  if (t === null) return undefined;
  let results: unknown[][];
  try {
    results = evaluateJSONPath(t, obj, { allowMissingKeys: true });
  } catch {
    return undefined;
  }
  const first = results[0];
  if (first === undefined || first.length === 0) return '';
  if (results.length > 1 || first.length > 1) return undefined;
  const value = first[0];
  return value === null || value === undefined ? '' : goSprint(value);
}
