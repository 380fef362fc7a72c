/**
 * The admission expression compiler over lib/cel (upstream v1.30
 * `k8s.io/apiserver/pkg/admission/plugin/cel` compiler): the environment of webhook match
 * conditions and ValidatingAdmissionPolicy expressions — `object`, `oldObject` (dyn),
 * `request` (the AdmissionRequest), `namespaceObject` (the Namespace), and as asked `params`
 * (dyn), `authorizer` and `variables` (each earlier variable with the type its expression
 * compiled to). New expressions compile in the environment of the default compatibility
 * version, stored ones with every feature of the current version. Errors are worded as
 * upstream's: `compilation failed: ERROR: <input>:1:1: …`, `must evaluate to bool`,
 * `must evaluate to one of [string null_type]`.
 *
 * `request` and `namespaceObject` are declared as maps of dyn values (upstream: typed objects)
 * so their fields keep upstream's names (`request.namespace`, which a schema-derived object
 * would escape); `authorizer` is dyn: `authorizer.requestResource.check('get')` (the field the
 * Authorizer type of lib/cel declares, set by the admission activation) and the authorizer
 * library's calls type-check either way.
 */
import type { AdmissionExpressionCompiler, CompileOutcome, ExpressionResult, ExpressionScope } from '../../apis/admissionregistration/v1/expressions.js';
import { schemaExtension } from '../../apis/vendor.js';
import { compile, CompileErrors, createEnvironment, type CelEnvironment, type OpenAPISchema, type VariableDeclaration } from '../../cel/index.js';

const DYN_MAP = 'map<string, dyn>';
const PRESERVE_UNKNOWN = schemaExtension('preserve-unknown-fields');
/** Environments with variables kept (they differ per policy, so only the latest few). */
const MAX_CACHED_WITH_VARIABLES = 32;

/** The schema of a `variables.<name>` field for a variable whose expression has `type`. */
function variableSchema(type: string): OpenAPISchema {
  switch (type) {
    case 'bool':
      return { type: 'boolean' };
    case 'string':
      return { type: 'string' };
    case 'int':
      return { type: 'integer' };
    case 'double':
      return { type: 'number' };
    case 'bytes':
      return { type: 'string', format: 'byte' };
    case 'google.protobuf.Timestamp':
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'google.protobuf.Duration':
    case 'duration':
      return { type: 'string', format: 'duration' };
    default:
      return { [PRESERVE_UNKNOWN]: true };
  }
}

/**
 * The variable declarations of `scope`'s environment: `object`, `oldObject` (dyn),
 * `namespaceObject`, `request` (maps of dyn), and as asked `params`, `authorizer` (dyn) and
 * `variables` (an object of the variables' result types). The type checker of
 * ValidatingAdmissionPolicy replaces some of them with schema-typed ones.
 */
export function declarations(scope: ExpressionScope): VariableDeclaration[] {
  const decls: VariableDeclaration[] = [
    { name: 'object', type: 'dyn' },
    { name: 'oldObject', type: 'dyn' },
    { name: 'namespaceObject', type: DYN_MAP },
    { name: 'request', type: DYN_MAP },
  ];
  if (scope.params) decls.push({ name: 'params', type: 'dyn' });
  if (scope.authorizer) decls.push({ name: 'authorizer', type: 'dyn' });
  if (scope.variables) {
    const properties = Object.fromEntries([...scope.variables].map(([name, type]) => [name, variableSchema(type)]));
    decls.push({ name: 'variables', schema: { type: 'object', properties } });
  }
  return decls;
}

const ACCEPTED: Record<ExpressionResult, { types: readonly string[]; reason: string }> = {
  bool: { types: ['bool'], reason: 'must evaluate to bool' },
  string: { types: ['string'], reason: 'must evaluate to string' },
  'string-or-null': { types: ['string', 'null'], reason: 'must evaluate to one of [string null_type]' },
  any: { types: [], reason: '' },
};

const plain = new Map<string, CelEnvironment>();
const withVariables = new Map<string, CelEnvironment>();

/**
 * The environment of `scope` (every expression's declarations plus the optional ones `scope`
 * asks for), cached (those with variables in a small most-recent set). Throws EnvironmentError
 * only on a bug in the declarations.
 */
export function environmentFor(scope: ExpressionScope): CelEnvironment {
  const key = JSON.stringify([scope.params, scope.authorizer, scope.stored, [...(scope.variables ?? [])]]);
  const cache = scope.variables ? withVariables : plain;
  let env = cache.get(key);
  if (env) {
    cache.delete(key);
  } else {
    env = createEnvironment({ stored: scope.stored, variables: declarations(scope) });
    if (cache === withVariables && cache.size >= MAX_CACHED_WITH_VARIABLES) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, env);
  return env;
}

/** The server's admission expression compiler. */
export const admissionExpressionCompiler: AdmissionExpressionCompiler = {
  compile(expression: string, scope: ExpressionScope, result: ExpressionResult): CompileOutcome {
    let compiled;
    try {
      compiled = compile(expression, environmentFor(scope));
    } catch (err) {
      return { ok: false, detail: `compilation failed: ${(err as Error).message}` };
    }
    if (compiled instanceof CompileErrors) return { ok: false, detail: `compilation failed: ${compiled.message}` };
    const accepted = ACCEPTED[result];
    if (result !== 'any' && !accepted.types.includes(compiled.resultType)) return { ok: false, detail: accepted.reason };
    return { ok: true, type: compiled.resultType };
  },
};
