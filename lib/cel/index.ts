/**
 * The expression language (CEL) of the server: environments, compilation, evaluation with cost
 * limits, and the platform libraries. spec 000 § Expression language (CEL) in fields; spec 001
 * § Limits (expression cost), § Authentication configuration file, § Authorization.
 *
 * Typical use:
 *   const env = createEnvironment({ variables: [{ name: 'self', schema }] });
 *   const program = compile('self.replicas <= 10', env, { resultTypes: ['bool'] });
 *   if (program instanceof CompileErrors) reject(program.message);
 *   const result = program.evaluate({ self: object }, { budget: PER_CALL_LIMIT });
 */

export { compile, CompileErrors, type CompileOptions, type LocatedIssue } from './compile.js';
export type { CompileIssue } from './validate.js';
export { Program, CelEvaluationError, type EvalResult, type EvaluateOptions } from './program.js';
export {
  createEnvironment,
  createEnvironmentSet,
  CelEnvironment,
  EnvironmentError,
  PreparedActivation,
  type EnvironmentOptions,
  type EnvironmentSet,
  type VariableDeclaration,
} from './environment.js';
export type { OpenAPISchema } from './schema-types.js';
export { CostLimitExceededError } from './cost/runtime.js';
export type { CostEstimate } from './cost/estimate.js';
export {
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  MAX_REQUEST_SIZE_BYTES,
  MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES,
} from './limits.js';
export {
  CURRENT_VERSION,
  DEFAULT_COMPATIBILITY_VERSION,
  FEATURE_VERSIONS,
  parseVersion,
  formatVersion,
  type Version,
  type Feature,
} from './versions.js';
export { escapeProperty, unescapeProperty } from './escaping.js';
export { selectsField, referencesVariable } from './references.js';
export { celToJSON, ConversionError } from './values.js';
export {
  AUTHORIZER_TYPES,
  authorizerValue,
  bindAuthorizer,
  withRequestResource,
  AuthorizerBinding,
  type AuthorizationAttributes,
  type RequestResource,
  type AuthorizationDecision,
  type AuthorizerUser,
  type CelAuthorizer,
  type DecisionFunction,
} from './library/authorizer.js';
export { QUANTITY_TYPE } from './library/quantity.js';
export { URL_TYPE } from './library/url.js';
