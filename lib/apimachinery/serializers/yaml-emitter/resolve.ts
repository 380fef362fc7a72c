/**
 * What a plain scalar would read as in YAML 1.1, as go-yaml v2 resolves it (resolve.go): a bool,
 * null, int, float (Go's strconv syntax), timestamp, or a base-60 float (encode.go's
 * isBase60Float). The emitter writes a string plain only when it would read back as a string.
 */

// resolve.go: what a plain scalar reads as. A string that would read as anything but a string,
// or as a YAML 1.1 base-60 float, is double-quoted.
const RESOLVE_MAP = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
  '<<',
]);
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
/** strconv.ParseFloat's syntax for a string starting with a dot (underscores between digits). */
const DOT_FLOAT = /^\.[0-9]+(?:_[0-9]+)*(?:[eE][-+]?[0-9]+(?:_[0-9]+)*)?$/;
/** strconv.ParseInt/ParseUint with base 0 (the underscores are gone by then). */
const GO_INT = /^([-+]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)|0[bB]([01]+)|0([0-7]*)|([1-9][0-9]*))$/;
// parseTimestamp's time.Parse layouts, with the numbers' ranges checked in isTimestamp.
const TIMESTAMP_DATE = /^([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)$/;
const TIMESTAMP_ZONED = /^([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?)[Tt]([0-9][0-9]?):([0-9][0-9]?):([0-9][0-9]?)(?:[.,][0-9]+)?(?:Z|[-+]([0-9]{2}):([0-9]{2}))$/;
const TIMESTAMP_SPACED = /^([0-9]{4})-([0-9][0-9]?)-([0-9][0-9]?) ([0-9][0-9]?):([0-9][0-9]?):([0-9][0-9]?)(?:[.,][0-9]+)?$/;
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `s`, written plain, reads back as the same string: encoder.stringv (encode.go) writes
 * it plain only when resolve gives the string tag and it is not a base-60 float.
 */
export function plainReadsAsString(s: string): boolean {
  return !resolvesAsNonString(s) && !(s.includes(':') && BASE60_FLOAT.test(s));
}

/** resolve.go's resolve: whether plain `s` reads as a bool, null, int, float or timestamp. */
function resolvesAsNonString(s: string): boolean {
  if (s.length === 0) return true;
  const c = s.charCodeAt(0);
  const digitOrSign = (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d;
  if (!digitOrSign && c !== 0x2e && !'yYnNtTfFoO~'.includes(s[0])) return false;
  if (RESOLVE_MAP.has(s)) return true;
  if (c === 0x2e) return DOT_FLOAT.test(s) && Number.isFinite(Number(s.replace(/_/g, '')));
  if (!digitOrSign) return false;
  if (isTimestamp(s)) return true;
  const plain = s.includes('_') ? s.replace(/_/g, '') : s;
  return isGoInt(plain) || (YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain)));
}

/** strconv.ParseInt(s, 0, 64) or ParseUint(s, 0, 64) succeeds (resolve.go tries both). */
function isGoInt(s: string): boolean {
  const m = GO_INT.exec(s);
  if (!m) return false;
  const [, sign, hex, octal, binary, leadingZeroOctal, decimal] = m;
  const [digits, radix, prefix] =
    hex !== undefined ? [hex, 16, '0x'] : binary !== undefined ? [binary, 2, '0b'] : decimal !== undefined ? [decimal, 10, ''] : [octal ?? leadingZeroOctal, 8, '0o'];
  // ParseInt takes a sign and int64's range; ParseUint no sign and uint64's.
  const limit = sign === '-' ? 1n << 63n : sign === '+' ? (1n << 63n) - 1n : (1n << 64n) - 1n;
  const significant = digits.replace(/^0+/, '');
  const limitDigits = limit.toString(radix).length;
  if (significant.length !== limitDigits) return significant.length < limitDigits;
  return BigInt(prefix + significant) <= limit;
}

/** resolve.go's parseTimestamp succeeds (it is only asked for a string starting with a digit). */
function isTimestamp(s: string): boolean {
  if (s.length < 8 || s.charCodeAt(4) !== 0x2d) return false;
  let m = TIMESTAMP_DATE.exec(s);
  let zoned = false;
  if (!m) {
    m = TIMESTAMP_ZONED.exec(s);
    zoned = m !== null;
    m ??= TIMESTAMP_SPACED.exec(s);
    if (!m) return false;
  }
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day < 1 || day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month])) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59)) return false;
  if (zoned && m[7] !== undefined && (Number(m[7]) > 24 || Number(m[8]) > 60)) return false;
  return true;
}
