/**
 * Cost of function calls and operators, both for the runtime counter (from actual values) and
 * for the static estimate (from size ranges). spec 001 § Limits (expression cost); the figures
 * follow upstream (k8s CEL libraries and cel-go) except where the spec fixes them.
 */

import { UNBOUNDED } from '../types.js';
import { codePointLength } from '../library/common.js';
import { AUTHORIZATION_CHECK_COST, CALL_COST, STRING_TRAVERSAL_COST_FACTOR } from './constants.js';

/** An inclusive [min, max] range of sizes or costs; max saturates at UNBOUNDED. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

/** A fixed range. */
export const fixed = (n: number): Range => ({ min: n, max: n });
/** A size nothing is known about. */
export const UNKNOWN_SIZE: Range = { min: 0, max: UNBOUNDED };

const sat = (n: number): number => (n >= UNBOUNDED || !Number.isFinite(n) ? UNBOUNDED : n);
/** Sum of ranges. */
export const add = (a: Range, b: Range): Range => ({ min: sat(a.min + b.min), max: sat(a.max + b.max) });
/** Product of ranges. */
export const mul = (a: Range, b: Range): Range => ({ min: sat(a.min * b.min), max: sat(a.max * b.max) });
/** Range scaled by a per-unit factor, rounded up. */
export const factor = (a: Range, f: number): Range => ({ min: sat(Math.ceil(a.min * f)), max: sat(Math.ceil(a.max * f)) });
/** Smallest range covering both. */
export const union = (a: Range, b: Range): Range => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });
const atLeastOne = (a: Range): Range => ({ min: Math.max(1, a.min), max: Math.max(1, a.max) });

