/**
 * Compiling the CEL expressions of a ValidatingAdmissionPolicy into programs (upstream v1.30
 * `plugin/cel` compiler as the policy plugin uses it: stored-expression environment, result
 * types checked exactly), and the lazily evaluated `variables` object of one evaluation
 * (upstream's composition: a variable is evaluated at most once per evaluation, the first time
 * an expression reads it; its cost is charged to the policy's budget; an error of a variable is
 * an error of the expression reading it). spec 001 § Admission control, § Limits.
 */
import { compile, CompileErrors, PER_CALL_LIMIT, type CelEnvironment, type EvalResult, type PreparedActivation, type Program } from '../../../cel/index.js';
import { LibraryError } from '../../../cel/library/common.js';
import type { ObjectDecl } from '../../../cel/types.js';
import { CelObject, objectClass } from '../../../cel/values.js';

/** What an expression must evaluate to (upstream `ReturnTypes`). */
export type ResultKind = 'bool' | 'string' | 'string-or-null' | 'any';

const ACCEPTED: Record<Exclude<ResultKind, 'any'>, { types: readonly string[]; reason: string }> = {
  bool: { types: ['bool'], reason: 'must evaluate to bool' },
  string: { types: ['string'], reason: 'must evaluate to string' },
  'string-or-null': { types: ['string', 'null'], reason: 'must evaluate to one of [string null_type]' },
};

/** An expression compiled once: its program, or upstream's compile error text. */
export interface CompiledExpression {
  readonly expression: string;
  readonly program?: Program;
  /** `compilation failed: ERROR: <input>:1:1: …` or `must evaluate to bool`. */
  readonly compileError?: string;
}

/** Compiles `expression` in `env`; never throws for a bad expression. */
export function compileExpression(expression: string, env: CelEnvironment, result: ResultKind): CompiledExpression {
  let compiled: Program | CompileErrors;
  try {
    compiled = compile(expression, env);
  } catch (err) {
    return { expression, compileError: `compilation failed: ${(err as Error).message}` };
  }
  if (compiled instanceof CompileErrors) return { expression, compileError: `compilation failed: ${compiled.message}` };
  if (result !== 'any' && !ACCEPTED[result].types.includes(compiled.resultType)) return { expression, compileError: ACCEPTED[result].reason };
  return { expression, program: compiled };
}

/** A policy variable, compiled in the policy's environment. */
export interface CompiledVariable extends CompiledExpression {
  readonly name: string;
  /** Its field name in the `variables` object type (the name, escaped where CEL needs it). */
  readonly ident: string;
}

/** The running cost of one policy evaluation: what variables spent since the last look. */
export interface CostMeter {
  variableCost: number;
}

/** Thrown inside an evaluation, so the expression reading a bad variable fails as upstream's error value does. */
class VariableError extends LibraryError {}

/**
 * The `variables` value of one evaluation: an object of the environment's `variables` type whose
 * fields are computed on first read, against `activation()` (set once prepared), each with the
 * per-call cost limit; the cost of each computation is added to `meter`. A variable read while
 * it is being computed (a reference to itself) is an error. A failure while `pending()` says
 * authorization decisions are awaited is not kept: the evaluation is retried once they are known.
 */
export function lazyVariables(
  decl: ObjectDecl,
  variables: readonly CompiledVariable[],
  activation: () => PreparedActivation,
  meter: CostMeter,
  pending: () => boolean = () => false,
): CelObject {
  const value = new (objectClass(decl))();
  const byIdent = new Map(variables.map((v) => [v.ident, v]));
  const computed = new Map<string, { value: unknown } | { error: string }>();
  const computing = new Set<string>();
  const compute = (v: CompiledVariable): { value: unknown } | { error: string } => {
    if (v.compileError) return { error: `composited variable "${v.name}" fails to compile: ${v.compileError}` };
    if (computing.has(v.ident)) return { error: `composited variable "${v.name}" fails to evaluate: it refers to itself` };
    computing.add(v.ident);
    let r: EvalResult;
    try {
      r = v.program!.evaluate(activation(), { budget: PER_CALL_LIMIT });
    } finally {
      computing.delete(v.ident);
    }
    meter.variableCost += r.cost ?? 0;
    return r.ok ? { value: r.value } : { error: `composited variable "${v.name}" fails to evaluate: ${r.error.message}` };
  };
  const get = (ident: string): unknown => {
    const v = byIdent.get(ident);
    if (!v) return undefined;
    let outcome = computed.get(ident);
    if (!outcome) {
      outcome = compute(v);
      if (!('error' in outcome) || !pending()) computed.set(ident, outcome);
    }
    if ('error' in outcome) throw new VariableError(outcome.error);
    return outcome.value;
  };
  Object.defineProperty(value, 'get', { value: get });
  Object.defineProperty(value, 'has', { value: (ident: string) => byIdent.has(ident) });
  return value;
}
