/**
 * Helpers of the table-driven expression tests: compile + evaluate in one call, and a strict
 * comparison of results (int, uint and double differ; maps compare by entries).
 */

import { expect } from 'chai';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { Quantity } from '../../../lib/apimachinery/quantity.js';
import { compile, CompileErrors, createEnvironment, type CelEnvironment, type EvalResult } from '../../../lib/cel/index.js';

/** An expected runtime error (message matched by the pattern). */
export interface ExpectError {
  readonly error: RegExp;
}

/** An expected compile error (message matched by the pattern). */
export interface ExpectCompileError {
  readonly compileError: RegExp;
}

/** One row of an expression table: the expression and its value or error. */
export type Row = readonly [expression: string, expected: unknown];

/** A uint value. */
export const uint = (n: bigint): UnsignedInt => new UnsignedInt(n);
/** A runtime error whose message matches. */
export const fails = (error: RegExp): ExpectError => ({ error });
/** A compile error whose message matches. */
export const rejects = (compileError: RegExp): ExpectCompileError => ({ compileError });

function entries(v: unknown): Map<string, unknown> | undefined {
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [String(k), x]));
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array)) {
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) return new Map(Object.entries(v));
  }
  return undefined;
}

/** Strict equality of a result and an expectation; plain objects stand for maps. */
export function same(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number') return typeof actual === 'number' && (actual === expected || (Number.isNaN(actual) && Number.isNaN(expected)));
  if (expected === null || typeof expected !== 'object') return actual === expected;
  if (expected instanceof UnsignedInt) return actual instanceof UnsignedInt && actual.valueOf() === expected.valueOf();
  if (expected instanceof Uint8Array) return actual instanceof Uint8Array && Buffer.from(actual).equals(Buffer.from(expected));
  if (expected instanceof Date) return actual instanceof Date && actual.getTime() === expected.getTime();
  if (expected instanceof Duration) return actual instanceof Duration && actual.seconds === expected.seconds && actual.nanos === expected.nanos;
  if (expected instanceof Quantity) return actual instanceof Quantity && actual.toString() === expected.toString();
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => same(actual[i], e));
  const a = entries(actual);
  const e = entries(expected);
  return !!a && !!e && a.size === e.size && [...e].every(([k, x]) => a.has(k) && same(a.get(k), x));
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x instanceof Map ? Object.fromEntries(x) : x)) ?? String(v);
}

/** Compiles and evaluates; throws (test failure) when compilation fails. */
export function evaluate(expression: string, env: CelEnvironment, activation: Record<string, unknown> = {}, budget?: number): EvalResult {
  const program = compile(expression, env);
  if (program instanceof CompileErrors) throw new Error(`compile failed: ${program.message}`);
  return program.evaluate(activation, budget === undefined ? {} : { budget });
}

/** Registers one `it` per row, checking its value, runtime error or compile error. */
export function table(rows: readonly Row[], env: () => CelEnvironment, activation: () => Record<string, unknown> = () => ({})): void {
  for (const [expression, expected] of rows) {
    const want =
      expected && typeof expected === 'object' && 'compileError' in expected
        ? `compile error ${String((expected as ExpectCompileError).compileError)}`
        : expected && typeof expected === 'object' && 'error' in expected
          ? `error ${String((expected as ExpectError).error)}`
          : show(expected);
    it(`${expression} → ${want}`, () => {
      const program = compile(expression, env());
      if (expected && typeof expected === 'object' && 'compileError' in expected) {
        expect(program, 'expected a compile error').to.be.instanceOf(CompileErrors);
        expect((program as CompileErrors).message).to.match((expected as ExpectCompileError).compileError);
        return;
      }
      if (program instanceof CompileErrors) expect.fail(`compile failed: ${program.message}`);
      const result = program.evaluate(activation());
      if (expected && typeof expected === 'object' && 'error' in expected) {
        expect(result.ok, `expected an error, got ${result.ok ? show(result.value) : ''}`).to.equal(false);
        if (!result.ok) expect(result.error.message).to.match((expected as ExpectError).error);
        return;
      }
      if (!result.ok) expect.fail(`evaluation failed: ${result.error.message}`);
      expect(same(result.value, expected), `got ${show(result.value)}`).to.equal(true);
    });
  }
}

let defaultEnv: CelEnvironment | undefined;
/** An environment without variables at the default compatibility version. */
export function plainEnv(): CelEnvironment {
  defaultEnv ??= createEnvironment();
  return defaultEnv;
}
