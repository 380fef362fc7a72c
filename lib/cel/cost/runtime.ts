/**
 * Runtime cost counter. spec 001 § Limits (expression cost): evaluation halts with an error as
 * soon as the cost exceeds the budget. The counter is wired into a checked syntax tree: every
 * node adds its cost as it evaluates (variables and selections 1, constants 0, calls and
 * operators per cost/functions.ts, list and map literals their base cost, each iteration of a
 * comprehension its loop overhead), and any node refuses to run once the budget is spent —
 * so an exhaustion that the expression's error handling absorbed still ends the evaluation.
 */

import { baseEvaluate, children, isBinary, type ComprehensionArgs, type Node } from '../ast.js';
import { CALL_COST, CONST_COST, LIST_CREATE_BASE_COST, MAP_CREATE_BASE_COST, SELECT_AND_IDENT_COST, iterationOverhead } from './constants.js';
import { callCost, operatorCost } from './functions.js';

/** Evaluation stopped because the cost budget was exceeded. */
export class CostLimitExceededError extends Error {
  override readonly name = 'CostLimitExceededError';
  constructor(readonly limit: number) {
    super('operation cancelled: actual cost limit exceeded');
  }
}

/** The cost accumulated by one evaluation and its limit. */
export class CostTracker {
  cost = 0;
  exceeded = false;
  constructor(readonly limit: number) {}

  /** Adds `n`; throws CostLimitExceededError once the total passes the limit. */
  charge(n: number): void {
    this.cost += n;
    if (this.cost > this.limit) {
      this.exceeded = true;
      throw new CostLimitExceededError(this.limit);
    }
  }

  /** Throws if the budget was already exceeded (the error may have been absorbed). */
  check(): void {
    if (this.exceeded) throw new CostLimitExceededError(this.limit);
  }
}

/** Where instrumented nodes find the tracker of the evaluation in progress. */
export interface TrackerSlot {
  tracker: CostTracker | undefined;
}

function ownCost(n: Node): number {
  const { alternate, macro } = n.meta;
  if (alternate) return 0;
  if (macro) {
    if (macro.functionDesc !== undefined) return CALL_COST;
    return macro.macroHasProps ? Math.max(0, macro.macroHasProps.length - 2) : 0;
  }
  switch (n.op) {
    case 'id':
    case '.':
    case '.?':
    case '[]':
    case '[?]':
      return SELECT_AND_IDENT_COST;
    case 'list':
      return LIST_CREATE_BASE_COST;
    case 'map':
      return MAP_CREATE_BASE_COST;
    case '!_':
    case '-_':
      return CALL_COST;
    case 'value':
      return CONST_COST;
    default:
      // logical operators, conditionals and expansions cost only what they evaluate
      return 0;
  }
}

function wrapEvaluate(n: Node, cost: number, slot: TrackerSlot): void {
  const inner = baseEvaluate(n);
  n.evaluate = (ev, node, ctx) => {
    const t = slot.tracker;
    if (t) {
      t.check();
      t.charge(cost);
    }
    return inner(ev, node, ctx);
  };
}

function wrapHandle(n: Node, slot: TrackerSlot): void {
  const inner = n.handle;
  if (!inner) return;
  if (n.op === 'call' || n.op === 'rcall') {
    const name = n.args[0] as string;
    n.handle = (args: unknown[], a: unknown, b: unknown) => {
      const result = inner(args, a, b);
      slot.tracker?.charge(callCost(name, args, result));
      return result;
    };
  } else if (isBinary(n) && n.op !== '&&' && n.op !== '||' && n.op !== '[]' && n.op !== '[?]') {
    const op = n.op;
    n.handle = (l: unknown, r: unknown, a: unknown, b: unknown) => {
      const result = inner(l, r, a, b);
      slot.tracker?.charge(operatorCost(op, l, r));
      return result;
    };
  }
}

/** Wires the cost counter into every node of a checked tree. */
export function instrument(root: Node, slot: TrackerSlot): void {
  const seen = new Set<Node>();
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    let cost = ownCost(n);
    if (n.op === 'comprehension') {
      const c = n.args as ComprehensionArgs;
      const step = c.step;
      seen.add(step);
      wrapEvaluate(step, ownCost(step) + iterationOverhead(c), slot);
      if (!step.meta.alternate && !step.meta.macro) wrapHandle(step, slot);
      stack.push(...children(step));
      cost = 0;
    }
    // Free nodes (constants, logical operators, expansions) need no wrapper: every costed node
    // checks the budget, which keeps an exhausted evaluation from going on.
    if (cost > 0) wrapEvaluate(n, cost, slot);
    if (!n.meta.alternate && !n.meta.macro) wrapHandle(n, slot);
    stack.push(...children(n));
  }
}
