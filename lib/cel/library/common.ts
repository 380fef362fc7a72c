/**
 * Shared pieces of the function libraries: how a library declares its functions to the engine,
 * how built-in functions are given upstream semantics, and the runtime error type.
 */

import { EvaluationError, type Environment } from '@marcbachmann/cel-js';

/**
 * An error raised by a library function; the evaluator reports it as an evaluation error at the
 * position of the call, with this message.
 */
export class LibraryError extends EvaluationError {
  constructor(message: string) {
    super(message);
  }
}

/** A function overload: `name`, receiver type for member functions, parameter and result types. */
export interface FunctionDecl {
  readonly name: string;
  readonly receiver?: string;
  readonly params: readonly string[];
  readonly result: string;
  readonly handler: (...args: never[]) => unknown;
}

/** Registers overloads on an engine environment (all synchronous). */
export function registerFunctions(env: Environment, decls: readonly FunctionDecl[]): void {
  for (const d of decls) {
    env.registerFunction({
      name: d.name,
      ...(d.receiver ? { receiverType: d.receiver } : {}),
      returnType: d.result,
      params: d.params.map((type, i) => ({ name: `arg${i}`, type })),
      handler: d.handler as (...args: unknown[]) => unknown,
      async: false,
    });
  }
}

/**
 * A replacement for a built-in function of the engine whose semantics differ from upstream.
 * `apply` receives the evaluated receiver and arguments (and the built-in, to call it) and
 * returns the result, or PASS when the values are not of the types it handles (the built-in
 * then runs).
 */
export interface FunctionOverride {
  readonly name: string;
  readonly member: boolean;
  readonly arity: number;
  readonly apply: (args: unknown[], builtin: () => unknown) => unknown;
}

/**
 * A replacement for a built-in operator (`==`, `+`, `-_` …): `apply` gets the operands (`right`
 * undefined for unary operators) and the built-in, and returns the result or PASS.
 */
export interface OperatorOverride {
  readonly op: string;
  readonly apply: (left: unknown, right: unknown, builtin: () => unknown) => unknown;
}

/** Returned by an override to let the built-in handle the call. */
export const PASS: unique symbol = Symbol('pass');

/** Bounds of the 64-bit `int` type. */
export const INT64_MAX = (1n << 63n) - 1n;
export const INT64_MIN = -(1n << 63n);

/** Code points of a string (the unit of string indexes and sizes in expressions). */
export function codePoints(s: string): string[] {
  return Array.from(s);
}

/** Number of code points. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++, n++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return n;
}

/** A 64-bit integer argument as a JS number (indexes and counts). */
export function toIndex(v: bigint): number {
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : v < BigInt(Number.MIN_SAFE_INTEGER) ? Number.MIN_SAFE_INTEGER : Number(v);
}
