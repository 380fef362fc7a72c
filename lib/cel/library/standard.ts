/**
 * Standard-library behaviour the engine lacks or gets wrong, brought to the language
 * definition (and upstream's implementation): the missing conversions `int(uint)`,
 * `int(timestamp)`, identity `duration(duration)` / `timestamp(timestamp)`; ordering of bytes;
 * range errors of int / uint conversions from double, of durations (±10000 years) and of
 * timestamps (years 1–9999); `string(bytes)` requires UTF-8; int negation and division overflow;
 * list membership and equality across numeric types.
 */

import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { formatTimestamp } from '../values.js';
import { compareValues } from './lists.js';
import { INT64_MAX, INT64_MIN, LibraryError, PASS, type FunctionDecl, type FunctionOverride, type OperatorOverride } from './common.js';

const TWO_63 = 9223372036854775808;
const TWO_64 = 18446744073709551616;
/** Largest duration: 10000 years of seconds. */
const MAX_DURATION_SECONDS = 315_576_000_000n;
/** Timestamps range over 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999999999Z. */
const MIN_TIMESTAMP_MS = -62_135_596_800_000;
const MAX_TIMESTAMP_MS = 253_402_300_799_999;

const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';

function checkDuration(d: unknown): unknown {
  if (d instanceof Duration && (d.seconds > MAX_DURATION_SECONDS || d.seconds < -MAX_DURATION_SECONDS)) {
    throw new LibraryError('duration out of range');
  }
  return d;
}

function checkTimestamp(t: unknown): unknown {
  if (t instanceof Date && !(t.getTime() >= MIN_TIMESTAMP_MS && t.getTime() <= MAX_TIMESTAMP_MS)) {
    throw new LibraryError('timestamp out of range');
  }
  return t;
}

function checkInt(v: unknown): unknown {
  if (typeof v === 'bigint' && (v > INT64_MAX || v < INT64_MIN)) throw new LibraryError('integer overflow');
  return v;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Overloads the engine does not have. */
export const STANDARD_FUNCTIONS: readonly FunctionDecl[] = [
  {
    name: 'int',
    params: ['uint'],
    result: 'int',
    handler: (u: UnsignedInt) => checkInt(u.valueOf()),
  },
  { name: 'int', params: [TS], result: 'int', handler: (t: Date) => BigInt(Math.floor(t.getTime() / 1000)) },
  { name: 'duration', params: [DUR], result: DUR, handler: (d: Duration) => d },
  { name: 'string', params: [TS], result: 'string', handler: formatTimestamp },
  { name: 'string', params: [DUR], result: 'string', handler: (d: Duration) => d.toString() },
  { name: 'timestamp', params: [TS], result: TS, handler: (t: Date) => t },
];

/** Built-in conversions with range and encoding checks. */
export const STANDARD_OVERRIDES: readonly FunctionOverride[] = [
  {
    name: 'int',
    member: false,
    arity: 1,
    apply: ([v]) => {
      if (typeof v !== 'number') return PASS;
      if (!(v > -TWO_63 && v < TWO_63)) throw new LibraryError('range error converting double to int');
      return BigInt(Math.trunc(v));
    },
  },
  {
    name: 'uint',
    member: false,
    arity: 1,
    apply: ([v]) => {
      if (typeof v !== 'number') return PASS;
      if (!(v > -1 && v < TWO_64)) throw new LibraryError('range error converting double to uint');
      return new UnsignedInt(BigInt(Math.trunc(v)));
    },
  },
  {
    name: 'string',
    member: false,
    arity: 1,
    apply: ([v]) => {
      if (!(v instanceof Uint8Array)) return PASS;
      try {
        return decoder.decode(v);
      } catch {
        throw new LibraryError('invalid UTF-8 in bytes, cannot convert to string');
      }
    },
  },
  { name: 'duration', member: false, arity: 1, apply: ([v], builtin) => (typeof v === 'string' ? checkDuration(builtin()) : PASS) },
];

const isTime = (v: unknown): boolean => v instanceof Date || v instanceof Duration;

/** Operators with range checks and heterogeneous numeric membership. */
export const STANDARD_OPERATORS: readonly OperatorOverride[] = [
  { op: '-_', apply: (v, _r, builtin) => (typeof v === 'bigint' ? checkInt(builtin()) : PASS) },
  { op: '/', apply: (l, r, builtin) => (typeof l === 'bigint' && typeof r === 'bigint' ? checkInt(builtin()) : PASS) },
  {
    op: '%',
    apply: (l, r) => {
      if (l === INT64_MIN && r === -1n) throw new LibraryError('integer overflow');
      return PASS;
    },
  },
  { op: '+', apply: (l, r, builtin) => (isTime(l) || isTime(r) ? checkTimestamp(checkDuration(builtin())) : PASS) },
  { op: '-', apply: (l, r, builtin) => (isTime(l) || isTime(r) ? checkTimestamp(checkDuration(builtin())) : PASS) },
];

/** `bytes < bytes` and the other orderings (lexicographic by byte). */
export const BYTES_ORDERING: ReadonlyArray<readonly [string, (a: Uint8Array, b: Uint8Array) => boolean]> = [
  ['<', (a, b) => compareValues(a, b) < 0],
  ['<=', (a, b) => compareValues(a, b) <= 0],
  ['>', (a, b) => compareValues(a, b) > 0],
  ['>=', (a, b) => compareValues(a, b) >= 0],
];
