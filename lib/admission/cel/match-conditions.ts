/**
 * `matchConditions` of admission webhooks and ValidatingAdmissionPolicy (upstream v1.30
 * `matchconditions` matcher over the CEL filter; spec 001 § Admission control): up to 64 named
 * boolean expressions, all of which must hold for the webhook or policy to apply.
 *
 * Outcome, as upstream: any condition false → not matched (naming the first false one, even
 * when others erred); otherwise any error → error (the caller applies its failurePolicy:
 * Fail rejects, Ignore skips); all true → matched. The conditions share one runtime cost
 * budget (default RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS); each expression has also the
 * per-call limit. Errors are worded as upstream's: `expression '<e>' resulted in error: <why>`,
 * `compilation error: compilation failed: …`, `validation failed due to running out of cost
 * budget, no further validation rules will be run`; several are joined as `[a, b]`.
 */
import { CompileErrors, compile, ConversionError, PER_CALL_LIMIT, PreparedActivation, type CelEnvironment, type EvalResult, type Program, RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS } from '../../cel/index.js';
import { environmentFor } from './compiler.js';

/** The outcome of evaluating a condition list. */
export type MatchConditionsResult = { matched: true } | { matched: false; failedCondition: string } | { error: string };

/** A compiled condition list, evaluated per request. */
export interface CompiledMatchConditions {
  /** The number of conditions (0: always matched). */
  readonly size: number;
  /**
   * Evaluates the conditions against `activation` (lib/admission/cel/activation.ts
   * `admissionActivation`) synchronously. An `authorizer` bound to an asynchronous authorizer
   * (lib/cel `bindAuthorizer`) cannot be consulted here: use {@link evaluateAsync} for it.
   * @param costBudget the runtime cost all conditions may spend together.
   */
  evaluate(activation: Record<string, unknown>, costBudget?: number): MatchConditionsResult;
  /** {@link evaluate}, resolving the authorization checks of a bound `authorizer` as the expressions reach them. */
  evaluateAsync(activation: Record<string, unknown>, costBudget?: number): Promise<MatchConditionsResult>;
}

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

interface Compiled {
  name: string;
  expression: string;
  program?: Program;
  /** The compilation error text (`compilation failed: …`, `must evaluate to bool`). */
  compileError?: string;
}

function compileOne(c: { name: string; expression: string }, env: CelEnvironment): Compiled {
  let result: Program | CompileErrors;
  try {
    result = compile(c.expression, env);
  } catch (err) {
    return { ...c, compileError: `compilation failed: ${(err as Error).message}` };
  }
  if (result instanceof CompileErrors) return { ...c, compileError: `compilation failed: ${result.message}` };
  if (result.resultType !== 'bool') return { ...c, compileError: 'must evaluate to bool' };
  return { ...c, program: result };
}

/** Joins errors as upstream's error aggregate: one as itself, several as `[a, b]` without repeats. */
function aggregate(errors: string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

type Evaluate = (program: Program, activation: PreparedActivation) => EvalResult | Promise<EvalResult>;

/**
 * The condition loop shared by the synchronous and asynchronous paths: `run` returns a value
 * or a promise; a generator keeps the two paths one piece of code.
 */
function* conditionLoop(compiled: readonly Compiled[], activation: PreparedActivation | string, costBudget: number, run: Evaluate): Generator<EvalResult | Promise<EvalResult>, MatchConditionsResult, EvalResult> {
  if (typeof activation === 'string') return { error: activation };
  const errors: string[] = [];
  let remaining = costBudget;
  for (const c of compiled) {
    if (!c.program) {
      errors.push(`compilation error: ${c.compileError}`);
      continue;
    }
    const result: EvalResult = yield run(c.program, activation);
    const cost = result.cost ?? 0;
    if (cost > remaining) return { error: OUT_OF_BUDGET };
    remaining -= cost;
    if (!result.ok) {
      errors.push(`expression '${c.expression}' resulted in error: ${result.error.message}`);
      continue;
    }
    if (result.value === false) return { matched: false, failedCondition: c.name };
  }
  if (errors.length > 0) return { error: aggregate(errors) };
  return { matched: true };
}

/**
 * Compiles `conditions` for the environment of `scope` (every admission expression's variables,
 * plus `params` and `authorizer` as asked), as stored expressions (every feature of the current
 * compatibility version: they passed validation when written). A condition that does not compile
 * (or is not boolean) is an error of every evaluation, as upstream.
 */
export function compileMatchConditions(conditions: Array<{ name: string; expression: string }>, scope: { params: boolean; authorizer: boolean }): CompiledMatchConditions {
  const env = environmentFor({ params: scope.params, authorizer: scope.authorizer, stored: true });
  const compiled = conditions.map((c) => compileOne(c, env));
  const prepare = (activation: Record<string, unknown>): PreparedActivation | string => {
    try {
      return env.prepare(activation);
    } catch (err) {
      if (err instanceof ConversionError) return err.message;
      throw err;
    }
  };
  return {
    size: compiled.length,
    evaluate(activation, costBudget = RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS) {
      if (compiled.length === 0) return { matched: true };
      const loop = conditionLoop(compiled, prepare(activation), costBudget, (p, a) => p.evaluate(a, { budget: PER_CALL_LIMIT }));
      let step = loop.next();
      while (!step.done) step = loop.next(step.value as EvalResult);
      return step.value;
    },
    async evaluateAsync(activation, costBudget = RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS) {
      if (compiled.length === 0) return { matched: true };
      const loop = conditionLoop(compiled, prepare(activation), costBudget, (p, a) => p.evaluateAsync(a, { budget: PER_CALL_LIMIT }));
      let step = loop.next();
      while (!step.done) step = loop.next(await step.value);
      return step.value;
    },
  };
}
