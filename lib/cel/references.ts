/**
 * What a compiled expression reads: whether it selects a given field of a given variable
 * (`claims.email`, `claims.?email`, `has(claims.email)`). Used where a rule depends on which
 * claims an expression looks at (spec 001 § Authentication configuration file: an expression
 * using the email claim must also check the verified flag).
 */
import { children, type Node } from './ast.js';
import type { Program } from './program.js';

/**
 * Whether `program` selects `field` directly on the variable `variable` — `variable.field`,
 * `variable.?field` or `has(variable.field)`, anywhere in the expression, macro arguments
 * included — as upstream's select-expression scan does. An index (`variable['field']`) or a
 * nested select (`variable.other.field`) does not count.
 */
export function selectsField(program: Program, variable: string, field: string): boolean {
  return someNode(program, (n) => {
    if ((n.op !== '.' && n.op !== '.?') || n.args[1] !== field) return false;
    const target = n.args[0] as Node | undefined;
    return target?.op === 'id' && target.args === variable;
  });
}

/**
 * Whether `program` refers to the variable `variable` anywhere (macro arguments included), as
 * upstream's scan of the checked reference map does — e.g. whether a validation rule uses
 * `oldSelf` and so is a transition rule.
 */
export function referencesVariable(program: Program, variable: string): boolean {
  return someNode(program, (n) => n.op === 'id' && n.args === variable);
}

function someNode(program: Program, test: (n: Node) => boolean): boolean {
  const checked = program.environment.engine.parse(program.expression);
  checked.check();
  const seen = new Set<Node>();
  const stack: Node[] = [checked.ast as unknown as Node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    if (test(n)) return true;
    stack.push(...children(n));
    const macro = n.meta?.macro;
    if (macro) stack.push(...(macro.args ?? []), ...(macro.macroHasProps ?? []));
  }
  return false;
}
