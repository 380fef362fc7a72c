/**
 * The contract of compiling the CEL expressions of webhooks and policies for validation
 * (upstream v1.30 `k8s.io/apiserver/pkg/admission/plugin/cel` compiler, as the
 * admissionregistration validation calls it). The expression language lives above lib/apis
 * (ARCHITECTURE.md § Layers), so the validation functions take an AdmissionExpressionCompiler;
 * lib/admission/cel implements it over lib/cel and the control plane hands it to the registry.
 */

/** What an expression must evaluate to (upstream `ReturnTypes` of each expression accessor). */
export type ExpressionResult = 'bool' | 'string' | 'string-or-null' | 'any';

/** Which optional variables an expression sees (upstream `OptionalVariableDeclarations` and composition). */
export interface ExpressionScope {
  params: boolean;
  authorizer: boolean;
  /** The policy's variables declared so far, name → compiled result type; absent: no `variables`. */
  variables?: ReadonlyMap<string, string>;
  /** The expression is already stored (compile with every feature of the current version). */
  stored: boolean;
}

/** A compiled expression's result type, or upstream's reason for rejecting it (`compilation failed: …`, `must evaluate to bool`). */
export type CompileOutcome = { ok: true; type: string } | { ok: false; detail: string };

/**
 * Compiles admission expressions. Every expression sees `object`, `oldObject`, `request` and
 * `namespaceObject`, plus `params`, `authorizer` and `variables` as `scope` says.
 */
export interface AdmissionExpressionCompiler {
  /** Compiles `expression`; `result` is what it must evaluate to (dyn does not qualify, as upstream compares the type exactly). */
  compile(expression: string, scope: ExpressionScope, result: ExpressionResult): CompileOutcome;
}

const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

/** Whether `name` is a CEL identifier that is not a reserved word (a policy variable's name). */
export function isCELIdentifier(name: string): boolean {
  return CEL_IDENTIFIER.test(name) && !CEL_RESERVED.has(name);
}
