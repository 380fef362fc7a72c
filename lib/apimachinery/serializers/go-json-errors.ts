/**
 * The error texts of Go's encoding/json that upstream puts in its answers: the syntax error of
 * `json.Unmarshal` for a body that is not JSON (`invalid character 'a' looking for beginning of
 * value`, `unexpected end of JSON input`), found by a byte scanner with the states and messages
 * of encoding/json's scanner.go, and the `UnmarshalTypeError` text (`json: cannot unmarshal array
 * into Go value of type …`). Pure; the scanner is iterative and linear in the input.
 */

/** Nesting depth past which encoding/json's scanner stops (`exceeded max depth`). */
export const GO_JSON_MAX_DEPTH = 10_000;

/**
 * Go's `quoteChar(c)` for one byte: `'\''`, `'"'`, else strconv.Quote of the byte taken as a code
 * point (a UTF-8 lead byte 0xC3 reads `'Ã'`) between single quotes.
 */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  return `'${goQuoteRuneBody(c)}'`;
}

const SHORT_ESCAPES: Record<number, string> = { 0x07: '\\a', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x0b: '\\v', 0x5c: '\\\\' };

/** strconv.Quote of a code point below 0x100, without the surrounding quotes (`"` is not escaped here). */
function goQuoteRuneBody(r: number): string {
  const short = SHORT_ESCAPES[r];
  if (short) return short;
  if (r < 0x20 || r === 0x7f) return `\\x${r.toString(16).padStart(2, '0')}`;
  // strconv.IsPrint for Latin-1: space through '~', and '¡' through 'ÿ' except the soft hyphen.
  if (r <= 0x7e || (r >= 0xa1 && r !== 0xad)) return String.fromCodePoint(r);
  return `\\u${r.toString(16).padStart(4, '0')}`;
}

const STATE = {
  beginValueOrEmpty: 0,
  beginValue: 1,
  beginStringOrEmpty: 2,
  beginString: 3,
  endValue: 4,
  endTop: 5,
  inString: 6,
  inStringEsc: 7,
  inStringEscU: 8,
  inStringEscU1: 9,
  inStringEscU12: 10,
  inStringEscU123: 11,
  neg: 12,
  one: 13,
  zero: 14,
  dot: 15,
  dot0: 16,
  e: 17,
  eSign: 18,
  e0: 19,
  error: 20,
  // Literals: true, false, null; each expects the byte in LITERALS below.
  t: 21,
  tr: 22,
  tru: 23,
  f: 24,
  fa: 25,
  fal: 26,
  fals: 27,
  n: 28,
  nu: 29,
  nul: 30,
} as const;
const S = STATE;

/** For each literal state: the byte it expects, the literal's name, and the state after it (endValue at the end). */
const LITERALS: Record<number, [expect: string, literal: string, next: number]> = {
  [S.t]: ['r', 'true', S.tr],
  [S.tr]: ['u', 'true', S.tru],
  [S.tru]: ['e', 'true', S.endValue],
  [S.f]: ['a', 'false', S.fa],
  [S.fa]: ['l', 'false', S.fal],
  [S.fal]: ['s', 'false', S.fals],
  [S.fals]: ['e', 'false', S.endValue],
  [S.n]: ['u', 'null', S.nu],
  [S.nu]: ['l', 'null', S.nul],
  [S.nul]: ['l', 'null', S.endValue],
};

const PARSE_OBJECT_KEY = 0;
const PARSE_OBJECT_VALUE = 1;
const PARSE_ARRAY_VALUE = 2;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** encoding/json's scanner, reduced to what checkValid needs: the first error. */
class Scanner {
  step: number = S.beginValue;
  readonly parseState: number[] = [];
  endTop = false;
  err: string | undefined;

  constructor(private readonly maxDepth: number) {}

  private error(c: number, context: string): void {
    this.step = S.error;
    this.err ??= `invalid character ${goQuoteChar(c)} ${context}`;
  }

  private push(c: number, state: number, next: number): void {
    this.parseState.push(state);
    this.step = next;
    if (this.parseState.length > this.maxDepth) this.error(c, 'exceeded max depth');
  }

