/**
 * Path elements of field sets (spec 000 § Managed-field entry): the four kinds upstream's
 * structured-merge-diff uses, their total order, their `fieldsV1` spelling (`f:name`,
 * `k:{"name":"x"}`, `v:"a"`, `i:0`) and the human-readable path printed in conflict messages
 * (`.spec.containers[name="nginx"].image`).
 */
import { goQuote } from '../go-quote.js';
import { goJSON } from '../serializers/go-json.js';
import { goJSONSyntaxError } from '../serializers/go-json-errors.js';

/** A JSON value as decoded by JSON.parse. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * One step of a field path:
 * - `field`: a struct field or a granular map key (`f:`);
 * - `key`: an entry of a map-list, by its key fields sorted by name (`k:`);
 * - `value`: an entry of a set-list, by its scalar value (`v:`);
 * - `index`: a position in a list without keys (`i:`).
 *
 * `id` is the serialized form; two elements are equal exactly when their ids are equal.
 */
export type PathElement =
  | { readonly kind: 'field'; readonly name: string; readonly id: string }
  | { readonly kind: 'key'; readonly fields: ReadonlyArray<readonly [string, Json]>; readonly id: string }
  | { readonly kind: 'value'; readonly value: Json; readonly id: string }
  | { readonly kind: 'index'; readonly index: number; readonly id: string };

/** A path from the object root; the empty path (the whole object) is never owned. */
export type Path = readonly PathElement[];

/** `f:<name>`. */
export function fieldElement(name: string): PathElement {
  return { kind: 'field', name, id: `f:${name}` };
}

/** `k:{...}`; `fields` are sorted by name here, as upstream keys are. */
export function keyElement(fields: ReadonlyArray<readonly [string, Json]>): PathElement {
  const sorted = [...fields].sort((a, b) => compareStrings(a[0], b[0]));
  return { kind: 'key', fields: sorted, id: `k:{${sorted.map(([n, v]) => `${goJSON(n)}:${goJSON(v)}`).join(',')}}` };
}

/** `v:<json>`. */
export function valueElement(value: Json): PathElement {
  return { kind: 'value', value, id: `v:${goJSON(value)}` };
}

/** `i:<n>`. */
export function indexElement(index: number): PathElement {
  return { kind: 'index', index, id: `i:${index}` };
}

/** Error reading a `fieldsV1` key; upstream reports it while decoding managed fields. */
export class PathElementError extends Error {}

/**
 * Parses a serialized element (`f:`, `k:`, `v:`, `i:`). Returns undefined for an unknown prefix
 * (upstream drops such keys); throws PathElementError on a malformed element.
 */
export function parsePathElement(s: string): PathElement | undefined {
  if (s.length < 2) throw new PathElementError('key must be 2 characters long:');
  if (s[1] !== ':') throw new PathElementError(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return fieldElement(body);
    case 'v':
      return valueElement(parseJson(body));
    case 'k': {
      const obj = parseJson(body);
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new PathElementError(`key is not a JSON object: ${s}`);
      return keyElement(Object.entries(obj));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(body)) throw new PathElementError(`strconv.Atoi: parsing ${goQuote(body)}: invalid syntax`);
      return indexElement(Number(body));
    }
    default:
      return undefined;
  }
}

function parseJson(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new PathElementError(goJSONSyntaxError(text) ?? 'unexpected end of JSON input');
  }
}

const KIND_RANK = { field: 0, key: 1, value: 2, index: 3 } as const;

/** Upstream's total order of path elements: fields < keys < values < indexes, then by content. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_RANK[a.kind] - KIND_RANK[b.kind];
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeyFields(a.fields, (b as typeof a).fields);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index':
      return a.index - (b as typeof a).index;
  }
}

function compareKeyFields(a: ReadonlyArray<readonly [string, Json]>, b: ReadonlyArray<readonly [string, Json]>): number {
  for (let i = 0; ; i++) {
    if (i >= a.length || i >= b.length) return a.length - b.length;
    const c = compareStrings(a[i]![0], b[i]![0]) || compareValues(a[i]![1], b[i]![1]);
    if (c !== 0) return c;
  }
}

/** Byte-wise order of strings (Go's strings.Compare on ASCII). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function typeRank(v: Json): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  return v === null ? 5 : 4;
}

/** Upstream value order: numbers < strings < booleans < lists < maps < null. */
export function compareValues(a: Json, b: Json): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number') return a - (b as number);
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (typeof a === 'boolean') return Number(a) - Number(b as boolean);
  if (Array.isArray(a)) {
    const bl = b as Json[];
    for (let i = 0; i < a.length && i < bl.length; i++) {
      const c = compareValues(a[i]!, bl[i]!);
      if (c !== 0) return c;
    }
    return a.length - bl.length;
  }
  if (a === null) return 0;
  const ea = Object.entries(a).sort((x, y) => compareStrings(x[0], y[0]));
  const eb = Object.entries(b as Record<string, Json>).sort((x, y) => compareStrings(x[0], y[0]));
  return compareKeyFields(ea, eb);
}

/** The human-readable form of one element: `.name`, `[k="v",n=1]`, `[="v"]`, `[3]`. */
export function pathElementString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map(([n, v]) => `${n}=${valueString(v)}`).join(',')}]`;
    case 'value':
      return `[=${valueString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

/** The human-readable path printed in conflict messages: `.spec.containers[name="nginx"].image`. */
export function pathString(p: Path): string {
  return p.map(pathElementString).join('');
}

/** Upstream value.ToString: strings quoted, numbers and booleans bare, lists `[a,b]`. */
function valueString(v: Json): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(',')}]`;
  return Object.entries(v)
    .map(([k, x]) => `${k}=${valueString(x)}`)
    .join('');
}

