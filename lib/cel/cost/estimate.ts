/**
 * Static worst-case cost estimate of a checked expression. spec 001 § Limits (expression cost):
 * "Some kinds reject writes whose worst-case estimated cost is too high". Sizes of variables
 * come from their declared types (maxItems, maxLength, maxProperties, or what fits in a request);
 * a comprehension costs its iteration count times the cost of one iteration. The result is a
 * [min, max] range in the same units as the runtime counter.
 */

import { children, type ComprehensionArgs, type Node } from '../ast.js';
import type { DeclType } from '../types.js';
import { UNBOUNDED } from '../types.js';
import { codePointLength } from '../library/common.js';
import { CALL_COST, CONST_COST, LIST_CREATE_BASE_COST, MAP_CREATE_BASE_COST, SELECT_AND_IDENT_COST, iterationOverhead } from './constants.js';
import { add, estimateCall, estimateOperator, fixed, mul, union, UNKNOWN_SIZE, type Operand, type Range } from './functions.js';

/** Estimated cost of an expression, in cost units. */
export type CostEstimate = Range;

interface Est {
  readonly cost: Range;
  readonly size: Range;
  readonly decl?: DeclType;
  readonly elemSize?: Range;
}

type Scope = ReadonlyMap<string, Est>;

const ZERO = fixed(0);

function sizeOfDecl(t: DeclType | undefined): Range {
  if (!t) return UNKNOWN_SIZE;
  switch (t.kind) {
    case 'primitive':
      return t.name === 'string' || t.name === 'bytes' ? { min: 0, max: t.maxElements } : fixed(1);
    case 'list':
    case 'map':
    case 'dyn':
      return { min: 0, max: t.maxElements };
    case 'optional':
      return sizeOfDecl(t.inner);
    default:
      return fixed(1);
  }
}

function elemOf(t: DeclType | undefined): DeclType | undefined {
  if (t?.kind === 'list') return t.elem;
  if (t?.kind === 'map') return t.value;
  if (t?.kind === 'optional') return elemOf(t.inner);
  return undefined;
}

function fieldOf(t: DeclType | undefined, name: string): DeclType | undefined {
  if (t?.kind === 'object') return t.fields.get(name)?.type;
  if (t?.kind === 'map') return t.value;
  if (t?.kind === 'optional') return fieldOf(t.inner, name);
  return undefined;
}

function fromDecl(cost: Range, decl: DeclType | undefined): Est {
  const elem = elemOf(decl);
  return { cost, size: sizeOfDecl(decl), ...(decl ? { decl } : {}), ...(elem ? { elemSize: sizeOfDecl(elem) } : {}) };
}

function literalSize(v: unknown): Range {
  if (typeof v === 'string') return fixed(codePointLength(v));
  if (v instanceof Uint8Array) return fixed(v.length);
  return fixed(1);
}

function typeName(n: Node): string {
  return n.checkedType?.name ?? 'dyn';
}

const operand = (n: Node, e: Est): Operand => ({ size: e.size, type: typeName(n), ...(e.elemSize ? { elemSize: e.elemSize } : {}) });

class Estimator {
  constructor(private readonly variables: ReadonlyMap<string, DeclType>) {}

