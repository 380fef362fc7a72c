/**
 * The shape of the engine's checked syntax tree, as far as our passes (validation, semantics,
 * cost) read it, and a child walker that looks through macro expansions. Internal to lib/cel.
 */

/** A checked type as the engine records it on a node. */
export interface CheckedType {
  readonly kind: string;
  readonly name: string;
  readonly type: string;
  readonly valueType?: CheckedType;
  readonly keyType?: CheckedType;
}

/** The evaluate function the engine calls for a node. */
export type EvaluateFn = (ev: unknown, node: Node, ctx: unknown) => unknown;

/** A macro's runtime record (has, cel.bind, optional or / orValue). */
export interface MacroRecord {
  readonly args?: Node[];
  readonly macroHasProps?: Node[];
  readonly var?: string;
  readonly val?: Node;
  readonly exp?: Node;
  readonly functionDesc?: string;
  readonly receiver?: Node;
  readonly arg?: Node;
  evaluate: (ev: unknown, macro: MacroRecord, ctx: unknown) => unknown;
}

/** Arguments of a comprehension node (the expansion of all, exists, exists_one, map, filter). */
export interface ComprehensionArgs {
  readonly kind?: 'quantifier';
  readonly iterable: Node;
  readonly iterVarName: string;
  readonly init: Node;
  readonly step: Node;
  readonly errorsAreFatal: boolean;
}

/** A syntax tree node. `args` depends on `op`; `handle` is set by the checker on most nodes. */
export interface Node {
  readonly op: string;
  readonly args: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly pos: number;
  readonly start: number;
  readonly end: number;
  readonly input: string;
  readonly checkedType?: CheckedType;
  readonly meta: { alternate?: Node; macro?: MacroRecord; evaluate: EvaluateFn; label?: string };
  handle?: (...args: any[]) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
  evaluate: EvaluateFn;
}

const BINARY = new Set(['==', '!=', 'in', '+', '-', '*', '/', '%', '<', '<=', '>', '>=', '&&', '||', '[]', '[?]']);

/** Binary operator nodes (`args` is `[left, right]`). */
export function isBinary(n: Node): boolean {
  return BINARY.has(n.op);
}

/** The nodes a node evaluates, looking through macro expansions. */
export function children(n: Node): Node[] {
  const { alternate, macro } = n.meta;
  if (alternate) return [alternate];
  if (macro) {
    if (macro.functionDesc !== undefined) return [macro.receiver!, macro.arg!];
    if (macro.var !== undefined) return [macro.val!, macro.exp!];
    return macro.macroHasProps ? [macro.macroHasProps[macro.macroHasProps.length - 1]!] : [];
  }
  switch (n.op) {
    case 'value':
    case 'id':
    case 'accuValue':
    case 'accuInc':
      return [];
    case 'accuPush':
    case '!_':
    case '-_':
      return [n.args as Node];
    case '.':
    case '.?':
      return [n.args[0] as Node];
    case 'comprehension': {
      const c = n.args as ComprehensionArgs;
      return [c.iterable, c.init, c.step];
    }
    case 'call':
      return n.args[1] as Node[];
    case 'rcall':
      return [n.args[1] as Node, ...(n.args[2] as Node[])];
    case 'map':
      return (n.args as Node[][]).flat();
    default:
      return n.args as Node[];
  }
}

/** Visits `root` and every node below it, parents first. */
export function walk(root: Node, visit: (n: Node) => void): void {
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    visit(n);
    stack.push(...children(n));
  }
}

/** The evaluate function the engine would use for `n` (its macro, expansion or operator). */
export function baseEvaluate(n: Node): EvaluateFn {
  const { alternate, macro, evaluate } = n.meta;
  if (alternate) return (ev, _node, ctx) => alternate.evaluate(ev, alternate, ctx);
  if (macro) return (ev, _node, ctx) => macro.evaluate(ev, macro, ctx);
  return evaluate;
}
