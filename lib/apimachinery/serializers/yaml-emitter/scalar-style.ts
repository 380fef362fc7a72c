/**
 * How go-yaml v2 writes a scalar: the analysis of a string and the choice of plain, single-quoted,
 * double-quoted or literal style (encode.go's stringv, emitterc.go's yaml_emitter_analyze_scalar
 * and yaml_emitter_select_scalar_style), a JSON number as Go formats it, and the folding of NELs
 * that reading upstream's JSON text as YAML does.
 */
import { codePointAt, codeWidth, isBreak, isPrintable } from './chars.js';
import { plainReadsAsString } from './resolve.js';

/** The scalar styles scalarStyle picks (go-yaml's yaml_*_SCALAR_STYLE). */
export const PLAIN = 0;
export const SINGLE_QUOTED = 1;
export const DOUBLE_QUOTED = 2;
export const LITERAL = 3;

/**
 * What yaml_emitter_analyze_scalar finds in a string, for the block context: the result for the
 * string analyzeScalar read last (one shared object, overwritten by each call).
 */
export const scan = {
  multiline: false,
  blockPlainAllowed: true,
  singleQuotedAllowed: true,
  blockAllowed: true,
  /** Has a line feed (go-yaml picks the literal style for those). */
  newline: false,
  /** Has a line break other than a line feed (CR is escaped anyway; NEL, LS, PS). */
  otherBreaks: false,
  /** Has a space, so a line may fold at it. */
  spaces: false,
  /** Has a character the double-quoted style escapes. */
  escapes: false,
  /** Has a single quote. */
  quotes: false,
  /** Has a NEL (U+0085), which the JSON-reading step folds (see foldNextLines). */
  nel: false,
  /** Length in characters (code points): the emitter's columns. */
  width: 0,
};

/** yaml_emitter_analyze_scalar (the flow-context results are never needed: flow style is only `[]`/`{}`). */
export function analyzeScalar(s: string): void {
  const n = s.length;
  scan.newline = false;
  scan.otherBreaks = false;
  scan.spaces = false;
  scan.escapes = false;
  scan.quotes = false;
  scan.nel = false;
  if (n === 0) {
    scan.multiline = false;
    scan.blockPlainAllowed = true;
    scan.singleQuotedAllowed = true;
    scan.blockAllowed = false;
    scan.width = 0;
    return;
  }
  let blockIndicators = n >= 3 && (s.startsWith('---') || s.startsWith('...'));
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let precededByWhitespace = true;
  let width = 0;
  for (let i = 0; i < n; ) {
    const c = codePointAt(s, i);
    const w = codeWidth;
    width++;
    const last = i + w >= n;
    const next = last ? -1 : s.charCodeAt(i + w);
    const followedByWhitespace = last || next === 0x20 || next === 0x09;
    if (i === 0) {
      switch (c) {
        case 0x23: case 0x2c: case 0x5b: case 0x5d: case 0x7b: case 0x7d: case 0x26: case 0x2a: // # , [ ] { } & *
        case 0x21: case 0x7c: case 0x3e: case 0x27: case 0x22: case 0x25: case 0x40: case 0x60: // ! | > ' " % @ `
          blockIndicators = true;
          break;
        case 0x3f: case 0x3a: case 0x2d: // ? : -
          if (followedByWhitespace) blockIndicators = true;
          break;
      }
    } else if ((c === 0x3a && followedByWhitespace) || (c === 0x23 && precededByWhitespace)) {
      blockIndicators = true;
    }
    const printable = isPrintable(c);
    if (!printable) special = true;
    const lineBreak = isBreak(c);
    if (c === 0x20) {
      scan.spaces = true;
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (lineBreak) {
      lineBreaks = true;
      if (c === 0x0a) scan.newline = true;
      else scan.otherBreaks = true;
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    if (c === 0x85) scan.nel = true;
    if (!printable || lineBreak || c === 0x22 || c === 0x5c) scan.escapes = true;
    else if (c === 0x27) scan.quotes = true;
    precededByWhitespace = c === 0x20 || c === 0x09 || c === 0 || lineBreak;
    i += w;
  }
  let blockPlainAllowed = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak);
  let singleQuotedAllowed = true;
  let blockAllowed = !trailingSpace;
  if (breakSpace) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || special) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  if (lineBreaks || blockIndicators) blockPlainAllowed = false;
  scan.multiline = lineBreaks;
  scan.blockPlainAllowed = blockPlainAllowed;
  scan.singleQuotedAllowed = singleQuotedAllowed;
  scan.blockAllowed = blockAllowed;
  scan.width = width;
}

/** encoder.stringv then yaml_emitter_select_scalar_style, for a string analysed by analyzeScalar. */
export function scalarStyle(s: string, simpleKey: boolean): number {
  let style = scan.newline ? LITERAL : plainReadsAsString(s) ? PLAIN : DOUBLE_QUOTED;
  if (simpleKey && scan.multiline) style = DOUBLE_QUOTED;
  if (style === PLAIN && (!scan.blockPlainAllowed || (s.length === 0 && simpleKey))) style = SINGLE_QUOTED;
  if (style === SINGLE_QUOTED && !scan.singleQuotedAllowed) style = DOUBLE_QUOTED;
  if (style === LITERAL && (!scan.blockAllowed || simpleKey)) style = DOUBLE_QUOTED;
  return style;
}

/**
 * A JSON number as go-yaml writes it after reading our JSON text for it (String(n)): digits
 * within int64 or uint64 as they are, anything else as float64 by
 * strconv.FormatFloat(f, 'g', -1, 64) (encode.go's intv, uintv, floatv).
 */
export function goNumber(n: number): string {
  const text = String(n);
  if (Number.isInteger(n) && !text.includes('e') && (text.length < 19 || fitsInt64OrUint64(text))) return text;
  const [mantissa, exponent] = Math.abs(n).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(exponent);
  const sign = n < 0 ? '-' : '';
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const fraction = digits.slice(exp + 1);
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Whether the integer written in `digits` is within int64 or uint64 (resolve.go then reads an int). */
function fitsInt64OrUint64(digits: string): boolean {
  const v = BigInt(digits);
  return v >= -(1n << 63n) && v < 1n << 64n;
}

/**
 * Upstream's JSON text leaves NEL (U+0085) unescaped, and go-yaml reads the JSON as YAML, where a
 * NEL inside a double-quoted scalar is a line break: a run of spaces and NELs becomes one space
 * (one NEL) or n-1 line feeds (n NELs). The string value that gets written is that one.
 */
export function foldNextLines(s: string): string {
  let folded = '';
  let from = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c !== 0x20 && c !== 0x85) {
      i++;
      continue;
    }
    let j = i;
    let breaks = 0;
    for (; j < s.length; j++) {
      const d = s.charCodeAt(j);
      if (d === 0x85) breaks++;
      else if (d !== 0x20) break;
    }
    if (breaks > 0) {
      folded += s.slice(from, i) + (breaks === 1 ? ' ' : '\n'.repeat(breaks - 1));
      from = j;
    }
    i = j;
  }
  return folded + s.slice(from);
}
