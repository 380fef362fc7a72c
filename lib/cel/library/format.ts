/**
 * `string.format(list)` of the extended string library (version 2, upstream from 1.29):
 * printf-style clauses `%s`, `%d`, `%f`, `%e` (optional `.N` precision), `%x`, `%X`, `%o`, `%b`
 * and `%%`, with the upstream error messages.
 */

import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { formatTimestamp } from '../values.js';
import { LibraryError, type FunctionDecl } from './common.js';

function typeName(v: unknown): string {
  if (v === null) return 'null_type';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof UnsignedInt) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Duration) return 'google.protobuf.Duration';
  if (v instanceof Date) return 'google.protobuf.Timestamp';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Optional) return 'optional_type';
  if (v instanceof Map || Object.getPrototypeOf(v) === Object.prototype) return 'map';
  return (v as { constructor?: { name?: string } }).constructor?.name ?? 'unknown';
}

const failWith = (message: string): never => {
  throw new LibraryError(`error during formatting: ${message}`);
};

function nonFinite(v: number): string {
  return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
}

function integer(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (v instanceof UnsignedInt) return v.valueOf();
  return undefined;
}

function number(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  const i = integer(v);
  return i === undefined ? undefined : Number(i);
}

/** The exact value of a finite, non-negative double as numerator / denominator. */
function exactRational(x: number): [bigint, bigint] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = biased === 0 ? -1074 : biased - 1075;
  return exponent >= 0 ? [mantissa << BigInt(exponent), 1n] : [mantissa, 1n << BigInt(-exponent)];
}

/** round(x × 10^shift) with ties to even, as Go's strconv does on the exact binary value. */
function roundScaled(x: number, shift: number): bigint {
  const [num, den] = exactRational(x);
  const n = shift >= 0 ? num * 10n ** BigInt(shift) : num;
  const d = shift >= 0 ? den : den * 10n ** BigInt(-shift);
  let q = n / d;
  const twice = 2n * (n % d);
  if (twice > d || (twice === d && (q & 1n) === 1n)) q++;
  return q;
}

const signOf = (v: number): string => (v < 0 || Object.is(v, -0) ? '-' : '');

/** Go's %.Nf. */
function fixed(v: number, precision: number): string {
  const digits = roundScaled(Math.abs(v), precision).toString().padStart(precision + 1, '0');
  const whole = digits.slice(0, digits.length - precision);
  return `${signOf(v)}${whole}${precision > 0 ? `.${digits.slice(digits.length - precision)}` : ''}`;
}

/** Go's %.Ne: one digit, the fraction, and a signed exponent of at least two digits. */
function exponential(v: number, precision: number): string {
  const a = Math.abs(v);
  let exp = a === 0 ? 0 : Math.floor(Math.log10(a));
  let digits = roundScaled(a, precision - exp);
  if (digits >= 10n ** BigInt(precision + 1)) {
    exp++;
    digits = roundScaled(a, precision - exp);
  } else if (a !== 0 && digits < 10n ** BigInt(precision)) {
    exp--;
    digits = roundScaled(a, precision - exp);
  }
  const text = digits.toString();
  const mantissa = precision > 0 ? `${text[0]}.${text.slice(1)}` : text;
  return `${signOf(v)}${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

function doubleText(v: number): string {
  if (!Number.isFinite(v)) return nonFinite(v);
  return String(v);
}

function asString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null) return 'null';
  if (typeof v === 'boolean' || typeof v === 'bigint' || v instanceof UnsignedInt) return String(v);
  if (typeof v === 'number') return doubleText(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (v instanceof Date) return formatTimestamp(v);
  if (v instanceof Duration) return v.toString();
  if (Array.isArray(v)) return `[${v.map(asString).join(', ')}]`;
  if (v instanceof Map || (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)) {
    const entries = v instanceof Map ? [...v] : Object.entries(v as object);
    const parts = entries.map(([k, x]) => [asString(k), asString(x)] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `{${parts.map(([k, x]) => `${k}: ${x}`).join(', ')}}`;
  }
  if (v !== null && typeof v === 'object' && 'name' in v && typeof (v as { name: unknown }).name === 'string') return (v as { name: string }).name;
  return failWith(`string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeName(v)}`);
}

function clause(verb: string, precision: number | undefined, v: unknown): string {
  switch (verb) {
    case 's':
      return asString(v);
    case 'd': {
      const i = integer(v);
      if (i !== undefined) return i.toString();
      if (typeof v === 'number' && !Number.isFinite(v)) return nonFinite(v);
      return failWith(`decimal clause can only be used on integers, was given ${typeName(v)}`);
    }
    case 'f':
    case 'e': {
      const n = number(v);
      if (n === undefined) return failWith(`${verb === 'f' ? 'fixed-point' : 'scientific'} clause can only be used on doubles, was given ${typeName(v)}`);
      if (!Number.isFinite(n)) return nonFinite(n);
      return verb === 'f' ? fixed(n, precision ?? 6) : exponential(n, precision ?? 6);
    }
    case 'x':
    case 'X': {
      const i = integer(v);
      let hex: string | undefined;
      if (i !== undefined) hex = i < 0n ? `-${(-i).toString(16)}` : i.toString(16);
      else if (typeof v === 'string') hex = Buffer.from(v, 'utf8').toString('hex');
      else if (v instanceof Uint8Array) hex = Buffer.from(v).toString('hex');
      if (hex === undefined) return failWith(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeName(v)}`);
      return verb === 'X' ? hex.toUpperCase() : hex;
    }
    case 'o': {
      const i = integer(v);
      if (i === undefined) return failWith(`octal clause can only be used on integers, was given ${typeName(v)}`);
      return i < 0n ? `-${(-i).toString(8)}` : i.toString(8);
    }
    case 'b': {
      if (typeof v === 'boolean') return v ? '1' : '0';
      const i = integer(v);
      if (i === undefined) return failWith(`only integers and bools can be formatted as binary, was given ${typeName(v)}`);
      return i < 0n ? `-${(-i).toString(2)}` : i.toString(2);
    }
    default:
      throw new LibraryError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
  }
}

/** Formats `args` into `format`. Throws LibraryError with the upstream messages. */
export function format(template: string, args: readonly unknown[]): string {
  let out = '';
  let next = 0;
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    if (template[i + 1] === '%') {
      out += '%';
      i++;
      continue;
    }
    let precision: number | undefined;
    const m = /^\.(\d+)/.exec(template.slice(i + 1));
    if (m) {
      precision = Number(m[1]);
      i += m[0].length;
    }
    const verb = template[i + 1];
    if (verb === undefined) throw new LibraryError('could not parse formatting clause: unexpected end of string');
    i++;
    if (next >= args.length) throw new LibraryError(`index ${next} out of range`);
    out += clause(verb, precision, args[next++]);
  }
  return out;
}

/** `string.format(list)`. */
export const FORMAT_FUNCTIONS: readonly FunctionDecl[] = [
  { name: 'format', receiver: 'string', params: ['list<dyn>'], result: 'string', handler: (s: string, args: unknown[]) => format(s, args) },
];
