/**
 * Extended string library. spec 000 § Expression language (CEL) in fields: `charAt`, `indexOf`,
 * `lastIndexOf`, `lowerAscii`, `upperAscii`, `replace`, `split`, `join`, `substring`, `trim`, with
 * the upstream (Go) semantics: indexes count code points, case mapping touches ASCII only, `trim`
 * strips Unicode white space, `split` / `replace` take an optional count as Go's SplitN / Replace.
 * Errors: `index out of range: <i>`, `invalid substring range. start: <s>, end: <e>`.
 */

import { GO_QUOTE_ESCAPES } from '../../apimachinery/go-quote.js';
import { LibraryError, PASS, codePoints, toIndex, type FunctionDecl, type FunctionOverride } from './common.js';

function outOfRange(i: bigint | number): LibraryError {
  return new LibraryError(`index out of range: ${i}`);
}

function charAt(s: string, index: bigint): string {
  const runes = codePoints(s);
  if (index < 0n || index > BigInt(runes.length)) throw outOfRange(index);
  return index === BigInt(runes.length) ? '' : runes[Number(index)]!;
}

function matchAt(runes: string[], sub: string[], i: number): boolean {
  for (let j = 0; j < sub.length; j++) if (runes[i + j] !== sub[j]) return false;
  return true;
}

function indexOf(s: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  const runes = codePoints(s);
  const subRunes = codePoints(sub);
  if (offset < 0n || offset >= BigInt(runes.length)) throw outOfRange(offset);
  for (let i = Number(offset); i < runes.length - (subRunes.length - 1); i++) {
    if (matchAt(runes, subRunes, i)) return BigInt(i);
  }
  return -1n;
}

function lastIndexOf(s: string, sub: string, offset: bigint | undefined): bigint {
  const runes = codePoints(s);
  if (sub === '') return offset ?? BigInt(runes.length);
  const subRunes = codePoints(sub);
  if (offset === undefined) {
    if (runes.length < subRunes.length) return -1n;
    offset = BigInt(runes.length - 1);
  }
  if (offset < 0n || offset >= BigInt(runes.length)) throw outOfRange(offset);
  let start = Math.min(Number(offset), runes.length - subRunes.length);
  for (; start >= 0; start--) if (matchAt(runes, subRunes, start)) return BigInt(start);
  return -1n;
}

function mapAscii(s: string, upper: boolean): string {
  return s.replace(upper ? /[a-z]+/g : /[A-Z]+/g, (m) => (upper ? m.toUpperCase() : m.toLowerCase()));
}

