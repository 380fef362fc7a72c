/**
 * Gives a checked tree the upstream semantics where the engine's own differ: operators listed
 * in OPERATOR_OVERRIDES (set / map lists, heterogeneous numeric equality, range checks) and
 * built-in functions listed in FUNCTION_OVERRIDES (RE2 `matches`, code-point string functions,
 * conversion range checks) run our implementation first. Applied once per compiled tree, before
 * cost instrumentation.
 */

import { EvaluationError } from '@marcbachmann/cel-js';
import { walk, type Node } from './ast.js';
import { PASS, type FunctionOverride, type OperatorOverride } from './library/common.js';
import { FUNCTION_OVERRIDES } from './library/index.js';
import { OPERATOR_OVERRIDES } from './operators.js';

const functions = new Map<string, FunctionOverride>(
  FUNCTION_OVERRIDES.map((o) => [`${o.member ? 'rcall' : 'call'}:${o.name}:${o.arity}`, o]),
);

const operators = new Map<string, OperatorOverride[]>();
for (const o of OPERATOR_OVERRIDES) operators.set(o.op, [...(operators.get(o.op) ?? []), o]);

type Handle = (...args: unknown[]) => unknown;

function located<T>(n: Node, f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw err instanceof EvaluationError ? err.withAst(n as never) : err;
  }
}

function patchOperator(n: Node, inner: Handle, list: OperatorOverride[]): void {
  if (n.op === '-_') {
    n.handle = (v: unknown, a: unknown, b: unknown) => {
      const builtin = () => inner(v, a, b);
      const result = located(n, () => list[0]!.apply(v, undefined, builtin));
      return result === PASS ? builtin() : result;
    };
    return;
  }
  n.handle = (l: unknown, r: unknown, a: unknown, b: unknown) => {
    const builtin = () => inner(l, r, a, b);
    for (const o of list) {
      const result = located(n, () => o.apply(l, r, builtin));
      if (result !== PASS) return result;
    }
    return builtin();
  };
}

function patchCall(n: Node, inner: Handle, o: FunctionOverride): void {
  n.handle = (args: unknown[], a: unknown, b: unknown) => {
    const builtin = () => inner(args, a, b);
    const result = located(n, () => o.apply(args, builtin));
    return result === PASS ? builtin() : result;
  };
}

/** Installs the upstream semantics on every node of `root` that needs them. */
export function applySemantics(root: Node): void {
  walk(root, (n) => {
    const inner = n.handle as Handle | undefined;
    if (!inner || n.meta.alternate || n.meta.macro) return;
    if (n.op === 'call' || n.op === 'rcall') {
      const argCount = n.op === 'rcall' ? (n.args[2] as Node[]).length : (n.args[1] as Node[]).length;
      const o = functions.get(`${n.op}:${n.args[0]}:${argCount}`);
      if (o) patchCall(n, inner, o);
      return;
    }
    const list = operators.get(n.op);
    if (list) patchOperator(n, inner, list);
  });
}
