/**
 * Go `time.Duration` text: parsing (`time.ParseDuration`) and printing (`Duration.String`), with
 * Go's exact grammar, rounding and error messages, because duration flags and fields
 * (`--shutdown-delay-duration=1m30s`, `5m0s`) are written and shown in that form. Pure.
 *
 * Durations are exchanged as milliseconds (a JS number, possibly fractional: `1µs` is `0.001`);
 * internally they are int64 nanoseconds as in Go.
 */

/** Nanoseconds per unit, as in Go's `unitMap` (both spellings of micro are accepted). */
const UNIT_NS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['\u00b5s', 1_000n],
  ['\u03bcs', 1_000n],
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

const NS_PER_MS = 1_000_000;
const MAX_INT64 = (1n << 63n) - 1n;
const ONE_SECOND_NS = 1_000_000_000n;

/** A duration text that Go's `time.ParseDuration` would reject; `message` is Go's error text. */
export class DurationError extends Error {
  override readonly name = 'DurationError';
}

/**
 * Parses a Go duration (`300ms`, `-1.5h`, `2h45m`, `0`) into milliseconds.
 * Grammar: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` with units ns, us (µs), ms, s, m, h; a bare `0` is
 * allowed. Precision is the nanosecond; the result must fit an int64 of nanoseconds.
 * @throws DurationError with Go's message: `time: invalid duration "x"`,
 *   `time: missing unit in duration "1"`, `time: unknown unit "d" in duration "1d"`.
 */
export function parseDuration(text: string): number {
  return Number(parseDurationNanos(text)) / NS_PER_MS;
}

/**
 * Parses a Go duration into int64 nanoseconds (exact). Same grammar and errors as
 * {@link parseDuration}.
 */
export function parseDurationNanos(text: string): bigint {
  const invalid = (): DurationError => new DurationError(`time: invalid duration ${timeQuote(text)}`);
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s.startsWith('-');
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    if (!/^[0-9.]/.test(s)) throw invalid();
    const number = /^([0-9]*)(?:\.([0-9]*))?/.exec(s)!;
    const [whole, intDigits, fracDigits] = number;
    if (intDigits === '' && (fracDigits === undefined || fracDigits === '')) throw invalid();
    s = s.slice(whole.length);
    const unitLength = s.search(/[0-9.]/);
    const unit = unitLength === -1 ? s : s.slice(0, unitLength);
    if (unit === '') throw new DurationError(`time: missing unit in duration ${timeQuote(text)}`);
    s = s.slice(unit.length);
    const unitNs = UNIT_NS.get(unit);
    if (unitNs === undefined) {
      throw new DurationError(`time: unknown unit ${timeQuote(unit)} in duration ${timeQuote(text)}`);
    }
    const intPart = intDigits === '' ? 0n : BigInt(intDigits);
    if (intPart > (1n << 63n) / unitNs) throw invalid();
    let value = intPart * unitNs;
    value += fractionNanos(fracDigits ?? '', unitNs);
    total += value;
    if (total > 1n << 63n) throw invalid();
  }
  if (negative) return -total;
  if (total > MAX_INT64) throw invalid();
  return total;
}

/**
 * The nanoseconds contributed by the fraction digits of one term, computed as Go does: the
 * digits are accumulated while they fit an int64 and scaled in float64 (so `1.0000000001h`
 * rounds like Go).
 */
function fractionNanos(digits: string, unitNs: bigint): bigint {
  let f = 0n;
  let scale = 1;
  for (const digit of digits) {
    if (f > MAX_INT64 / 10n) break;
    const next = f * 10n + BigInt(digit);
    if (next > 1n << 63n) break;
    f = next;
    scale *= 10;
  }
  if (f === 0n) return 0n;
  return BigInt(Math.trunc(Number(f) * (Number(unitNs) / scale)));
}

/**
 * Prints milliseconds as Go prints a `time.Duration`: `0s`, `1.5µs`, `300ms`, `5m0s`,
 * `1h2m3.5s`, `-2s`. The value is rounded to the nanosecond.
 * @throws RangeError for a non-finite value or one beyond the int64 nanosecond range.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) throw new RangeError(`duration ${ms} ms is not finite`);
  const nanos = BigInt(Math.round(ms * NS_PER_MS));
  if (nanos > MAX_INT64 || nanos < -(1n << 63n)) throw new RangeError(`duration ${ms} ms overflows int64 nanoseconds`);
  return formatDurationNanos(nanos);
}

/** Prints int64 nanoseconds as Go's `Duration.String` does (see {@link formatDuration}). */
export function formatDurationNanos(nanos: bigint): string {
  const negative = nanos < 0n;
  let u = negative ? -nanos : nanos;
  let text: string;
  if (u < ONE_SECOND_NS) {
    if (u === 0n) return '0s';
    if (u < 1_000n) text = `${u}ns`;
    else if (u < 1_000_000n) text = `${withFraction(u, 3)}\u00b5s`;
    else text = `${withFraction(u, 6)}ms`;
  } else {
    text = `${withFraction(u % 60_000_000_000n, 9)}s`;
    u /= 60_000_000_000n;
    if (u > 0n) {
      text = `${u % 60n}m${text}`;
      u /= 60n;
      if (u > 0n) text = `${u}h${text}`;
    }
  }
  return negative ? `-${text}` : text;
}

/** `v / 10^precision` printed with the fraction's trailing zeros (and a bare point) dropped. */
function withFraction(v: bigint, precision: number): string {
  const divisor = 10n ** BigInt(precision);
  const fraction = (v % divisor).toString().padStart(precision, '0').replace(/0+$/, '');
  const whole = (v / divisor).toString();
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/**
 * Go's `time.quote`: double quotes, `"` and `\` escaped, control and non-ASCII characters as
 * `\xNN` per UTF-8 byte. The time package deliberately does not use strconv.Quote (go-quote.ts),
 * so `\n` prints as `\x0a` and `é` as `\xc3\xa9` here.
 */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || code >= 0x80) {
      for (const byte of new TextEncoder().encode(ch)) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}
