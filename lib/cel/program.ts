/**
 * A compiled expression, ready to evaluate against activations. spec 001 § Limits (expression
 * cost): every evaluation is metered against a budget (PER_CALL_LIMIT unless told otherwise)
 * and halts with CostLimitExceededError once it is spent.
 */

import { EvaluationError } from '@marcbachmann/cel-js';
import type { Node } from './ast.js';
import { CostLimitExceededError, CostTracker, instrument, type TrackerSlot } from './cost/runtime.js';
import type { CostEstimate } from './cost/estimate.js';
import type { CelEnvironment } from './environment.js';
import { PreparedActivation } from './environment.js';
import { AuthorizerBinding, AuthorizerValue, PendingAuthorization } from './library/authorizer.js';
import { PER_CALL_LIMIT } from './limits.js';
import { ConversionError } from './values.js';

/** A runtime error of an expression (not a cost exhaustion). `start` / `end` locate it when known. */
export class CelEvaluationError extends Error {
  override readonly name = 'CelEvaluationError';
  constructor(
    message: string,
    readonly start?: number,
    readonly end?: number,
  ) {
    super(message);
  }
}

/** The outcome of one evaluation; `cost` is undefined when cost tracking was off. */
export type EvalResult =
  | { readonly ok: true; readonly value: unknown; readonly cost: number | undefined }
  | { readonly ok: false; readonly error: CelEvaluationError | CostLimitExceededError; readonly cost: number | undefined };

/** Options of Program.evaluate. */
export interface EvaluateOptions {
  /** Cost budget of this evaluation; default PER_CALL_LIMIT. `Infinity` turns tracking off. */
  readonly budget?: number;
}

/** @internal the engine's evaluation function for one checked tree */
export type Evaluator = ((ctx: Record<string, unknown>) => unknown) & { ast: unknown };

/** Rounds of evaluateAsync: each round can only add decisions, so this bounds distinct checks. */
const MAX_AUTHORIZATION_ROUNDS = 64;

/** Any failure of the engine during evaluation becomes an evaluation error of the expression. */
function toEvaluationError(err: unknown): CelEvaluationError | undefined {
  if (err instanceof EvaluationError) return new CelEvaluationError(err.summary, err.range?.start, err.range?.end);
  if (err instanceof PendingAuthorization) return new CelEvaluationError('authorization decisions are pending: evaluate asynchronously');
  if (err instanceof Error) return new CelEvaluationError(err.message);
  return undefined;
}

function bindings(values: Readonly<Record<string, unknown>>): AuthorizerBinding[] {
  return Object.values(values).flatMap((v) => (v instanceof AuthorizerValue && v.binding ? [v.binding] : []));
}

/**
 * A compiled expression. Create with compile(); evaluate any number of times. Its tree carries
 * the cost counter, which charges the tracker of the evaluation in progress (none when tracking
 * is off).
 */
export class Program {
  private readonly slot: TrackerSlot = { tracker: undefined };

  constructor(
    /** The source text. */
    readonly expression: string,
    /** The environment it was compiled in. */
    readonly environment: CelEnvironment,
    /** The checked result type (`bool`, `list<string>`, `dyn`…). */
    readonly resultType: string,
    /** The static worst-case cost estimate. */
    readonly estimatedCost: CostEstimate,
    /** The checked tree's evaluation function, with upstream semantics applied. */
    private readonly evaluator: Evaluator,
  ) {
    instrument(evaluator.ast as Node, this.slot);
  }

  /**
   * Evaluates against `activation` (JSON values by variable name, or a PreparedActivation).
   * Never throws for expression errors: they come back as `{ ok: false, error }`.
   */
  evaluate(activation: Readonly<Record<string, unknown>> | PreparedActivation, options: EvaluateOptions = {}): EvalResult {
    const budget = options.budget ?? PER_CALL_LIMIT;
    let values: Readonly<Record<string, unknown>>;
    try {
      values = this.prepare(activation);
    } catch (err) {
      if (!(err instanceof ConversionError)) throw err;
      return { ok: false, error: new CelEvaluationError(err.message), cost: budget === Infinity ? undefined : 0 };
    }
    return this.run(values, budget === Infinity ? undefined : new CostTracker(budget));
  }

  /**
   * Like evaluate, but resolves authorization checks of authorizers bound with bindAuthorizer:
   * evaluates, asks the authorizer about the checks it reached, and evaluates again until no
   * decision is missing.
   */
  async evaluateAsync(activation: Readonly<Record<string, unknown>> | PreparedActivation, options: EvaluateOptions = {}): Promise<EvalResult> {
    let prepared: PreparedActivation;
    try {
      prepared = activation instanceof PreparedActivation ? activation : this.environment.prepare(activation);
    } catch (err) {
      if (!(err instanceof ConversionError)) throw err;
      return { ok: false, error: new CelEvaluationError(err.message), cost: options.budget === Infinity ? undefined : 0 };
    }
    for (let round = 1; ; round++) {
      const result = this.evaluate(prepared, options);
      const pending = bindings(prepared.values).filter((b) => b.hasPending());
      if (pending.length === 0 || round >= MAX_AUTHORIZATION_ROUNDS) return result;
      await Promise.all(pending.map((b) => b.resolvePending()));
    }
  }

  private prepare(activation: Readonly<Record<string, unknown>> | PreparedActivation): Readonly<Record<string, unknown>> {
    if (activation instanceof PreparedActivation) {
      if (activation.environment !== this.environment) throw new Error('activation was prepared for another environment');
      return activation.values;
    }
    return this.environment.prepare(activation).values;
  }

  private run(values: Readonly<Record<string, unknown>>, tracker: CostTracker | undefined): EvalResult {
    const previous = this.slot.tracker;
    this.slot.tracker = tracker;
    try {
      const value = this.evaluator(values as Record<string, unknown>);
      if (tracker?.exceeded) return { ok: false, error: new CostLimitExceededError(tracker.limit), cost: tracker.cost };
      if (bindings(values).some((b) => b.hasPending())) {
        return { ok: false, error: toEvaluationError(new PendingAuthorization())!, cost: tracker?.cost };
      }
      return { ok: true, value, cost: tracker?.cost };
    } catch (err) {
      if (tracker?.exceeded || err instanceof CostLimitExceededError) {
        return { ok: false, error: new CostLimitExceededError(tracker?.limit ?? 0), cost: tracker?.cost };
      }
      const error = toEvaluationError(err);
      if (!error) throw err;
      return { ok: false, error, cost: tracker?.cost };
    } finally {
      this.slot.tracker = previous;
    }
  }
}
