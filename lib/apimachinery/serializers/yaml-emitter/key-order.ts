/**
 * Mapping keys as go-yaml v2 writes them: the order it sorts them in (sorter.go) and, since a key
 * is written the same wherever it stands, a cache of each simple key's text (emitterc.go's
 * yaml_emitter_check_simple_key decides which keys are simple).
 */
import { analyzeScalar, scan } from './scalar-style.js';

// sorter.go: keyList.Less for string keys, a "natural" order: letters after other characters,
// runs of digits compared as numbers.
const LETTER = /^\p{L}$/u;
const DIGIT = /^\p{Nd}$/u;

function isLetter(c: number): boolean {
  if (c < 0x80) return ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
  return LETTER.test(String.fromCodePoint(c));
}

function isDigit(c: number): boolean {
  if (c < 0x80) return c >= 0x30 && c <= 0x39;
  return c > 0xff && DIGIT.test(String.fromCodePoint(c));
}

type Runes = string | number[];

function runeAt(x: Runes, i: number): number {
  return typeof x === 'string' ? x.charCodeAt(i) : x[i];
}

/** A comparator for Array.prototype.sort: keyList.Less (sorter.go) on two string keys. */
export function compareKeys(a: string, b: string): number {
  return a === b ? 0 : runesLess(a, b) ? -1 : 1;
}

function isSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdfff;
}

/**
 * keyList.Less on runes. Strings are compared by UTF-16 unit while no surrogate is involved,
 * else again as arrays of code points.
 */
function runesLess(a: Runes, b: Runes): boolean {
  const al = a.length;
  const bl = b.length;
  const units = typeof a === 'string';
  for (let i = 0; i < al && i < bl; i++) {
    const ca = runeAt(a, i);
    const cb = runeAt(b, i);
    if (ca === cb) continue;
    if (units && (isSurrogate(ca) || isSurrogate(cb))) return runesLess(codePoints(a), codePoints(b as string));
    const aLetter = isLetter(ca);
    const bLetter = isLetter(cb);
    if (aLetter && bLetter) return ca < cb;
    if (aLetter || bLetter) return bLetter;
    let seed = 0;
    if (ca === 0x30 || cb === 0x30) {
      let j = i - 1;
      for (; j >= 0 && isDigit(runeAt(a, j)); j--) {
        if (runeAt(a, j) !== 0x30) {
          seed = 1;
          break;
        }
      }
      if (units && j >= 0 && isSurrogate(runeAt(a, j))) return runesLess(codePoints(a), codePoints(b as string));
    }
    let ai = i;
    while (ai < al && isDigit(runeAt(a, ai))) ai++;
    let bi = i;
    while (bi < bl && isDigit(runeAt(b, bi))) bi++;
    if (units && ((ai < al && isSurrogate(runeAt(a, ai))) || (bi < bl && isSurrogate(runeAt(b, bi))))) {
      return runesLess(codePoints(a), codePoints(b as string));
    }
    if (ai - i > 15 || bi - i > 15 || ca > 0x7f || cb > 0x7f) {
      const an = digitRunBig(a, i, ai, seed);
      const bn = digitRunBig(b, i, bi, seed);
      if (an !== bn) return an < bn;
    } else {
      const an = digitRun(a, i, ai, seed);
      const bn = digitRun(b, i, bi, seed);
      if (an !== bn) return an < bn;
    }
    if (ai !== bi) return ai < bi;
    return ca < cb;
  }
  return al < bl;
}

function codePoints(s: string): number[] {
  return Array.from(s, (ch) => ch.codePointAt(0)!);
}

function digitRun(x: Runes, from: number, to: number, seed: number): number {
  let n = seed;
  for (let k = from; k < to; k++) n = n * 10 + (runeAt(x, k) - 0x30);
  return n;
}

/** The same in int64 arithmetic, wrapping as Go's does. */
function digitRunBig(x: Runes, from: number, to: number, seed: number): bigint {
  let n = BigInt(seed);
  for (let k = from; k < to; k++) n = BigInt.asIntN(64, n * 10n + BigInt(runeAt(x, k) - 0x30));
  return n;
}

/** A key longer than this many UTF-8 bytes, or spanning lines, is written as `? key` / `: value`. */
const MAX_SIMPLE_KEY_BYTES = 128;

/** A simple key as written: its text and its width in columns. */
export interface SimpleKey {
  text: string;
  width: number;
}

/** A simple key's text (it never folds, so it does not depend on where it stands); null: not simple. */
const simpleKeys = new Map<string, SimpleKey | null>();
const SIMPLE_KEY_CACHE_LIMIT = 50_000;

/**
 * The text of `key` written as a simple key (`key:`), or null when it is not one (it spans lines
 * or is over MAX_SIMPLE_KEY_BYTES, as in yaml_emitter_check_simple_key). `render` writes a simple
 * key (the emitter's, passed in so that this file does not import the emitter); results are cached.
 */
export function simpleKey(key: string, render: (key: string) => SimpleKey): SimpleKey | null {
  let entry = simpleKeys.get(key);
  if (entry !== undefined) return entry;
  analyzeScalar(key);
  if (scan.multiline || (key.length > MAX_SIMPLE_KEY_BYTES / 3 && Buffer.byteLength(key) > MAX_SIMPLE_KEY_BYTES)) {
    entry = null;
  } else {
    entry = render(key);
  }
  if (simpleKeys.size >= SIMPLE_KEY_CACHE_LIMIT) simpleKeys.clear();
  simpleKeys.set(key, entry);
  return entry;
}
