/**
 * Validation rules (`x-<vendor>-validations`) of CustomResourceDefinition schemas: the checks a
 * CRD write applies to them, their compilation (once per CRD generation) and their evaluation
 * on every write of a custom resource. spec 000 § Expression language (CEL) in fields; spec 001
 * § Limits (expression cost). Upstream: apiextensions-apiserver pkg/apiserver/schema/cel and
 * the rule checks of pkg/apis/apiextensions/validation.
 */
export { compileSchemaRules, type CompiledSchemaRules, type RuleNode } from './compile-schema.js';
export { type CompiledRule } from './compile.js';
export { evaluateSchemaRules, type EvaluateOptions, type EvaluationOutcome } from './evaluate.js';
export { validateSchemaRules, SUPPORTED_REASONS, type SchemaRuleCheckOptions } from './schema-checks.js';
export { resolveFieldPath, type ResolvedFieldPath } from './field-path.js';
