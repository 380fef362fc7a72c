/**
 * One evaluation of a compiled policy for a request, a binding and one parameter (upstream
 * v1.30 validating `validator.Validate`; spec 001 § Admission control, § Limits): the match
 * conditions (failing one: nothing to decide), then every validation, then the message
 * expressions of the failed ones, then the audit annotations. Each expression has the per-call
 * cost limit; the validations and message expressions share one runtime budget, the audit
 * annotations another. Errors (compilation, runtime, cost) become decisions of the failure
 * policy: Fail denies, Ignore admits. Messages and error texts are upstream's.
 */
import {
  ConversionError,
  MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  type EvalResult,
  type PreparedActivation,
  type Program,
} from '../../../cel/index.js';
import type { CompiledPolicy, CompiledValidation } from './compile.js';
import { type CostMeter, lazyVariables } from './expressions.js';

/** What one validation decided. `reason` is set on a failed validation (default Invalid). */
export interface Decision {
  readonly action: 'admit' | 'deny';
  readonly message: string;
  readonly reason?: string;
  /** The decision comes from an error (compilation, evaluation, cost), not from a false validation. */
  readonly error?: boolean;
}

/** An audit annotation to publish, or the error that stopped its value (failure policy Fail). */
export type AnnotationResult = { readonly key: string; readonly value: string } | { readonly key: string; readonly error: string };

/** The decisions of one evaluation, by validation index, and its audit annotations. */
export interface ValidateResult {
  readonly decisions: readonly Decision[];
  readonly annotations: readonly AnnotationResult[];
}

/** What an evaluation sees: the activation's values (lib/admission/cel/activation.ts) and how to evaluate. */
export interface EvaluationInput {
  /**
   * `object`, `oldObject`, `request`, `namespaceObject`, `params` and `authorizer` as JSON or
   * runtime values; owned by the evaluation, which adds `variables` to it.
   */
  readonly activation: Record<string, unknown>;
  /** Whether authorization decisions are being awaited (a bound authorizer's pending checks). */
  readonly pending: () => boolean;
  /** The runtime cost budget of the validations and of the audit annotations; default RUNTIME_CEL_COST_BUDGET. */
  readonly budget?: number;
}

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';
const NOTHING: ValidateResult = { decisions: [], annotations: [] };
const trimmedBytes = (s: string): number => Buffer.byteLength(s, 'utf8');

function errorDecision(policy: CompiledPolicy, message: string): Decision {
  return { action: policy.failurePolicy === 'Ignore' ? 'admit' : 'deny', message, error: true };
}

/** The message of a failed validation: the message expression's, else the message, else the expression. */
function failureMessage(v: CompiledValidation, fromExpression: unknown): string {
  let message = '';
  if (typeof fromExpression === 'string') {
    message = fromExpression.trim();
    if (trimmedBytes(message) > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES || message.includes('\n')) message = '';
  }
  if (message === '') message = v.message.trim();
  if (message === '') message = `failed expression: ${v.condition.expression.trim()}`;
  return message;
}

/** Evaluates `policy` against `input`. Never throws for an expression's failure. */
export async function validatePolicy(policy: CompiledPolicy, input: EvaluationInput): Promise<ValidateResult> {
  const async = policy.usesAuthorizer;
  if (policy.matchConditions) {
    const m = async ? await policy.matchConditions.evaluateAsync(input.activation) : policy.matchConditions.evaluate(input.activation);
    if ('error' in m) return { decisions: [errorDecision(policy, m.error)], annotations: [] };
    if (!m.matched) return NOTHING;
  }
  const meter: CostMeter = { variableCost: 0 };
  let prepared: PreparedActivation | undefined;
  const values = input.activation;
  if (policy.variablesType) values.variables = lazyVariables(policy.variablesType, policy.variables, () => prepared!, meter, input.pending);
  try {
    prepared = policy.env.prepare(values);
  } catch (err) {
    if (err instanceof ConversionError) return { decisions: [errorDecision(policy, err.message)], annotations: [] };
    throw err;
  }
  const run = (p: Program): EvalResult | Promise<EvalResult> => (async ? p.evaluateAsync(prepared!, { budget: PER_CALL_LIMIT }) : p.evaluate(prepared!, { budget: PER_CALL_LIMIT }));
  /** Runs `p` against the budget `left`: the result and the budget left, or null once the budget is spent. */
  const metered = async (p: Program, left: number): Promise<{ r: EvalResult; left: number } | null> => {
    meter.variableCost = 0;
    const r = await run(p);
    const cost = (r.cost ?? 0) + meter.variableCost;
    return cost > left ? null : { r, left: left - cost };
  };

  let budget = input.budget ?? RUNTIME_CEL_COST_BUDGET;
  const decisions: Decision[] = [];
  const failed: number[] = [];
  for (const v of policy.validations) {
    const c = v.condition;
    if (!c.program) {
      decisions.push(errorDecision(policy, `compilation error: ${c.compileError}`));
      continue;
    }
    const out = await metered(c.program, budget);
    if (!out) return { decisions: [errorDecision(policy, OUT_OF_BUDGET)], annotations: [] };
    budget = out.left;
    if (!out.r.ok) decisions.push(errorDecision(policy, `expression '${c.expression}' resulted in error: ${out.r.error.message}`));
    else if (out.r.value === true) decisions.push({ action: 'admit', message: '' });
    else {
      failed.push(decisions.length);
      decisions.push({ action: 'deny', message: '', reason: v.reason ?? 'Invalid' });
    }
  }
  for (const i of failed) {
    const v = policy.validations[i]!;
    let fromExpression: unknown;
    if (v.messageExpression?.program) {
      const out = await metered(v.messageExpression.program, budget);
      if (!out) {
        const message = `failed messageExpression: ${OUT_OF_BUDGET}`;
        for (let j = 0; j < decisions.length; j++) if (!decisions[j]!.error) decisions[j] = errorDecision(policy, message);
        break;
      }
      budget = out.left;
      if (out.r.ok) fromExpression = out.r.value;
    }
    decisions[i] = { action: 'deny', message: failureMessage(v, fromExpression), reason: decisions[i]!.reason };
  }

  const annotations: AnnotationResult[] = [];
  let annotationBudget = input.budget ?? RUNTIME_CEL_COST_BUDGET;
  const ignore = policy.failurePolicy === 'Ignore';
  for (const a of policy.auditAnnotations) {
    const c = a.value;
    if (!c.program) {
      if (!ignore) annotations.push({ key: a.key, error: `compilation error: ${c.compileError}` });
      continue;
    }
    const out = await metered(c.program, annotationBudget);
    if (!out) return { decisions: [errorDecision(policy, OUT_OF_BUDGET)], annotations: [] };
    annotationBudget = out.left;
    if (!out.r.ok) {
      if (!ignore) annotations.push({ key: a.key, error: `expression '${c.expression}' resulted in error: ${out.r.error.message}` });
    } else if (typeof out.r.value === 'string' && out.r.value.trim() !== '') {
      annotations.push({ key: a.key, value: out.r.value.trim() });
    }
  }
  return { decisions, annotations };
}
