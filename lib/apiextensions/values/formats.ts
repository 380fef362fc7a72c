/**
 * The string formats a custom resource schema validates (upstream apiextensions
 * `supportedFormats` of v1.30 checked with kube-openapi's strfmt default registry), and the
 * rule that strips every other format before validation (upstream
 * StripUnsupportedFormatsPostProcess: integer keeps only int32/int64, number only float/double,
 * string only the registry's names; names compare with `-` removed, so `date-time` is
 * `datetime`).
 */
import { parseDurationNanos } from '../../apimachinery/duration.js';
import { daysIn } from '../../apimachinery/go-time.js';
import { parseCIDR, parseIP } from '../../apimachinery/validation/ip.js';

/** A format check: true when the string is in the format. */
export type FormatCheck = (s: string) => boolean;

const HOSTNAME_RE =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z0-9\p{S}\p{L}])(-?[a-zA-Z0-9\p{S}\p{L}]){1,62})$/u;
const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const BSON_RE = /^[0-9a-fA-F]{24}$/;
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const HEXCOLOR_RE = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB_PART = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';
const RGBCOLOR_RE = new RegExp(`^rgb\\(${RGB_PART},${RGB_PART},${RGB_PART}\\)$`);
const SSN_RE = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const CREDITCARD_RE = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
const ISBN10_RE = /^(?:[0-9]{9}X|[0-9]{10})$/;
const ISBN13_RE = /^(?:[0-9]{13})$/;
const MAC_RE = [
  /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/,
  /^([0-9a-fA-F]{2}[:-]){7}[0-9a-fA-F]{2}$/,
  /^([0-9a-fA-F]{2}[:-]){19}[0-9a-fA-F]{2}$/,
  /^([0-9a-fA-F]{4}\.){2}[0-9a-fA-F]{4}$/,
  /^([0-9a-fA-F]{4}\.){3}[0-9a-fA-F]{4}$/,
  /^([0-9a-fA-F]{4}\.){9}[0-9a-fA-F]{4}$/,
];
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const EMAIL_ADDR_RE = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const EMAIL_NAMED_RE = /^[^<>]*<([^<>]+)>$/;
const URI_SCHEME_RE = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// \u00b5: µ (the bundle is ASCII, hack/bundle.sh). A part never starts inside a run of digits (the
// match from the run's start would have been found first): without the lookbehind, a search
// restarted at every digit of a long run, quadratic (2.5 s for 30,000 digits).
const DURATION_PART_RE = /(?<!\d)(\d+)\s*([A-Za-z\u00b5]+)/g;
const DURATION_UNITS = new Set([
  'ns', 'us', 'µs', 'ms', 's', 'm', 'h', 'd', 'w',
  'nanosecond', 'nanoseconds', 'microsecond', 'microseconds', 'millisecond', 'milliseconds',
  'second', 'seconds', 'sec', 'secs', 'minute', 'minutes', 'min', 'mins', 'hour', 'hours', 'hr', 'hrs',
  'day', 'days', 'week', 'weeks',
]);

function isDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysIn(mo, y);
}

function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = TIME_RE.exec(parts[1]!);
  return m !== null && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

function isDuration(s: string): boolean {
  try {
    parseDurationNanos(s);
    return true;
  } catch {
    let found = false;
    for (const m of s.matchAll(DURATION_PART_RE)) {
      if (!DURATION_UNITS.has(m[2]!.toLowerCase())) return false;
      found = true;
    }
    return found;
  }
}

function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let n = digits.charCodeAt(i) - 48;
    if (double) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
    double = !double;
  }
  return sum % 10 === 0;
}

function isISBN10(s: string): boolean {
  const v = s.replace(/[\s-]/g, '');
  if (!ISBN10_RE.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * (v.charCodeAt(i) - 48);
  sum += v[9] === 'X' ? 100 : 10 * (v.charCodeAt(9) - 48);
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const v = s.replace(/[\s-]/g, '');
  if (!ISBN13_RE.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * (v.charCodeAt(i) - 48);
  return (10 - (sum % 10)) % 10 === v.charCodeAt(12) - 48;
}

function isEmail(s: string): boolean {
  const named = EMAIL_NAMED_RE.exec(s.trim());
  return EMAIL_ADDR_RE.test(named ? named[1]!.trim() : s.trim());
}

function isRequestURI(s: string): boolean {
  if (s === '' || /\s/.test(s)) return false;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) < 0x20 || s.charCodeAt(i) === 0x7f) return false;
  return s.startsWith('/') || URI_SCHEME_RE.test(s);
}

function isHostname(s: string): boolean {
  if (!HOSTNAME_RE.test(s) || Buffer.byteLength(s) > 255) return false;
  return s.split('.').every((p) => Buffer.byteLength(p) <= 63);
}

/** The format checks of the strfmt default registry, by normalized name (no `-`). */
const CHECKS: ReadonlyMap<string, FormatCheck> = new Map<string, FormatCheck>([
  ['bsonobjectid', (s) => BSON_RE.test(s)],
  ['uri', isRequestURI],
  ['email', isEmail],
  ['hostname', isHostname],
  ['ipv4', (s) => parseIP(s) !== null && s.includes('.')],
  ['ipv6', (s) => parseIP(s) !== null && s.includes(':')],
  ['cidr', (s) => parseCIDR(s) !== null],
  ['mac', (s) => MAC_RE.some((re) => re.test(s))],
  ['uuid', (s) => UUID_RE.test(s)],
  ['uuid3', (s) => UUID3_RE.test(s)],
  ['uuid4', (s) => UUID4_RE.test(s)],
  ['uuid5', (s) => UUID5_RE.test(s)],
  ['isbn', (s) => isISBN10(s) || isISBN13(s)],
  ['isbn10', isISBN10],
  ['isbn13', isISBN13],
  ['creditcard', (s) => {
    const digits = s.replace(/[^0-9]/g, '');
    return CREDITCARD_RE.test(digits) && luhn(digits);
  }],
  ['ssn', (s) => s.length === 11 && SSN_RE.test(s)],
  ['hexcolor', (s) => HEXCOLOR_RE.test(s)],
  ['rgbcolor', (s) => RGBCOLOR_RE.test(s)],
  ['byte', (s) => BASE64_RE.test(s)],
  ['password', () => true],
  ['date', isDate],
  ['duration', isDuration],
  ['datetime', isDateTime],
]);

/**
 * The format a schema node effectively validates after upstream's stripping of unsupported
 * formats, with its check; undefined when none. `type` is the node's declared type.
 */
export function effectiveFormat(type: string | undefined, format: string | undefined): { name: string; check?: FormatCheck } | undefined {
  if (!format) return undefined;
  switch (type ?? '') {
    case '':
    case 'string': {
      const check = CHECKS.get(format.replaceAll('-', ''));
      return check ? { name: format, check } : undefined;
    }
    case 'integer':
      return format === 'int32' || format === 'int64' ? { name: format } : undefined;
    case 'number':
      return format === 'float' || format === 'double' ? { name: format } : undefined;
    default:
      return undefined;
  }
}
