/**
 * List library. spec 000 § Expression language (CEL) in fields: `indexOf`, `lastIndexOf`
 * (equatable elements), `min`, `max`, `isSorted` (comparable elements: int, uint, double, bool,
 * duration, timestamp, string, bytes) and `sum` (int, uint, double, duration). `min` / `max` of
 * an empty list fail with `min called on empty list`; int and uint sums fail on overflow.
 */

import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celEquals } from '../equality.js';
import { numericValue } from '../values.js';
import { INT64_MAX, INT64_MIN, LibraryError, type FunctionDecl } from './common.js';

const COMPARABLE = ['int', 'uint', 'double', 'bool', 'google.protobuf.Duration', 'google.protobuf.Timestamp', 'string', 'bytes'];

function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1;
    if (x.value !== y.value) return x.value.codePointAt(0)! < y.value.codePointAt(0)! ? -1 : 1;
  }
}

function compareNumbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'number' && Number.isNaN(a)) return typeof b === 'number' && Number.isNaN(b) ? 0 : 1;
  if (typeof b === 'number' && Number.isNaN(b)) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders two comparable values of the same type (numbers across int, uint and double). */
export function compareValues(a: unknown, b: unknown): number {
  const na = numericValue(a);
  const nb = numericValue(b);
  if (na !== undefined && nb !== undefined) return compareNumbers(na, nb);
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  if (a instanceof Duration && b instanceof Duration) {
    return a.seconds !== b.seconds ? (a.seconds < b.seconds ? -1 : 1) : Math.sign(a.nanos - b.nanos);
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return Math.sign(a.length - b.length);
  }
  throw new LibraryError('no such overload');
}

function extreme(name: 'min' | 'max') {
  return (list: unknown[]): unknown => {
    if (list.length === 0) throw new LibraryError(`${name} called on empty list`);
    let result = list[0];
    for (let i = 1; i < list.length; i++) {
      const c = compareValues(result, list[i]);
      if ((name === 'min' && c > 0) || (name === 'max' && c < 0)) result = list[i];
    }
    return result;
  };
}

function isSorted(list: unknown[]): boolean {
  for (let i = 1; i < list.length; i++) if (compareValues(list[i - 1], list[i]) > 0) return false;
  return true;
}

function sumInt(list: unknown[]): bigint {
  let acc = 0n;
  for (const v of list) {
    acc += v as bigint;
    if (acc > INT64_MAX || acc < INT64_MIN) throw new LibraryError('integer overflow');
  }
  return acc;
}

function sumUint(list: unknown[]): UnsignedInt {
  let acc = 0n;
  for (const v of list) acc += (v as UnsignedInt).valueOf();
  if (acc >= 1n << 64n) throw new LibraryError('unsigned integer overflow');
  return new UnsignedInt(acc);
}

function sumDouble(list: unknown[]): number {
  let acc = 0;
  for (const v of list) acc += Number(numericValue(v));
  return acc;
}

function sumDuration(list: unknown[]): Duration {
  return (list as Duration[]).reduce((acc, d) => acc.addDuration(d), new Duration(0n, 0));
}

function indexOf(list: unknown[], item: unknown): bigint {
  for (let i = 0; i < list.length; i++) if (celEquals(list[i], item)) return BigInt(i);
  return -1n;
}

function lastIndexOf(list: unknown[], item: unknown): bigint {
  for (let i = list.length - 1; i >= 0; i--) if (celEquals(list[i], item)) return BigInt(i);
  return -1n;
}

/** The list library's overloads. */
export const LIST_FUNCTIONS: readonly FunctionDecl[] = [
  { name: 'indexOf', receiver: 'list<A>', params: ['A'], result: 'int', handler: indexOf },
  { name: 'lastIndexOf', receiver: 'list<A>', params: ['A'], result: 'int', handler: lastIndexOf },
  ...COMPARABLE.flatMap((t): FunctionDecl[] => [
    { name: 'min', receiver: `list<${t}>`, params: [], result: t, handler: extreme('min') },
    { name: 'max', receiver: `list<${t}>`, params: [], result: t, handler: extreme('max') },
    { name: 'isSorted', receiver: `list<${t}>`, params: [], result: 'bool', handler: isSorted },
  ]),
  { name: 'sum', receiver: 'list<int>', params: [], result: 'int', handler: sumInt },
  { name: 'sum', receiver: 'list<uint>', params: [], result: 'uint', handler: sumUint },
  { name: 'sum', receiver: 'list<double>', params: [], result: 'double', handler: sumDouble },
  { name: 'sum', receiver: 'list<google.protobuf.Duration>', params: [], result: 'google.protobuf.Duration', handler: sumDuration },
];
