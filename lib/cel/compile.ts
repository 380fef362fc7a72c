/**
 * Compilation: parse, type-check against an environment, validate (version gates, constant
 * regular expressions), estimate the worst-case cost. spec 000 § Expression language (CEL) in
 * fields; spec 001 § Limits (expression cost). Errors carry their position and a message fit to
 * show a user, formatted like upstream (`ERROR: <input>:1:6: undefined field 'foo'` plus the
 * line with a caret).
 */

import { ParseError, TypeError as CelTypeError } from '@marcbachmann/cel-js';
import type { Node } from './ast.js';
import { estimateCost } from './cost/estimate.js';
import type { CelEnvironment } from './environment.js';
import { GATED_FUNCTIONS } from './library/index.js';
import { Program, type Evaluator } from './program.js';
import { applySemantics } from './semantics.js';
import { validateTree, type CompileIssue } from './validate.js';
import { FEATURE_VERSIONS, formatVersion } from './versions.js';

/** Options of compile. */
export interface CompileOptions {
  /** Result types the expression may have (e.g. `['bool']`); `dyn` is accepted only if listed. */
  readonly resultTypes?: readonly string[];
  /** Reject the expression when its estimated worst-case cost exceeds this many units. */
  readonly costLimit?: number;
}

/** One compile error with its 1-based line and column. */
export interface LocatedIssue extends CompileIssue {
  readonly line: number;
  readonly column: number;
}

/** The errors of an expression that did not compile; `message` lists them all. */
export class CompileErrors extends Error {
  override readonly name = 'CompileErrors';
  constructor(
    readonly expression: string,
    readonly issues: readonly LocatedIssue[],
  ) {
    super(issues.map((i) => formatIssue(expression, i)).join('\n'));
  }
}

function locate(expression: string, issue: CompileIssue): LocatedIssue {
  const before = expression.slice(0, issue.start);
  const line = before.split('\n').length;
  const column = issue.start - (before.lastIndexOf('\n') + 1) + 1;
  return { ...issue, line, column };
}

function formatIssue(expression: string, i: LocatedIssue): string {
  const text = expression.split('\n')[i.line - 1] ?? '';
  return `ERROR: <input>:${i.line}:${i.column}: ${i.message}\n | ${text}\n | ${'.'.repeat(i.column - 1)}^`;
}

const LIBRARY_NAMES = {
  quantityLibrary: 'quantity library',
  authorizerLibrary: 'authorizer library',
  stringsLibraryV2: 'string library version 2',
  networkLibraries: 'IP and CIDR library',
} as const;

function engineIssue(err: ParseError | CelTypeError, env: CelEnvironment): CompileIssue {
  const start = err.range?.start ?? 0;
  const end = err.range?.end ?? start;
  let message = err.summary;
  if (err instanceof ParseError) {
    message = `Syntax error: ${message}`;
  } else if (err.code === 'no_such_key') {
    message = `undefined field '${message.replace(/^No such key: /, '')}'`;
  } else if (err.code === 'unknown_variable') {
    message = `undeclared reference to '${message.replace(/^Unknown variable: /, '')}'`;
  } else if (err.code === 'no_matching_overload') {
    // A global function of a library this environment's version lacks is not declared at all, as
    // upstream's checker reports it: `undeclared reference to 'f' (in container '')` at the `(`.
    const name = /^found no matching overload for '(\w+)\(/.exec(message)?.[1];
    const gated = name === undefined ? undefined : GATED_FUNCTIONS.get(name);
    if (name !== undefined && gated && !env.features[gated]) return { message: `undeclared reference to '${name}' (in container '')`, start: start + name.length, end };
    const fn = /for '(?:[^']*\.)?(\w+)\(/.exec(message)?.[1];
    const feature = fn ? GATED_FUNCTIONS.get(fn) : undefined;
    if (feature && !env.features[feature]) {
      message += ` (the ${LIBRARY_NAMES[feature]} is available from compatibility version ${formatVersion(FEATURE_VERSIONS[feature])})`;
    }
  }
  return { message, start, end };
}

function resultTypeIssue(resultType: string, accepted: readonly string[], expression: string): CompileIssue | undefined {
  if (accepted.includes(resultType)) return undefined;
  return { message: `expression must evaluate to ${accepted.join(' or ')}, got ${resultType}`, start: 0, end: expression.length };
}

function costIssue(max: number, limit: number, expression: string): CompileIssue {
  const factor = (max / limit).toFixed(1);
  return {
    message: `estimated cost exceeds budget by factor of ${factor}x (try simplifying the expression, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    start: 0,
    end: expression.length,
  };
}

/**
 * Compiles `expression` in `env`. Returns a Program, or CompileErrors (never throws for a bad
 * expression). The program's `estimatedCost` is always computed; `options.costLimit` turns an
 * excessive estimate into an error.
 */
export function compile(expression: string, env: CelEnvironment, options: CompileOptions = {}): Program | CompileErrors {
  const fail = (issues: CompileIssue[]) => new CompileErrors(expression, issues.map((i) => locate(expression, i)));
  let evaluator: ReturnType<typeof env.engine.parse>;
  try {
    evaluator = env.engine.parse(expression);
  } catch (err) {
    if (err instanceof ParseError) return fail([engineIssue(err, env)]);
    throw err;
  }
  const checked = evaluator.check();
  if (!checked.valid) {
    const err = checked.error!;
    if (err instanceof ParseError || err instanceof CelTypeError) return fail([engineIssue(err, env)]);
    throw err;
  }
  const root = evaluator.ast as unknown as Node;
  const resultType = root.checkedType?.name ?? 'dyn';
  const issues = validateTree(root, env.features, env.objectTypes);
  const typeIssue = options.resultTypes ? resultTypeIssue(resultType, options.resultTypes, expression) : undefined;
  if (typeIssue) issues.push(typeIssue);
  if (issues.length > 0) return fail(issues);
  const estimatedCost = estimateCost(root, env.variables);
  if (options.costLimit !== undefined && estimatedCost.max > options.costLimit) {
    return fail([costIssue(estimatedCost.max, options.costLimit, expression)]);
  }
  applySemantics(root);
  return new Program(expression, env, resultType, estimatedCost, evaluator as unknown as Evaluator);
}
