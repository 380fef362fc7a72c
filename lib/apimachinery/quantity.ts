/**
 * Quantity: the fixed-point number of resource amounts (`500m`, `1.5Gi`, `12e6`), with the
 * upstream parser, canonical form, comparison and arithmetic. spec 000 § Expression language
 * (CEL) in fields (quantity library); also the type of resource quantities in objects.
 *
 * The value is never a float. Like upstream it lives in one of two representations, and a few
 * results depend on which (notably `asInt64`, which only succeeds on the fast path):
 *   - `int64`: `value × 10^scale` with `value` inside the signed 64-bit range (the fast path);
 *   - `dec`:   `unscaled × 10^exponent`, arbitrary precision (values parsed with more than 18
 *              digits, binary suffixes with fractions, or results that overflow the fast path).
 * Parsed values are rounded away from zero to a multiple of 10^-9 and binary (`Ki`…) values are
 * capped at 2^63-1, as upstream does. Quantities are immutable: `add` / `sub` return new values.
 */

/** How a quantity is written: `12e6` (DecimalExponent), `12Mi` (BinarySI), `12M` (DecimalSI). */
export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

type Amount =
  | { readonly kind: 'int64'; readonly value: bigint; readonly scale: number }
  | { readonly kind: 'dec'; readonly unscaled: bigint; readonly exponent: number };

const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
/** Upstream ErrFormatWrong. */
export const QUANTITY_FORMAT_ERROR = `quantities must match the regular expression '${SPLIT_RE}'`;
/** Upstream ErrNumeric. */
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';
/** Upstream ErrSuffix. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

/** A string that is not a quantity; `message` is the upstream error text. */
export class QuantityParseError extends Error {
  override readonly name = 'QuantityParseError';
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const NANO = -9;
/** Digits the int64 fast path accepts (upstream maxInt64Factors). */
const MAX_INT64_FACTORS = 18;
/** Alignments beyond this many decimal digits are refused instead of exhausting memory. */
const MAX_ALIGN_DIGITS = 100_000;

const DEC_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['n', -9], ['u', -6], ['m', -3], ['', 0], ['k', 3], ['M', 6], ['G', 9], ['T', 12], ['P', 15], ['E', 18],
]);
const BIN_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['Ki', 10], ['Mi', 20], ['Gi', 30], ['Ti', 40], ['Pi', 50], ['Ei', 60],
]);
const DEC_BY_EXPONENT = new Map([...DEC_SUFFIXES].map(([s, e]) => [e, s]));
const BIN_BY_EXPONENT = new Map([...BIN_SUFFIXES].map(([s, e]) => [e, s]));

const inInt64 = (v: bigint): boolean => v >= INT64_MIN && v <= INT64_MAX;
const abs = (v: bigint): bigint => (v < 0n ? -v : v);
const signOf = (v: bigint): -1 | 0 | 1 => (v === 0n ? 0 : v > 0n ? 1 : -1);

function pow10(n: number): bigint {
  if (n > MAX_ALIGN_DIGITS) throw new RangeError('quantity exponent too large to align');
  return 10n ** BigInt(n);
}

/** Divides by 10^digits rounding away from zero; `exact` is false when a remainder was dropped. */
function divRoundUp(v: bigint, digits: number): { result: bigint; exact: boolean } {
  if (digits <= 0) return { result: v * pow10(-digits), exact: true };
  if (digits > String(abs(v)).length) return { result: BigInt(signOf(v)), exact: v === 0n };
  const d = pow10(digits);
  const q = v / d;
  const r = v % d;
  if (r === 0n) return { result: q, exact: true };
  return { result: v > 0n ? q + 1n : q - 1n, exact: false };
}

function removeFactors(v: bigint, base: bigint): { amount: bigint; times: number } {
  let amount = v;
  let times = 0;
  while (amount !== 0n && amount % base === 0n) {
    amount /= base;
    times++;
  }
  return { amount, times };
}

/** The amount as an exact decimal (unscaled × 10^exponent). */
function asDec(a: Amount): { unscaled: bigint; exponent: number } {
  return a.kind === 'dec' ? a : { unscaled: a.value, exponent: a.scale };
}