/** Size of a runtime value as `size()` counts it (code points, bytes, items, entries); 1 otherwise. */
export function actualSize(v: unknown): number {
  if (typeof v === 'string') return codePointLength(v);
  if (v instanceof Uint8Array || Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.keys(v).length;
  return 1;
}

const traversal = (n: number): number => Math.ceil(n * STRING_TRAVERSAL_COST_FACTOR);
const isText = (v: unknown): boolean => typeof v === 'string' || v instanceof Uint8Array;

const NOMINAL = new Set([
  'serviceAccount', 'path', 'group', 'resource', 'subresource', 'namespace', 'name', 'allowed', 'reason',
  'sign', 'asInteger', 'isInteger', 'asApproximateFloat', 'isGreaterThan', 'isLessThan', 'compareTo', 'add', 'sub',
]);
const LIST_TRAVERSALS = new Set(['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf']);
const STRING_TRAVERSALS = new Set(['url', 'lowerAscii', 'upperAscii', 'substring', 'trim', 'quantity', 'isQuantity', 'string', 'bytes', 'format']);
const REGEX = new Set(['matches', 'find', 'findAll']);

/**
 * Runtime cost of one call. `args` holds the receiver first for member calls. Regex functions
 * cost pattern length × input length (spec); string functions a traversal of their input.
 */
export function callCost(name: string, args: readonly unknown[], result: unknown): number {
  if (name === 'check') return AUTHORIZATION_CHECK_COST;
  if (NOMINAL.has(name)) return CALL_COST;
  if (LIST_TRAVERSALS.has(name) && args.length > 0) {
    return typeof args[0] === 'string' ? traversal(actualSize(args[0])) : Math.max(CALL_COST, actualSize(args[0]));
  }
  if (STRING_TRAVERSALS.has(name) && isText(args[0])) return Math.max(CALL_COST, traversal(actualSize(args[0])));
  if ((name === 'replace' || name === 'split') && typeof args[0] === 'string') return Math.max(CALL_COST, traversal(2 * actualSize(args[0])));
  if (name === 'join') return Math.max(CALL_COST, traversal(2 * actualSize(result)));
  if (REGEX.has(name) && args.length >= 2) return Math.max(CALL_COST, actualSize(args[0]) * actualSize(args[1]));
  if (name === 'contains' && args.length === 2) return Math.max(CALL_COST, traversal(actualSize(args[0])) * traversal(actualSize(args[1])));
  if ((name === 'startsWith' || name === 'endsWith') && args.length === 2) return Math.max(CALL_COST, traversal(actualSize(args[1])));
  return CALL_COST;
}

/** Runtime cost of an operator applied to evaluated operands. */
export function operatorCost(op: string, left: unknown, right: unknown): number {
  switch (op) {
    case '==':
    case '!=':
      return Math.max(CALL_COST, traversal(Math.min(actualSize(left), actualSize(right))));
    case '<':
    case '<=':
    case '>':
    case '>=':
      return isText(left) ? Math.max(CALL_COST, traversal(Math.min(actualSize(left), actualSize(right)))) : CALL_COST;
    case '+':
      return isText(left) ? Math.max(CALL_COST, traversal(actualSize(left) + actualSize(right))) : CALL_COST;
    case 'in':
      return Array.isArray(right) ? Math.max(CALL_COST, right.length) : CALL_COST;
    default:
      return CALL_COST;
  }
}

/** What the estimator knows about one operand: its size range and expression type name. */
export interface Operand {
  readonly size: Range;
  readonly type: string;
  /** For lists: the size range of one element. */
  readonly elemSize?: Range;
}

/** A call's estimated own cost (operands excluded) and the size of its result when known. */
export interface CallEstimate {
  readonly cost: Range;
  readonly resultSize?: Range;
  readonly elemSize?: Range;
}

const isTextType = (t: string): boolean => t === 'string' || t === 'bytes';
const isListType = (t: string): boolean => t.startsWith('list<') || t === 'list';

/** Static estimate of one call; `args` holds the receiver first for member calls. */
export function estimateCall(name: string, args: readonly Operand[]): CallEstimate {
  const first = args[0];
  if (name === 'check') return { cost: fixed(AUTHORIZATION_CHECK_COST) };
  if (NOMINAL.has(name)) return { cost: fixed(CALL_COST) };
  if (LIST_TRAVERSALS.has(name) && first) {
    if (!isListType(first.type)) return { cost: atLeastOne(factor(first.size, STRING_TRAVERSAL_COST_FACTOR)) };
    const elem = isTextType(first.type.slice(5, -1)) && first.elemSize ? add(fixed(1), factor(first.elemSize, STRING_TRAVERSAL_COST_FACTOR)) : fixed(1);
    return { cost: atLeastOne(mul(first.size, elem)) };
  }
  if (first && STRING_TRAVERSALS.has(name) && isTextType(first.type)) {
    const sameSize = ['lowerAscii', 'upperAscii', 'substring', 'trim'].includes(name) ? { resultSize: { min: 0, max: first.size.max } } : {};
    return { cost: atLeastOne(factor(first.size, STRING_TRAVERSAL_COST_FACTOR)), ...sameSize };
  }
  if (first && (name === 'replace' || name === 'split') && first.type === 'string') {
    const cost = atLeastOne(factor(first.size, 2 * STRING_TRAVERSAL_COST_FACTOR));
    if (name === 'split') return { cost, resultSize: { min: 0, max: first.size.max }, elemSize: { min: 0, max: first.size.max } };
    const replacement = args[2]?.size ?? UNKNOWN_SIZE;
    const grow = Math.max(1, replacement.max);
    return { cost, resultSize: { min: 0, max: sat((first.size.max + 1) * grow) } };
  }
  if (name === 'join' && first) {
    const elem = first.elemSize ?? UNKNOWN_SIZE;
    const sep = args[1]?.size ?? fixed(0);
    const size = add(mul(first.size, elem), mul(sep, first.size));
    return { cost: atLeastOne(factor(size, STRING_TRAVERSAL_COST_FACTOR)), resultSize: size };
  }
  if (REGEX.has(name) && args.length >= 2) {
    const result = name === 'findAll' ? { resultSize: { min: 0, max: args[0]!.size.max }, elemSize: { min: 0, max: args[0]!.size.max } } : {};
    return { cost: atLeastOne(mul(args[0]!.size, args[1]!.size)), ...result };
  }
  if (name === 'contains' && args.length === 2) {
    return { cost: atLeastOne(mul(factor(args[0]!.size, STRING_TRAVERSAL_COST_FACTOR), factor(args[1]!.size, STRING_TRAVERSAL_COST_FACTOR))) };
  }
  if ((name === 'startsWith' || name === 'endsWith') && args.length === 2) {
    return { cost: atLeastOne(factor(args[1]!.size, STRING_TRAVERSAL_COST_FACTOR)) };
  }
  return { cost: fixed(CALL_COST) };
}

/** Static estimate of an operator's own cost and result size. */
export function estimateOperator(op: string, left: Operand, right: Operand): CallEstimate {
  const minSize = { min: Math.min(left.size.min, right.size.min), max: Math.min(left.size.max, right.size.max) };
  switch (op) {
    case '==':
    case '!=':
      return { cost: atLeastOne(factor(minSize, STRING_TRAVERSAL_COST_FACTOR)) };
    case '<':
    case '<=':
    case '>':
    case '>=':
      return { cost: isTextType(left.type) ? atLeastOne(factor(minSize, STRING_TRAVERSAL_COST_FACTOR)) : fixed(CALL_COST) };
    case '+': {
      const size = add(left.size, right.size);
      if (isTextType(left.type)) return { cost: atLeastOne(factor(size, STRING_TRAVERSAL_COST_FACTOR)), resultSize: size };
      if (isListType(left.type)) {
        const elemSize = left.elemSize && right.elemSize ? union(left.elemSize, right.elemSize) : undefined;
        return { cost: fixed(CALL_COST), resultSize: size, ...(elemSize ? { elemSize } : {}) };
      }
      return { cost: fixed(CALL_COST) };
    }
    case 'in':
      return { cost: isListType(right.type) ? atLeastOne(right.size) : fixed(CALL_COST) };
    default:
      return { cost: fixed(CALL_COST) };
  }
}