/** Go's unicode.IsSpace: the code points strings.TrimSpace strips. */
function isGoSpace(c: number): boolean {
  return (c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/**
 * Go strings.TrimSpace, by a scan from each end: a regular expression alternating a leading and a
 * trailing run of spaces tried the trailing run from every space inside the string, quadratic in
 * a long inner run (0.7 s for 40,000 spaces between two letters).
 */
function trimSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isGoSpace(s.charCodeAt(start))) start++;
  while (end > start && isGoSpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Go strings.Replace: n < 0 replaces all; an empty `old` matches around every code point. */
function replace(s: string, old: string, replacement: string, n: number): string {
  if (n === 0 || old === replacement) return s;
  if (old === '') {
    const runes = codePoints(s);
    let out = '';
    let done = 0;
    for (let i = 0; i <= runes.length; i++) {
      if (n < 0 || done < n) {
        out += replacement;
        done++;
      }
      if (i < runes.length) out += runes[i];
    }
    return out;
  }
  if (n < 0) return s.split(old).join(replacement);
  let out = '';
  let rest = s;
  for (let done = 0; done < n; done++) {
    const at = rest.indexOf(old);
    if (at < 0) break;
    out += rest.slice(0, at) + replacement;
    rest = rest.slice(at + old.length);
  }
  return out + rest;
}

/** Go strings.SplitN: n == 0 gives no parts, n < 0 all parts, an empty separator splits code points. */
function split(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  const parts = sep === '' ? codePoints(s) : s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

function substring(s: string, start: bigint, end?: bigint): string {
  const runes = codePoints(s);
  const len = BigInt(runes.length);
  if (end !== undefined && start > end) throw new LibraryError(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > len) throw outOfRange(start);
  if (end !== undefined && (end < 0n || end > len)) throw outOfRange(end);
  return runes.slice(Number(start), end === undefined ? undefined : Number(end)).join('');
}

function join(list: unknown[], sep: string): string {
  for (const e of list) if (typeof e !== 'string') throw new LibraryError('join: list must contain only strings');
  return (list as string[]).join(sep);
}

/**
 * `strings.quote(s)`: a double-quoted literal of `s` with Go's letter escapes; unlike Go's `%q`,
 * cel-go leaves other control and non-printable characters as they are (lone surrogates become U+FFFD).
 */
function quote(s: string): string {
  const sanitized = s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  return `"${Array.from(sanitized, (c) => GO_QUOTE_ESCAPES[c] ?? c).join('')}"`;
}

/** The receiver of `strings.quote`: a namespace value bound to the constant `strings`. */
export class StringsNamespace {}

/** Name of the namespace type of `strings.quote`. */
export const STRINGS_NAMESPACE_TYPE = 'StringsNamespace';

/** Functions the engine lacks. */
export const STRING_FUNCTIONS: readonly FunctionDecl[] = [
  { name: 'charAt', receiver: 'string', params: ['int'], result: 'string', handler: charAt },
  { name: 'replace', receiver: 'string', params: ['string', 'string'], result: 'string', handler: (s: string, a: string, b: string) => replace(s, a, b, -1) },
  {
    name: 'replace',
    receiver: 'string',
    params: ['string', 'string', 'int'],
    result: 'string',
    handler: (s: string, a: string, b: string, n: bigint) => replace(s, a, b, toIndex(n)),
  },
];

/** `strings.quote` (version 2 of the library, with `format`). */
export const QUOTE_FUNCTIONS: readonly FunctionDecl[] = [
  { name: 'quote', receiver: STRINGS_NAMESPACE_TYPE, params: ['string'], result: 'string', handler: (_ns: StringsNamespace, s: string) => quote(s) },
];

const str = (v: unknown): v is string => typeof v === 'string';
const int = (v: unknown): v is bigint => typeof v === 'bigint';

/** Built-ins replaced to follow the upstream semantics (code points, ASCII casing, Go spaces). */
export const STRING_OVERRIDES: readonly FunctionOverride[] = [
  { name: 'indexOf', member: true, arity: 1, apply: ([s, sub]) => (str(s) && str(sub) ? indexOf(s, sub, 0n) : PASS) },
  { name: 'indexOf', member: true, arity: 2, apply: ([s, sub, o]) => (str(s) && str(sub) && int(o) ? indexOf(s, sub, o) : PASS) },
  { name: 'lastIndexOf', member: true, arity: 1, apply: ([s, sub]) => (str(s) && str(sub) ? lastIndexOf(s, sub, undefined) : PASS) },
  {
    name: 'lastIndexOf',
    member: true,
    arity: 2,
    apply: ([s, sub, o]) => (str(s) && str(sub) && int(o) ? lastIndexOf(s, sub, o) : PASS),
  },
  { name: 'lowerAscii', member: true, arity: 0, apply: ([s]) => (str(s) ? mapAscii(s, false) : PASS) },
  { name: 'upperAscii', member: true, arity: 0, apply: ([s]) => (str(s) ? mapAscii(s, true) : PASS) },
  { name: 'trim', member: true, arity: 0, apply: ([s]) => (str(s) ? trimSpace(s) : PASS) },
  { name: 'substring', member: true, arity: 1, apply: ([s, a]) => (str(s) && int(a) ? substring(s, a) : PASS) },
  { name: 'substring', member: true, arity: 2, apply: ([s, a, b]) => (str(s) && int(a) && int(b) ? substring(s, a, b) : PASS) },
  { name: 'split', member: true, arity: 1, apply: ([s, sep]) => (str(s) && str(sep) ? split(s, sep, -1) : PASS) },
  { name: 'split', member: true, arity: 2, apply: ([s, sep, n]) => (str(s) && str(sep) && int(n) ? split(s, sep, toIndex(n)) : PASS) },
  { name: 'join', member: true, arity: 0, apply: ([l]) => (Array.isArray(l) ? join(l, '') : PASS) },
  { name: 'join', member: true, arity: 1, apply: ([l, sep]) => (Array.isArray(l) && str(sep) ? join(l, sep) : PASS) },
];
