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
  const checked = program.environment.engine.parse(program.expression);
  checked.check();
  const seen = new Set<Node>();
  const stack: Node[] = [checked.ast as unknown as Node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    if ((n.op === '.' || n.op === '.?') && n.args[1] === field) {
      const target = n.args[0] as Node | undefined;
      if (target?.op === 'id' && target.args === variable) return true;
    }
    stack.push(...children(n));
    const macro = n.meta?.macro;
    if (macro) stack.push(...(macro.args ?? []), ...(macro.macroHasProps ?? []));
  }
  return false;
}
