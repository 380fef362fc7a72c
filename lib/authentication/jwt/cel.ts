/**
 * The expressions of an AuthenticationConfiguration (spec 001 § Authentication configuration
 * file): claim mappings and claim validation rules over `claims` (the token's claims, a
 * `map<string, dyn>`), user validation rules over `user` (username, uid, groups, extra). Compiled
 * once per file load through lib/cel, in the environment of stored expressions (every library, as
 * upstream compiles these), evaluated with lib/cel's per-call cost budget.
 */
import {
  type CelEnvironment,
  CompileErrors,
  compile as compileProgram,
  type OpenAPISchema,
  type PreparedActivation,
  type Program,
  createEnvironment,
} from '../../cel/index.js';

/** The variable of claim expressions. */
export const CLAIMS_VARIABLE = 'claims';
/** The variable of user validation rules. */
export const USER_VARIABLE = 'user';

/** `user`: the shape of the authenticated user (upstream's UserInfo), every field always present. */
const USER_SCHEMA: OpenAPISchema = {
  type: 'object',
  properties: {
    username: { type: 'string' },
    uid: { type: 'string' },
    groups: { type: 'array', items: { type: 'string' } },
    extra: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
};

let claimsEnv: CelEnvironment | undefined;
let userEnv: CelEnvironment | undefined;

/** The environment of claim expressions (`claims`), built once per process. */
export function claimsEnvironment(): CelEnvironment {
  claimsEnv ??= createEnvironment({ stored: true, variables: [{ name: CLAIMS_VARIABLE, type: 'map<string, dyn>' }] });
  return claimsEnv;
}

/** The environment of user validation rules (`user`), built once per process. */
export function userEnvironment(): CelEnvironment {
  userEnv ??= createEnvironment({ stored: true, variables: [{ name: USER_VARIABLE, schema: USER_SCHEMA }] });
  return userEnv;
}

/**
 * What an expression must produce: `bool` (validation rules), `string` (username, uid) or
 * `stringOrList` (groups, extra values: a string or a list of strings).
 */
export type ResultKind = 'bool' | 'string' | 'stringOrList';

/** The checked types each result kind accepts; `dyn` is checked when evaluated. */
const ACCEPTED: Readonly<Record<ResultKind, readonly string[]>> = {
  bool: ['bool'],
  string: ['string', 'dyn'],
  stringOrList: ['string', 'list<string>', 'list<dyn>', 'dyn', 'null'],
};

const MISMATCH: Readonly<Record<ResultKind, string>> = {
  bool: 'must evaluate to bool',
  string: 'must evaluate to string',
  stringOrList: 'must evaluate to one of [string list(string)]',
};

/**
 * Compiles one expression in `env`. Returns the Program, or the reason it is rejected as
 * upstream words it: `compilation failed: ERROR: <input>:1:1: …` or `must evaluate to bool`.
 * Rules must be `bool` when checked (as upstream); a mapping whose checked type can never be a
 * string (or list of strings) is rejected here rather than failing every token.
 */
export function compileExpression(expression: string, env: CelEnvironment, kind: ResultKind): Program | string {
  const program = compileIn(expression, env);
  if (typeof program === 'string') return program;
  return ACCEPTED[kind].includes(program.resultType) ? program : MISMATCH[kind];
}

function compileIn(expression: string, env: CelEnvironment): Program | string {
  let compiled: Program | CompileErrors;
  try {
    compiled = compileProgram(expression, env);
  } catch (err) {
    return `compilation failed: ${(err as Error).message}`;
  }
  return compiled instanceof CompileErrors ? `compilation failed: ${compiled.message}` : compiled;
}

/**
 * Evaluates `program` against a prepared activation with lib/cel's per-call cost budget.
 * @throws Error `expression '<expr>' resulted in error: <reason>` (a runtime error or the cost
 *   budget spent), as upstream's claim mapper words it.
 */
export function evaluate(program: Program, activation: PreparedActivation): unknown {
  const result = program.evaluate(activation);
  if (!result.ok) throw new Error(`expression '${program.expression}' resulted in error: ${result.error.message}`);
  return result.value;
}

/**
 * A groups or extra value as upstream converts it: a string is a one-item list (`""` is none), a
 * list keeps its non-empty strings, null is none.
 * @throws Error `expression must return a string or a list of strings` for anything else.
 */
export function stringList(value: unknown): string[] {
  if (value === null) return [];
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const v of value) {
      if (typeof v !== 'string') throw new Error('expression must return a string or a list of strings');
      if (v !== '') out.push(v);
    }
    return out;
  }
  throw new Error('expression must return a string or a list of strings');
}