  private pop(): void {
    this.parseState.pop();
    if (this.parseState.length === 0) {
      this.step = S.endTop;
      this.endTop = true;
    } else this.step = S.endValue;
  }

  /** Feeds one byte; afterwards `err` holds the first error, if any. */
  feed(c: number): void {
    switch (this.step) {
      case S.beginValueOrEmpty:
        if (isSpace(c)) return;
        if (c === 0x5d) return this.endValue(c);
        return this.beginValue(c);
      case S.beginValue:
        return this.beginValue(c);
      case S.beginStringOrEmpty:
        if (isSpace(c)) return;
        if (c === 0x7d) {
          this.parseState[this.parseState.length - 1] = PARSE_OBJECT_VALUE;
          return this.endValue(c);
        }
        return this.beginString(c);
      case S.beginString:
        return this.beginString(c);
      case S.endValue:
        return this.endValue(c);
      case S.endTop:
        if (!isSpace(c)) this.error(c, 'after top-level value');
        return;
      case S.inString:
        if (c === 0x22) this.step = S.endValue;
        else if (c === 0x5c) this.step = S.inStringEsc;
        else if (c < 0x20) this.error(c, 'in string literal');
        return;
      case S.inStringEsc:
        if ('bfnrt\\/"'.includes(String.fromCharCode(c))) this.step = S.inString;
        else if (c === 0x75) this.step = S.inStringEscU;
        else this.error(c, 'in string escape code');
        return;
      case S.inStringEscU:
      case S.inStringEscU1:
      case S.inStringEscU12:
      case S.inStringEscU123:
        if (isHex(c)) this.step = this.step === S.inStringEscU123 ? S.inString : this.step + 1;
        else this.error(c, 'in \\u hexadecimal character escape');
        return;
      case S.neg:
        if (c === 0x30) this.step = S.zero;
        else if (c >= 0x31 && c <= 0x39) this.step = S.one;
        else this.error(c, 'in numeric literal');
        return;
      case S.one:
        if (isDigit(c)) return;
        return this.zero(c);
      case S.zero:
        return this.zero(c);
      case S.dot:
        if (isDigit(c)) this.step = S.dot0;
        else this.error(c, 'after decimal point in numeric literal');
        return;
      case S.dot0:
        if (isDigit(c)) return;
        if (c === 0x65 || c === 0x45) {
          this.step = S.e;
          return;
        }
        return this.endValue(c);
      case S.e:
        if (c === 0x2b || c === 0x2d) {
          this.step = S.eSign;
          return;
        }
        return this.eSign(c);
      case S.eSign:
        return this.eSign(c);
      case S.e0:
        if (isDigit(c)) return;
        return this.endValue(c);
      case S.error:
        return;
      default: {
        const [expect, literal, next] = LITERALS[this.step]!;
        if (c === expect.charCodeAt(0)) this.step = next;
        else this.error(c, `in literal ${literal} (expecting '${expect}')`);
      }
    }
  }

  private beginValue(c: number): void {
    if (isSpace(c)) return;
    switch (c) {
      case 0x7b: // {
        return this.push(c, PARSE_OBJECT_KEY, S.beginStringOrEmpty);
      case 0x5b: // [
        return this.push(c, PARSE_ARRAY_VALUE, S.beginValueOrEmpty);
      case 0x22:
        this.step = S.inString;
        return;
      case 0x2d:
        this.step = S.neg;
        return;
      case 0x30:
        this.step = S.zero;
        return;
      case 0x74:
        this.step = S.t;
        return;
      case 0x66:
        this.step = S.f;
        return;
      case 0x6e:
        this.step = S.n;
        return;
    }
    if (c >= 0x31 && c <= 0x39) {
      this.step = S.one;
      return;
    }
    this.error(c, 'looking for beginning of value');
  }

  private beginString(c: number): void {
    if (isSpace(c)) return;
    if (c === 0x22) this.step = S.inString;
    else this.error(c, 'looking for beginning of object key string');
  }

