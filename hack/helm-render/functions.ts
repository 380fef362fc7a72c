/**
 * The template functions our chart uses: Go's builtins (and, or, not, eq…, len, index, print,
 * printf) and the Sprig/Helm ones (default, required, toYaml, indent, nindent, quote, trunc,
 * until, dict, list…), with the semantics of `helm template` v3 for the inputs the chart gives
 * them. `include` is the executor's (it needs the defined templates).
 */
import { stringify } from 'yaml';
import { TemplateError } from './parse.js';

/** A template value: what YAML values parse to. */
export type Value = unknown;
/** A template function; throws TemplateError (or Error) to abort rendering. */
export type TemplateFunction = (...args: Value[]) => Value;

/** Go template truth: false, 0, nil, and empty strings, lists and maps are false. */
export function truthy(v: Value): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** fmt.Sprint of one value (`%v`): nil prints as nothing (Helm drops `<no value>`). */
export function formatValue(v: Value): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return `[${v.map(formatValue).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, Value>;
    return `map[${Object.keys(o).sort().map((k) => `${k}:${formatValue(o[k])}`).join(' ')}]`;
  }
  return String(v);
}

/** Sorts map keys recursively, as sigs.k8s.io/yaml (via JSON) does for `toYaml`. */
function sortKeys(v: Value): Value {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, Value>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortKeys(o[k])]));
  }
  return v;
}

/** Go's `fmt.Sprintf` for the verbs %s, %d, %v, %q and %%. */
function sprintf(format: string, args: Value[]): string {
  let n = 0;
  return format.replace(/%([sdvq%])/g, (_, verb: string) => {
    if (verb === '%') return '%';
    if (n >= args.length) return `%!${verb}(MISSING)`;
    const a = args[n++];
    if (verb === 'q') return JSON.stringify(formatValue(a));
    if (verb === 'd') return typeof a === 'number' ? String(Math.trunc(a)) : `%!d(${formatValue(a)})`;
    return formatValue(a);
  });
}

/** Sprig's toInt: numbers truncate, numeric strings parse, anything else is 0. */
function toInt(v: Value): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Math.trunc(Number(v));
  if (typeof v === 'boolean') return v ? 1 : 0;
  return 0;
}

/** Go's reflect kind of a YAML value, as Sprig's kindOf names it. */
function kindOf(v: Value): string {
  if (v === null || v === undefined) return 'invalid';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

function indent(n: Value, s: Value): string {
  const pad = ' '.repeat(toInt(n));
  return pad + formatValue(s).split('\n').join(`\n${pad}`);
}

function compare(name: string, a: Value, b: Value): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new TemplateError(`error calling ${name}: incompatible types for comparison`);
}

/** The function table (name → implementation), `include` excluded. */
export const FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  and: (...a) => a.find((v) => !truthy(v)) ?? a[a.length - 1],
  or: (...a) => a.find(truthy) ?? a[a.length - 1],
  not: (v) => !truthy(v),
  eq: (a, ...bs) => bs.some((b) => a === b || (a == null && b == null)),
  ne: (a, b) => !(a === b || (a == null && b == null)),
  lt: (a, b) => compare('lt', a, b) < 0,
  le: (a, b) => compare('le', a, b) <= 0,
  gt: (a, b) => compare('gt', a, b) > 0,
  ge: (a, b) => compare('ge', a, b) >= 0,
  len: (v) => {
    if (typeof v === 'string' || Array.isArray(v)) return v.length;
    if (v !== null && typeof v === 'object') return Object.keys(v).length;
    throw new TemplateError(`error calling len: len of ${formatValue(v) || 'nil'}`);
  },
  index: (v, ...keys) => keys.reduce((acc: Value, k) => (acc == null ? undefined : (acc as Record<string, Value>)[String(k)]), v),
  print: (...a) => a.map((v, i) => (i > 0 && typeof v !== 'string' && typeof a[i - 1] !== 'string' ? ' ' : '') + formatValue(v)).join(''),
  printf: (format, ...a) => sprintf(String(format), a),
  default: (d, v) => (truthy(v) ? v : d),
  required: (msg, v) => {
    if (v === null || v === undefined || v === '') throw new TemplateError(`error calling required: ${formatValue(msg)}`);
    return v;
  },
  ternary: (a, b, cond) => (truthy(cond) ? a : b),
  toYaml: (v) => (v === undefined ? 'null' : stringify(sortKeys(v), { lineWidth: 0, indentSeq: false }).replace(/\n$/, '')),
  indent,
  nindent: (n, s) => `\n${indent(n, s)}`,
  quote: (...a) => a.filter((v) => v != null).map((v) => JSON.stringify(formatValue(v))).join(' '),
  toString: (v: Value) => formatValue(v),
  trunc: (n, s) => formatValue(s).slice(0, toInt(n)),
  trimSuffix: (suffix, s) => {
    const str = formatValue(s);
    const suf = formatValue(suffix);
    return suf && str.endsWith(suf) ? str.slice(0, -suf.length) : str;
  },
  replace: (from, to, s) => formatValue(s).split(formatValue(from)).join(formatValue(to)),
  upper: (s) => formatValue(s).toUpperCase(),
  contains: (sub, s) => formatValue(s).includes(formatValue(sub)),
  kindIs: (kind, v) => kindOf(v) === kind,
  int: toInt,
  add: (...a) => a.reduce((s: number, v) => s + toInt(v), 0),
  until: (n) => Array.from({ length: Math.max(0, toInt(n)) }, (_, i) => i),
  list: (...a) => a,
  append: (l, v) => [...(Array.isArray(l) ? l : []), v],
  dict: (...a) => {
    const out: Record<string, Value> = {};
    for (let i = 0; i < a.length; i += 2) out[formatValue(a[i])] = a[i + 1];
    return out;
  },
  join: (sep, l) => (Array.isArray(l) ? l.map(formatValue).join(formatValue(sep)) : formatValue(l)),
};
