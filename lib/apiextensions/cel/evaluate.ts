/**
 * Evaluating the validation rules of a custom resource on create and update (upstream
 * apiextensions-apiserver pkg/apiserver/schema/cel validation.go `Validator.Validate`), with
 * upstream's messages. spec 000 § Expression language (CEL) in fields; spec 001 § Limits
 * (expression cost): each evaluation is limited to PER_CALL_LIMIT, all of one object's
 * evaluations share RUNTIME_CEL_COST_BUDGET.
 *
 * Rules run at every present, non-null value of a node that has rules. Transition rules (those
 * reading `oldSelf`) run only where an old value correlates — object fields and map values by
 * name, `map` list items by their keys — unless `optionalOldSelf` is set (then `oldSelf` is an
 * empty optional). With ratcheting, a failing non-transition rule on a value equal to its old
 * value is reported as a warning instead of an error.
 */
import {
  CostLimitExceededError,
  ConversionError,
  MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  type CelEnvironment,
  type PreparedActivation,
  type Program,
} from '../../cel/index.js';
import { duplicate, FieldPath, fieldErrorString, forbidden, invalid, required, type FieldError } from '../../apimachinery/field-errors.js';
import { goQuote } from '../../apimachinery/go-quote.js';
import type { ValidationRule } from '../types.js';
import type { CompiledRule } from './compile.js';
import type { CompiledSchemaRules, RuleNode } from './compile-schema.js';
import { MapList, Ratchet } from './correlation.js';

/** Options of evaluateSchemaRules. */
export interface EvaluateOptions {
  /** Cost all evaluations together may spend; default RUNTIME_CEL_COST_BUDGET. */
  readonly costBudget?: number;
  /** Report errors of unchanged values as warnings (on updates); default true. */
  readonly ratcheting?: boolean;
}

/** Errors (a failing rule, an evaluation error, an exhausted budget) and ratcheted warnings. */
export interface EvaluationOutcome {
  readonly errors: FieldError[];
  readonly warnings: string[];
}

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

interface State {
  budget: number;
  readonly errors: FieldError[];
  readonly warnings: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Upstream prints the path of a rule at the resource root as a nil path: `<nil>`. */
const at = (p: FieldPath): string => p.toString() || '<nil>';

function ruleErrorString(rule: ValidationRule): string {
  const message = typeof rule.message === 'string' ? rule.message : '';
  return message.length > 0 ? message.trim() : String(rule.rule ?? '').trim();
}

function ruleMessageOrDefault(rule: ValidationRule): string {
  const message = typeof rule.message === 'string' ? rule.message : '';
  return message.length === 0 ? `failed rule: ${ruleErrorString(rule)}` : message.trim();
}

function errorForReason(path: FieldPath, type: string, detail: string, reason: unknown): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(at(path), detail);
    case 'FieldValueRequired':
      return required(at(path), detail);
    case 'FieldValueDuplicate':
      return duplicate(at(path), type);
    default:
      return invalid(at(path), type, detail);
  }
}

type MessageOutcome = { message: string } | { fallback: true } | { fatal: string };

function evaluateMessage(program: Program, source: string, activation: PreparedActivation, state: State): MessageOutcome {
  const result = program.evaluate(activation, { budget: PER_CALL_LIMIT });
  const cost = result.cost ?? 0;
  if (cost > state.budget) return { fatal: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run' };
  if (!result.ok && result.error instanceof CostLimitExceededError) {
    return { fatal: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(source)}` };
  }
  state.budget -= cost;
  if (!result.ok || typeof result.value !== 'string') return { fallback: true };
  const message = result.value.trim();
  if (message === '' || message.includes('\n') || Buffer.byteLength(message, 'utf8') > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES) return { fallback: true };
  return { message };
}

/**
 * Activations of one node, prepared once per environment; `oldSelf` is converted only for the
 * expressions that read it (an old value need not fit a changed schema).
 */
class NodeActivations {
  private readonly prepared = new Map<CelEnvironment, Array<PreparedActivation | string>>();

  constructor(
    private readonly self: unknown,
    private readonly oldSelf: unknown,
  ) {}

  /** The activation for `env`, or the conversion error's text. */
  for(env: CelEnvironment, withOldSelf: boolean): PreparedActivation | string {
    let slots = this.prepared.get(env);
    if (!slots) this.prepared.set(env, (slots = []));
    const slot = withOldSelf ? 1 : 0;
    let p = slots[slot];
    if (p === undefined) {
      try {
        p = env.prepare(withOldSelf ? { self: this.self, oldSelf: this.oldSelf } : { self: this.self });
      } catch (err) {
        if (!(err instanceof ConversionError)) throw err;
        p = err.message;
      }
      slots[slot] = p;
    }
    return p;
  }
}

/** Evaluates one rule; returns false when no further rule may run. */
function evaluateRule(cr: CompiledRule, node: RuleNode, path: FieldPath, old: unknown, activations: NodeActivations, ratchet: Ratchet, state: State): boolean {
  const { rule, program } = cr;
  if (cr.error) {
    state.errors.push(invalid(at(path), node.type, `rule compile error: ${cr.error}`));
    return true;
  }
  if (!program) return true;
  const optional = rule.optionalOldSelf === true;
  if (cr.usesOldSelf && old === undefined && !optional) return true;
  const activation = activations.for(program.environment, cr.usesOldSelf || cr.messageUsesOldSelf === true);
  if (typeof activation === 'string') {
    state.errors.push(invalid(at(path), node.type, `${activation} evaluating rule: ${ruleErrorString(rule)}`));
    return true;
  }
  const result = program.evaluate(activation, { budget: PER_CALL_LIMIT });
  const cost = result.cost ?? 0;
  if (cost > state.budget) {
    state.errors.push(invalid(at(path), node.type, OUT_OF_BUDGET));
    return false;
  }
  state.budget -= cost;
  if (!result.ok) {
    const message = result.error.message;
    if (result.error instanceof CostLimitExceededError) {
      state.errors.push(invalid(at(path), node.type, `'${message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`));
      return false;
    }
    const detail = message.startsWith('no such overload')
      ? `'${message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`
      : `${message} evaluating rule: ${ruleErrorString(rule)}`;
    state.errors.push(invalid(at(path), node.type, detail));
    return true;
  }
  if (result.value === true) return true;
  const errorPath = cr.normalizedFieldPath ? path.child(cr.normalizedFieldPath) : path;
  const report = (e: FieldError): void => {
    if (!cr.usesOldSelf && ratchet.shouldRatchet()) state.warnings.push(fieldErrorString(e));
    else state.errors.push(e);
  };
  let detail = ruleMessageOrDefault(rule);
  if (cr.messageExpression) {
    const outcome = evaluateMessage(cr.messageExpression, String(rule.messageExpression), activation, state);
    if ('fatal' in outcome) {
      report(invalid(at(errorPath), node.type, outcome.fatal));
      return false;
    }
    if ('message' in outcome) detail = outcome.message;
  }
  report(errorForReason(errorPath, node.type, detail, rule.reason));
  return true;
}