  /** The estimate of `n` with the comprehension and binding variables in `scope`. */
  run(n: Node, scope: Scope): Est {
    const { alternate, macro } = n.meta;
    if (alternate) return this.run(alternate, scope);
    if (macro) {
      if (macro.functionDesc !== undefined) {
        const r = this.run(macro.receiver!, scope);
        const a = this.run(macro.arg!, scope);
        return { cost: add(add(r.cost, a.cost), fixed(CALL_COST)), size: union(r.size, a.size) };
      }
      if (macro.var !== undefined) {
        const val = this.run(macro.val!, scope);
        return this.run(macro.exp!, new Map([...scope, [macro.var, { ...val, cost: ZERO }]]));
      }
      const props = macro.macroHasProps ?? [];
      return { cost: fixed(Math.max(0, props.length - 1) * SELECT_AND_IDENT_COST), size: fixed(1) };
    }
    switch (n.op) {
      case 'value':
        return { cost: fixed(CONST_COST), size: literalSize(n.args) };
      case 'id': {
        const bound = scope.get(n.args as string);
        if (bound) return { ...bound, cost: fixed(SELECT_AND_IDENT_COST) };
        return fromDecl(fixed(SELECT_AND_IDENT_COST), this.variables.get(n.args as string));
      }
      case '.':
      case '.?': {
        const target = this.run(n.args[0] as Node, scope);
        return fromDecl(add(target.cost, fixed(SELECT_AND_IDENT_COST)), fieldOf(target.decl, n.args[1] as string));
      }
      case '[]':
      case '[?]': {
        const target = this.run(n.args[0] as Node, scope);
        const index = this.run(n.args[1] as Node, scope);
        const est = fromDecl(add(add(target.cost, index.cost), fixed(CALL_COST)), elemOf(target.decl));
        return est.decl || !target.elemSize ? est : { ...est, size: target.elemSize };
      }
      case 'list': {
        const items = (n.args as Node[]).map((c) => this.run(c, scope));
        const cost = items.reduce((acc, e) => add(acc, e.cost), fixed(LIST_CREATE_BASE_COST));
        const elemSize = items.length ? items.map((e) => e.size).reduce(union) : ZERO;
        return { cost, size: fixed(items.length), elemSize };
      }
      case 'map': {
        const items = children(n).map((c) => this.run(c, scope));
        return { cost: items.reduce((acc, e) => add(acc, e.cost), fixed(MAP_CREATE_BASE_COST)), size: fixed((n.args as unknown[]).length) };
      }
      case '!_':
      case '-_': {
        const arg = this.run(n.args as Node, scope);
        return { cost: add(arg.cost, fixed(CALL_COST)), size: fixed(1) };
      }
      case '&&':
      case '||': {
        const l = this.run(n.args[0] as Node, scope);
        const r = this.run(n.args[1] as Node, scope);
        return { cost: { min: l.cost.min, max: add(l.cost, r.cost).max }, size: fixed(1) };
      }
      case '?:': {
        const [c, t, f] = (n.args as Node[]).map((x) => this.run(x, scope)) as [Est, Est, Est];
        return { cost: add(c.cost, union(t.cost, f.cost)), size: union(t.size, f.size), ...(t.decl ? { decl: t.decl } : {}) };
      }
      case 'comprehension':
        return this.comprehension(n.args as ComprehensionArgs, scope);
      case 'accuPush':
        return this.run(n.args as Node, scope);
      case 'accuValue':
      case 'accuInc':
        // the accumulator only appears in a branch that keeps it unchanged
        return { cost: ZERO, size: ZERO };
      case 'call':
      case 'rcall':
        return this.call(n, scope);
      default:
        return this.binary(n, scope);
    }
  }

  private binary(n: Node, scope: Scope): Est {
    const [ln, rn] = n.args as [Node, Node];
    const l = this.run(ln, scope);
    const r = this.run(rn, scope);
    const op = estimateOperator(n.op, operand(ln, l), operand(rn, r));
    return {
      cost: add(add(l.cost, r.cost), op.cost),
      size: op.resultSize ?? fixed(1),
      ...(op.elemSize ? { elemSize: op.elemSize } : {}),
    };
  }

  private call(n: Node, scope: Scope): Est {
    const name = n.args[0] as string;
    const argNodes = n.op === 'rcall' ? [n.args[1] as Node, ...(n.args[2] as Node[])] : (n.args[1] as Node[]);
    const args = argNodes.map((a) => this.run(a, scope));
    const own = estimateCall(name, argNodes.map((a, i) => operand(a, args[i]!)));
    const cost = args.reduce((acc, e) => add(acc, e.cost), own.cost);
    return { cost, size: own.resultSize ?? UNKNOWN_SIZE, ...(own.elemSize ? { elemSize: own.elemSize } : {}) };
  }

  private comprehension(c: ComprehensionArgs, scope: Scope): Est {
    const range = this.run(c.iterable, scope);
    const init = this.run(c.init, scope);
    const elemDecl = range.decl?.kind === 'map' ? range.decl.key : elemOf(range.decl);
    const iterVar: Est = elemDecl ? fromDecl(ZERO, elemDecl) : { cost: ZERO, size: range.elemSize ?? UNKNOWN_SIZE };
    const step = this.run(c.step, new Map([...scope, [c.iterVarName, iterVar]]));
    const perIteration = add(step.cost, fixed(iterationOverhead(c)));
    const cost = add(add(range.cost, init.cost), mul(range.size, perIteration));
    if (c.kind === 'quantifier') return { cost, size: fixed(1) };
    return { cost, size: { min: 0, max: range.size.max }, elemSize: step.size.max === UNBOUNDED ? UNKNOWN_SIZE : step.size };
  }
}

/** The estimated [min, max] cost of a checked tree whose variables have the given types. */
export function estimateCost(root: Node, variables: ReadonlyMap<string, DeclType>): CostEstimate {
  return new Estimator(variables).run(root, new Map()).cost;
}