function cmpDec(x: { unscaled: bigint; exponent: number }, y: { unscaled: bigint; exponent: number }): -1 | 0 | 1 {
  const sx = signOf(x.unscaled);
  const sy = signOf(y.unscaled);
  if (sx !== sy) return sx > sy ? 1 : -1;
  if (sx === 0) return 0;
  // Settle by magnitude first so that wildly different exponents never need aligning.
  const mx = String(abs(x.unscaled)).length + x.exponent;
  const my = String(abs(y.unscaled)).length + y.exponent;
  if (mx !== my) return (mx > my ? sx : -sx) as -1 | 1;
  const e = Math.min(x.exponent, y.exponent);
  const ax = x.unscaled * pow10(x.exponent - e);
  const ay = y.unscaled * pow10(y.exponent - e);
  return ax === ay ? 0 : ax > ay ? 1 : -1;
}

function addDec(x: { unscaled: bigint; exponent: number }, y: { unscaled: bigint; exponent: number }): Amount {
  const e = Math.min(x.exponent, y.exponent);
  const unscaled = x.unscaled * pow10(x.exponent - e) + y.unscaled * pow10(y.exponent - e);
  return { kind: 'dec', unscaled, exponent: e };
}

/** Upstream int64Amount.Add: aligns to the smaller scale; undefined when int64 would overflow. */
function addInt64(a: { value: bigint; scale: number }, b: { value: bigint; scale: number }): Amount | undefined {
  if (b.value === 0n) return { kind: 'int64', ...a };
  if (a.value === 0n) return { kind: 'int64', ...b };
  const scale = Math.min(a.scale, b.scale);
  if (a.scale - scale > 18 || b.scale - scale > 18) return undefined;
  const av = a.value * 10n ** BigInt(a.scale - scale);
  const bv = b.value * 10n ** BigInt(b.scale - scale);
  const sum = av + bv;
  if (!inInt64(av) || !inInt64(bv) || !inInt64(sum)) return undefined;
  return { kind: 'int64', value: sum, scale };
}

interface ScannedQuantity {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** Upstream parseQuantityString: splits sign, integer digits, fraction digits and suffix. */
function scanQuantity(str: string): ScannedQuantity {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') {
    pos++;
  }
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  let num = str.slice(pos, i);
  if (i >= end) return { positive, value: str, num: num || '0', denom: '', suffix: '' };
  pos = i;
  if (num === '') num = '0';
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos]!)) pos++;
  if (pos >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
}

/** Upstream suffixHandler.interpret. */
function interpretSuffix(suffix: string): { base: 10 | 2; exponent: number; format: QuantityFormat } | undefined {
  const dec = DEC_SUFFIXES.get(suffix);
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = BIN_SUFFIXES.get(suffix);
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'E' || suffix[0] === 'e')) {
    const digits = suffix.slice(1);
    if (!/^[+-]?[0-9]+$/.test(digits)) return undefined;
    const parsed = BigInt(digits);
    if (!inInt64(parsed)) return undefined;
    // Upstream narrows the exponent to int32.
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** inf.Dec SetString: `[+-]?digits[.digits]` with at least one digit. */
function parseDecimal(text: string): { unscaled: bigint; exponent: number } | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  const unscaled = BigInt(`${m[2]}${frac}` || '0');
  return { unscaled: m[1] === '-' ? -unscaled : unscaled, exponent: -frac.length };
}

function parseAmount(str: string): { amount: Amount; format: QuantityFormat; canonical?: string } {
  if (str.length === 0) throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
  if (str === '0') return { amount: { kind: 'int64', value: 0n, scale: 0 }, format: 'DecimalSI', canonical: '0' };
  const { positive, value, num, denom, suffix } = scanQuantity(str);
  const interpreted = interpretSuffix(suffix);
  if (!interpreted) throw new QuantityParseError(QUANTITY_SUFFIX_ERROR);
  const { base, exponent } = interpreted;
  let { format } = interpreted;

  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
    } else {
      precision = -1;
    }
  } else {
    scale = exponent;
    precision = MAX_INT64_FACTORS - (num.length + denom.length);
  }

  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= NANO) {
      const shifted = num + denom;
      const parsed = BigInt(shifted);
      const product = parsed * mantissa;
      if (inInt64(parsed) && inInt64(product)) {
        const amount: Amount = { kind: 'int64', value: positive ? product : -product, scale };
        const reusable =
          format === 'BinarySI'
            ? exponent % 10 === 0 && (parsed & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return reusable ? { amount, format, canonical: str } : { amount, format };
      }
    }
  }

  const parsed = parseDecimal(value);
  if (!parsed) throw new QuantityParseError(QUANTITY_NUMERIC_ERROR);
  let dec = { unscaled: abs(parsed.unscaled), exponent: parsed.exponent };
  if (base === 10) dec.exponent += exponent;
  else dec.unscaled *= 1n << BigInt(exponent);
  if (dec.unscaled !== 0n) dec = toNanoScale(dec);
  if (format === 'BinarySI' && cmpDec(dec, { unscaled: INT64_MAX, exponent: 0 }) > 0) {
    dec = { unscaled: INT64_MAX, exponent: 0 };
  }
  if (format === 'BinarySI' && dec.unscaled > 0n && cmpDec(dec, { unscaled: 1n, exponent: 0 }) < 0) {
    format = 'DecimalSI';
  }
  const amount: Amount = { kind: 'dec', unscaled: positive ? dec.unscaled : -dec.unscaled, exponent: dec.exponent };
  return { amount, format };
}

