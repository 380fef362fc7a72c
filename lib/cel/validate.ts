/**
 * Checks made on a type-checked tree before it becomes a program:
 *   - version gates (spec 000 § Expression language (CEL) in fields): optional types and
 *     cross-type numeric comparisons are rejected in environments below their version;
 *   - constant regular expressions must compile with RE2 (a bad constant pattern is a compile
 *     error; a bad dynamic one fails at runtime).
 */

import { walk, type Node } from './ast.js';
import { LibraryError } from './library/common.js';
import { compileRegex, patternArgument } from './library/regex.js';
import { FEATURE_VERSIONS, formatVersion, type FeatureSet } from './versions.js';

/** A problem found at compile time, located by character offsets in the expression. */
export interface CompileIssue {
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

const NUMERIC = new Set(['int', 'uint', 'double']);
const RELATIONAL = new Set(['<', '<=', '>', '>=']);

function gate(feature: keyof typeof FEATURE_VERSIONS, what: string): string {
  return `${what} are available from compatibility version ${formatVersion(FEATURE_VERSIONS[feature])}`;
}

function issue(n: Node, message: string): CompileIssue {
  return { message, start: n.start, end: n.end };
}

function patternNode(n: Node): Node | undefined {
  if (n.op !== 'call' && n.op !== 'rcall') return undefined;
  const args = (n.op === 'rcall' ? n.args[2] : n.args[1]) as Node[];
  const index = patternArgument(n.args[0] as string, n.op === 'rcall', args.length);
  return index === undefined ? undefined : args[index];
}

/** Problems with `root` in an environment offering `features`; empty when it is acceptable. */
export function validateTree(root: Node, features: FeatureSet): CompileIssue[] {
  const issues: CompileIssue[] = [];
  walk(root, (n) => {
    if (!features.optionalTypes && n.op === 'id' && n.args === 'optional' && n.checkedType?.name === 'OptionalNamespace') {
      issues.push(issue(n, `undeclared reference to 'optional' (${gate('optionalTypes', 'optional types')})`));
    }
    if (!features.crossTypeNumericComparisons && RELATIONAL.has(n.op)) {
      const [l, r] = (n.args as Node[]).map((c) => c.checkedType?.name ?? 'dyn');
      if (l !== r && NUMERIC.has(l!) && NUMERIC.has(r!)) {
        issues.push(
          issue(n, `found no matching overload for '_${n.op}_' applied to '(${l}, ${r})' (${gate('crossTypeNumericComparisons', 'cross-type numeric comparisons')})`),
        );
      }
    }
    const pattern = patternNode(n);
    if (pattern?.op === 'value' && typeof pattern.args === 'string') {
      const re = compileRegex(pattern.args);
      if (re instanceof LibraryError) issues.push(issue(pattern, re.summary));
    }
  });
  return issues.sort((a, b) => a.start - b.start);
}