  private zero(c: number): void {
    if (c === 0x2e) this.step = S.dot;
    else if (c === 0x65 || c === 0x45) this.step = S.e;
    else this.endValue(c);
  }

  private eSign(c: number): void {
    if (isDigit(c)) this.step = S.e0;
    else this.error(c, 'in exponent of numeric literal');
  }

  private endValue(c: number): void {
    const n = this.parseState.length;
    if (n === 0) {
      // The top-level value ended before this byte.
      this.step = S.endTop;
      this.endTop = true;
      if (!isSpace(c)) this.error(c, 'after top-level value');
      return;
    }
    if (isSpace(c)) {
      this.step = S.endValue;
      return;
    }
    switch (this.parseState[n - 1]) {
      case PARSE_OBJECT_KEY:
        if (c === 0x3a) {
          this.parseState[n - 1] = PARSE_OBJECT_VALUE;
          this.step = S.beginValue;
        } else this.error(c, 'after object key');
        return;
      case PARSE_OBJECT_VALUE:
        if (c === 0x2c) {
          this.parseState[n - 1] = PARSE_OBJECT_KEY;
          this.step = S.beginString;
        } else if (c === 0x7d) this.pop();
        else this.error(c, 'after object key:value pair');
        return;
      default:
        if (c === 0x2c) this.step = S.beginValue;
        else if (c === 0x5d) this.pop();
        else this.error(c, 'after array element');
    }
  }

  /** End of input, as encoding/json's `eof`: a last space may complete a number or reveal a cut literal. */
  eof(): string | undefined {
    if (this.err !== undefined) return this.err;
    if (this.endTop) return undefined;
    this.feed(0x20);
    if (this.endTop) return undefined;
    return this.err ?? 'unexpected end of JSON input';
  }
}

/**
 * The error `json.Unmarshal` gives for `data` before decoding anything (encoding/json's
 * `checkValid`): the first syntax error, `exceeded max depth` past `maxDepth` levels, or
 * undefined when `data` is one JSON value.
 */
export function goJSONSyntaxError(data: Uint8Array | string, maxDepth = GO_JSON_MAX_DEPTH): string | undefined {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const s = new Scanner(maxDepth);
  for (let i = 0; i < bytes.length; i++) {
    s.feed(bytes[i]!);
    if (s.err !== undefined) return s.err;
  }
  return s.eof();
}

/** The JSON type name in Go's UnmarshalTypeError: `string`, `number`, `bool`, `array`, `object`. */
export function goJSONTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

/**
 * encoding/json's key folding (`foldName`): ASCII letters upper-cased, and the Kelvin sign and
 * the long s folded to `K` and `S`, so that `KIND` or `apiVerſion` match a struct field.
 */
export function goFoldName(key: string): string {
  let out = '';
  for (const ch of key) {
    if (ch === '\u212a') out += 'K';
    else if (ch === '\u017f') out += 'S';
    else if (ch >= 'a' && ch <= 'z') out += ch.toUpperCase();
    else out += ch;
  }
  return out;
}

/** The length of the valid UTF-8 sequence at `i` (Go's utf8.DecodeRune rules), 0 when there is none. */
function utf8SequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (j: number, lo = 0x80, hi = 0xbf): boolean => j < b.length && b[j]! >= lo && b[j]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const lo = c === 0xe0 ? 0xa0 : 0x80;
    const hi = c === 0xed ? 0x9f : 0xbf;
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const lo = c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xf4 ? 0x8f : 0xbf;
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/**
 * Bytes as a Go string reads once encoded to JSON: valid UTF-8 kept, every byte of an invalid
 * or cut sequence one U+FFFD (Node's decoder would fold a cut sequence into one).
 */
export function goStringFromBytes(b: Uint8Array): string {
  let out = '';
  let start = 0;
  let i = 0;
  while (i < b.length) {
    const n = utf8SequenceLength(b, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += Buffer.from(b.subarray(start, i)).toString('utf8') + '\ufffd';
    i++;
    start = i;
  }
  return out + Buffer.from(b.subarray(start)).toString('utf8');
}