/**
 * Upstream rounds parsed decimals to nano scale (away from zero), which also re-expresses
 * coarser values at scale 10^-9. Values too large to re-express keep their exponent.
 */
function toNanoScale(d: { unscaled: bigint; exponent: number }): { unscaled: bigint; exponent: number } {
  if (d.exponent < NANO) return { unscaled: divRoundUp(d.unscaled, NANO - d.exponent).result, exponent: NANO };
  if (d.exponent - NANO > MAX_ALIGN_DIGITS) return d;
  return { unscaled: d.unscaled * pow10(d.exponent - NANO), exponent: NANO };
}

/** Base-10 mantissa and exponent (a multiple of 3) of a non-zero amount. */
function canonicalDecimal(a: Amount): { mantissa: bigint; exponent: number } {
  const d = asDec(a);
  const { amount, times } = removeFactors(d.unscaled, 10n);
  let mantissa = amount;
  let exponent = d.exponent + times;
  const rem = ((exponent % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(rem);
  exponent -= rem;
  return { mantissa, exponent };
}

function decimalSuffix(exponent: number, format: QuantityFormat): string {
  if (format === 'DecimalSI') {
    const s = DEC_BY_EXPONENT.get(exponent);
    if (s !== undefined) return s;
  }
  return exponent === 0 ? '' : `e${exponent}`;
}

/**
 * An immutable quantity. Construct with `Quantity.parse('1.5Gi')` or `Quantity.fromInt(5n)`.
 * `toString()` gives the canonical form upstream emits (`1.5Gi` → `1536Mi`, `1.5` → `1500m`).
 */
export class Quantity {
  private cached: string | undefined;

  private constructor(
    private readonly amount: Amount,
    /** The suffix family the quantity was written in and will be emitted in. */
    readonly format: QuantityFormat,
    canonical?: string,
  ) {
    this.cached = canonical;
  }

  /**
   * Parses `text` with the upstream grammar (`[+-]digits[.digits][suffix]`, suffixes
   * n u m k M G T P E, Ki…Ei, e<exp>). Throws QuantityParseError with the upstream message.
   */
  static parse(text: string): Quantity {
    const { amount, format, canonical } = parseAmount(text);
    return new Quantity(amount, format, canonical);
  }

  /** True when `text` parses as a quantity. */
  static isQuantity(text: string): boolean {
    try {
      parseAmount(text);
      return true;
    } catch (err) {
      if (err instanceof QuantityParseError) return false;
      throw err;
    }
  }

  /** An integer quantity (upstream NewQuantity). Throws RangeError outside the int64 range. */
  static fromInt(value: bigint | number, format: QuantityFormat = 'DecimalSI'): Quantity {
    const v = BigInt(value);
    if (!inInt64(v)) throw new RangeError(`quantity integer out of int64 range: ${v}`);
    return new Quantity({ kind: 'int64', value: v, scale: 0 }, format);
  }

  /** -1, 0 or 1. */
  sign(): -1 | 0 | 1 {
    return signOf(this.amount.kind === 'dec' ? this.amount.unscaled : this.amount.value);
  }

  /** True for a zero value (in any format). */
  isZero(): boolean {
    return this.sign() === 0;
  }

  /** Compares values: -1 if this < other, 0 if equal, 1 if greater. Formats are ignored. */
  cmp(other: Quantity): -1 | 0 | 1 {
    return cmpDec(asDec(this.amount), asDec(other.amount));
  }

  /** Value equality (`1k` equals `1000`). */
  equals(other: Quantity): boolean {
    return this.cmp(other) === 0;
  }

  /** Sum; keeps this quantity's format unless this is zero, then takes `other`'s (upstream Add). */
  add(other: Quantity): Quantity {
    const format = this.isZero() ? other.format : this.format;
    const a = this.amount;
    const b = other.amount;
    if (a.kind === 'int64' && b.kind === 'int64') {
      const sum = addInt64(a, b);
      if (sum) return new Quantity(sum, format);
    }
    return new Quantity(addDec(asDec(a), asDec(b)), format);
  }

  /** Difference; format rule as for `add` (upstream Sub). */
  sub(other: Quantity): Quantity {
    const format = this.isZero() ? other.format : this.format;
    const a = this.amount;
    const b = other.amount;
    if (a.kind === 'int64' && b.kind === 'int64' && b.value !== INT64_MIN) {
      const diff = addInt64(a, { value: -b.value, scale: b.scale });
      if (diff) return new Quantity(diff, format);
    }
    const d = asDec(b);
    return new Quantity(addDec(asDec(a), { unscaled: -d.unscaled, exponent: d.exponent }), format);
  }

  /**
   * The value as a 64-bit integer, or undefined when that would lose precision or overflow.
   * Like upstream this only succeeds on the int64 representation with a non-negative scale,
   * so `1.0` and `1000m` (stored with fractional scale) are not integers.
   */
  asInt64(): bigint | undefined {
    const a = this.amount;
    if (a.kind === 'dec') return undefined;
    if (a.scale === 0) return a.value;
    if (a.scale < 0) return undefined;
    if (a.value === 0n) return 0n;
    if (a.scale > 18) return undefined;
    const v = a.value * 10n ** BigInt(a.scale);
    return inInt64(v) ? v : undefined;
  }

  /** A float64 approximation (may lose precision; ±Infinity beyond the float range). */
  asApproximateFloat64(): number {
    const d = asDec(this.amount);
    const base = Number(d.unscaled);
    if (d.exponent === 0) return base;
    return base * goPow10(d.exponent);
  }

  /** The value at the given power-of-ten scale, rounded away from zero: ceil(q / 10^scale). */
  scaledValue(scale: number): bigint {
    const d = asDec(this.amount);
    return divRoundUp(d.unscaled, scale - d.exponent).result;
  }

  /** The value rounded away from zero to an integer (upstream Value). */
  value(): bigint {
    return this.scaledValue(0);
  }

  /** The value in thousandths, rounded away from zero (upstream MilliValue). */
  milliValue(): bigint {
    return this.scaledValue(-3);
  }

  /** Canonical string (upstream String / CanonicalizeBytes). */
  toString(): string {
    this.cached ??= this.canonicalize();
    return this.cached;
  }

  /** Serializes as its canonical string, like upstream MarshalJSON. */
  toJSON(): string {
    return this.toString();
  }

  private canonicalize(): string {
    if (this.isZero()) return '0';
    let format = this.format;
    let rounded: bigint | undefined;
    if (format === 'BinarySI') {
      const small = this.cmp(Quantity.fromInt(-1024)) > 0 && this.cmp(Quantity.fromInt(1024)) < 0;
      if (small) {
        format = 'DecimalSI';
      } else {
        const d = asDec(this.amount);
        const { result, exact } = divRoundUp(d.unscaled, -d.exponent);
        if (exact) rounded = result;
        else format = 'DecimalSI';
      }
    }
    if (format === 'BinarySI' && rounded !== undefined) {
      const { amount, times } = removeFactors(rounded, 1024n);
      let mantissa = amount;
      let exponent = times;
      while (exponent > 6) {
        mantissa *= 1024n;
        exponent--;
      }
      return `${mantissa}${BIN_BY_EXPONENT.get(exponent * 10) ?? ''}`;
    }
    const { mantissa, exponent } = canonicalDecimal(this.amount);
    return `${mantissa}${decimalSuffix(exponent, format)}`;
  }
}

/** Go's math.Pow10: exact powers for the float range, 0 below 1e-323, +Inf above 1e308. */
function goPow10(n: number): number {
  if (n > 308) return Infinity;
  if (n < -323) return 0;
  return n >= 0 ? 10 ** n : 1 / 10 ** -n;
}
