/**
 * Checks made on a type-checked tree before it becomes a program:
 *   - version gates (spec 000 § Expression language (CEL) in fields): optional types and
 *     cross-type numeric comparisons are rejected in environments below their version;
 *   - constant regular expressions must compile with RE2 (a bad constant pattern is a compile
 *     error; a bad dynamic one fails at runtime).
 */

import { walk, type Node } from './ast.js';
import { celTypeName, type ObjectDecl } from './types.js';
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

/**
 * The engine checks only the variable of a `has()` test; this checks every selected field of
 * a schema object type exists, as the upstream checker does.
 */
function presenceTestIssue(n: Node, objectTypes: ReadonlyMap<string, ObjectDecl>): CompileIssue | undefined {
  const props = n.meta.macro?.macroHasProps;
  if (!props || props.length < 2) return undefined;
  let typeName = props[props.length - 1]!.checkedType?.name;
  for (let i = props.length - 2; i >= 0; i--) {
    const object = typeName === undefined ? undefined : objectTypes.get(typeName);
    if (!object) return undefined;
    const field = props[i]!.args[1] as string;
    const declared = object.fields.get(field);
    if (!declared) return issue(props[i]!, `undefined field '${field}'`);
    typeName = celTypeName(declared.type);
  }
  return undefined;
}

/**
 * Problems with `root` in an environment offering `features` and declaring `objectTypes`;
 * empty when it is acceptable.
 */
export function validateTree(root: Node, features: FeatureSet, objectTypes: ReadonlyMap<string, ObjectDecl>): CompileIssue[] {
  const issues: CompileIssue[] = [];
  walk(root, (n) => {
    const presence = presenceTestIssue(n, objectTypes);
    if (presence) issues.push(presence);
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