/** The rules of `node` itself; returns false when the budget is spent. */
function validateExpressions(node: RuleNode, path: FieldPath, obj: unknown, old: unknown, ratchet: Ratchet, state: State): boolean {
  if (node.typeError) {
    state.errors.push(invalid(at(path), node.type, `rule compiler initialization error: ${node.typeError}`));
    return true;
  }
  if (node.rules.length === 0) return true;
  if (state.budget <= 0) {
    state.errors.push(invalid(at(path), node.type, OUT_OF_BUDGET));
    return false;
  }
  const activations = new NodeActivations(obj, old);
  for (const cr of node.rules) {
    if (!evaluateRule(cr, node, path, old, activations, ratchet, state)) return false;
  }
  return true;
}

function validateNode(node: RuleNode, path: FieldPath, obj: unknown, oldValue: unknown, ratchet: Ratchet, state: State): boolean {
  if (obj === null || obj === undefined) return true;
  const old = oldValue === null ? undefined : oldValue;
  if (!validateExpressions(node, path, obj, old, ratchet, state)) return false;
  if (Array.isArray(obj)) {
    if (!node.items) return true;
    const oldItems = node.mapKeys && Array.isArray(old) ? new MapList(old, node.mapKeys) : undefined;
    for (let i = 0; i < obj.length; i++) {
      if (!validateNode(node.items, path.index(i), obj[i], oldItems?.get(obj[i]), ratchet.index(i), state)) return false;
    }
    return true;
  }
  if (!isObject(obj)) return true;
  const oldMap = isObject(old) ? old : undefined;
  if (node.additionalProperties) {
    for (const [k, v] of Object.entries(obj)) {
      if (!validateNode(node.additionalProperties, path.key(k), v, oldMap?.[k], ratchet.key(k), state)) return false;
    }
  }
  if (node.properties) {
    for (const [k, v] of Object.entries(obj)) {
      const sub = node.properties.get(k);
      if (sub && !validateNode(sub, path.child(k), v, oldMap?.[k], ratchet.key(k), state)) return false;
    }
  }
  return true;
}

/**
 * Evaluates every compiled rule against `obj` (the custom resource as JSON) and, on update,
 * `old` (undefined on create). Errors are at paths relative to the resource (`spec.x`, root
 * rules at `<nil>` as upstream prints a nil path), with `Invalid value: "<schema type>"`
 * (or the rule's `reason`), the rule's message, its messageExpression's result or
 * `failed rule: <rule>`. Once the budget is spent evaluation stops with
 * `validation failed due to running out of cost budget, no further validation rules will be
 * run`. Ratcheted errors come back as warning texts (`spec.x: Invalid value: …`). Never throws.
 */
export function evaluateSchemaRules(compiled: CompiledSchemaRules, obj: unknown, old: unknown, opts: EvaluateOptions = {}): EvaluationOutcome {
  const state: State = { budget: opts.costBudget ?? RUNTIME_CEL_COST_BUDGET, errors: [], warnings: [] };
  if (!compiled.root) return { errors: [], warnings: [] };
  const ratchet = (opts.ratcheting ?? true) && old !== undefined && old !== null ? Ratchet.root(obj, old, compiled.schema) : Ratchet.NONE;
  validateNode(compiled.root, FieldPath.of(), obj, old, ratchet, state);
  return { errors: state.errors, warnings: state.warnings };
}
