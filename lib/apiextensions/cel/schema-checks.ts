/**
 * The checks a CustomResourceDefinition write applies to the validation rules of its
 * `openAPIV3Schema` (upstream apiextensions validation.go, the `x-kubernetes-validations` part
 * of ValidateCustomResourceDefinitionOpenAPISchema and the total-cost check of
 * validateCustomResourceDefinitionValidation), with upstream's messages and field paths.
 * spec 000 § Expression language (CEL) in fields; spec 001 § Limits (expression cost).
 *
 * Order, as upstream: the rule-text checks of every node (children before their parent), then
 * the compilation and cost errors of every node, then the errors of the schema's total cost.
 * A node's rules are compiled only when no rule-text error was found at it or below it, and
 * only on the structural spine (properties, items, additionalProperties — not allOf, anyOf,
 * oneOf or not).
 */
import { STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from '../../cel/index.js';
import { FieldPath, forbidden, internalError, invalid, notSupported, required, type FieldError } from '../../apimachinery/field-errors.js';
import { goValidationRule } from '../go-syntax.js';
import { EXT, type JSONSchemaProps } from '../types.js';
import { compileNodeRules, validationRules } from './compile.js';
import { costErrorMessage, MAX_COST, multiplySaturating, TotalCost } from './cost.js';
import { isValidFieldPath } from './field-path.js';

/** The values `reason` may take, sorted as upstream lists them. */
export const SUPPORTED_REASONS: readonly string[] = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

/** Options of validateSchemaRules. */
export interface SchemaRuleCheckOptions {
  /**
   * The schema before an update: its rules and message expressions compile as stored
   * expressions (every feature of the current version), new ones as new expressions.
   */
  readonly oldSchema?: JSONSchemaProps;
  /** Skip the per-expression cost limit (a version whose schema did not change). */
  readonly suppressPerExpressionCost?: boolean;
}

const NEWLINES = /[\n\r]+/;
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

interface Walk {
  readonly ruleErrors: FieldError[];
  readonly celErrors: FieldError[];
  readonly total: TotalCost;
  readonly preexisting: ReadonlySet<string>;
  readonly suppressPerExpressionCost: boolean;
}

interface NodeContext {
  /** Product of the enclosing maxItems / maxProperties; undefined when one of them is unbounded. */
  readonly cardinality: number | undefined;
  /** The highest enclosing path where old values cannot be correlated (items of a non-map list). */
  readonly uncorrelatable: FieldPath | undefined;
  readonly resourceRoot: boolean;
  /** Rules here are compiled (false under allOf, anyOf, oneOf, not). */
  readonly compiles: boolean;
}

function isSchema(v: unknown): v is JSONSchemaProps {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Upstream extractMaxElements: how much `s` multiplies the cardinality of its children. */
function childFactor(s: JSONSchemaProps): number | undefined {
  if (s.type === 'object' && s.additionalProperties !== undefined) return typeof s.maxProperties === 'number' ? Math.max(0, s.maxProperties) : undefined;
  if (s.type === 'array') return typeof s.maxItems === 'number' ? Math.max(0, s.maxItems) : undefined;
  return 1;
}

function childContext(parent: JSONSchemaProps, ctx: NodeContext, child: JSONSchemaProps, uncorrelatable: FieldPath | undefined): NodeContext {
  const factor = childFactor(parent);
  return {
    cardinality: ctx.cardinality === undefined || factor === undefined ? undefined : Math.min(MAX_COST, ctx.cardinality * factor),
    uncorrelatable: ctx.uncorrelatable ?? uncorrelatable,
    resourceRoot: child[EXT.embeddedResource] === true,
    compiles: ctx.compiles,
  };
}

/** The rule-text checks of one node; returns how many errors they found. */
function checkRuleTexts(schema: JSONSchemaProps, path: FieldPath, errors: FieldError[]): number {
  const before = errors.length;
  validationRules(schema).forEach((rule, i) => {
    const at = path.child(EXT.validations).index(i);
    const ruleText = text(rule.rule).trim();
    const message = text(rule.message);
    const trimmedMessage = message.trim();
    const messageExpression = text(rule.messageExpression);
    if (ruleText === '') errors.push(required(at.child('rule'), 'rule is not specified'));
    else if (message !== '' && trimmedMessage === '') errors.push(invalid(at.child('message'), message, 'message must be non-empty if specified'));
    else if (NEWLINES.test(trimmedMessage)) errors.push(invalid(at.child('message'), message, 'message must not contain line breaks'));
    else if (NEWLINES.test(ruleText) && trimmedMessage === '') errors.push(required(at.child('message'), 'message must be specified if rule contains line breaks'));
    if (messageExpression !== '' && messageExpression.trim() === '') {
      errors.push(required(at.child('messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && rule.reason !== null && !SUPPORTED_REASONS.includes(text(rule.reason))) {
      errors.push(notSupported(at.child('reason'), rule.reason, SUPPORTED_REASONS));
    }
    const fieldPath = text(rule.fieldPath);
    if (fieldPath !== '' && fieldPath.trim() === '') errors.push(invalid(at.child('fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
    if (NEWLINES.test(fieldPath)) errors.push(invalid(at.child('fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
    if (fieldPath !== '' && !isValidFieldPath(fieldPath, schema)) errors.push(invalid(at.child('fieldPath'), fieldPath, 'fieldPath must be a valid path'));
  });
  return errors.length - before;
}

/** Compilation, cost and transition checks of one node's rules. */
function checkCompiledRules(schema: JSONSchemaProps, path: FieldPath, ctx: NodeContext, walk: Walk): void {
  const at = path.child(EXT.validations);
  const node = compileNodeRules(schema, ctx.resourceRoot, { env: 'new', preexisting: walk.preexisting });
  if (node.typeError) {
    walk.celErrors.push(internalError(at, `internal error: failed to construct type information for ${EXT.validations} rules: ${node.typeError}`));
    return;
  }
  const cardinality = (maxCardinality: number) => ctx.cardinality ?? maxCardinality;
  node.rules.forEach((cr, i) => {
    const rulePath = at.index(i).child('rule');
    const cost = multiplySaturating(cr.maxCost, cardinality(node.maxCardinality));
    if (!walk.suppressPerExpressionCost && cost > STATIC_ESTIMATED_COST_LIMIT) {
      walk.celErrors.push(forbidden(rulePath, costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
    }
    walk.total.observe(rulePath.toString(), cost);
    if (cr.error) walk.celErrors.push(invalid(rulePath, goValidationRule(cr.rule), cr.error));
    const messagePath = at.index(i).child('messageExpression');
    if (cr.messageExpressionError) {
      walk.celErrors.push(invalid(messagePath, goValidationRule(cr.rule), cr.messageExpressionError));
    } else if (cr.messageExpression) {
      const messageCost = multiplySaturating(cr.messageExpressionMaxCost, cardinality(node.maxCardinality));
      if (!walk.suppressPerExpressionCost && messageCost > STATIC_ESTIMATED_COST_LIMIT) {
        walk.celErrors.push(forbidden(messagePath, costErrorMessage('estimated messageExpression cost', messageCost, STATIC_ESTIMATED_COST_LIMIT)));
      }
      walk.total.observe(messagePath.toString(), messageCost);
    }
    if (cr.usesOldSelf) {
      if (ctx.uncorrelatable) {
        walk.celErrors.push(invalid(rulePath, text(cr.rule.rule), `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatable.toString()}`));
      }
    } else if (typeof cr.rule.optionalOldSelf === 'boolean') {
      walk.celErrors.push(invalid(at.index(i).child('optionalOldSelf'), cr.rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
  });
}

/** Visits `schema` and its subschemas; returns the number of rule-text errors at it and below. */
function visit(schema: JSONSchemaProps, path: FieldPath, ctx: NodeContext, walk: Walk): number {
  let found = 0;
  const extra = schema.additionalProperties;
  if (isSchema(extra)) found += visit(extra, path.child('additionalProperties'), childContext(schema, ctx, extra, undefined), walk);
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (isSchema(prop)) found += visit(prop, path.child('properties').key(name), childContext(schema, ctx, prop, undefined), walk);
  }
  const uncompiled = (s: JSONSchemaProps): NodeContext => ({ ...ctx, resourceRoot: s[EXT.embeddedResource] === true, compiles: false });
  if (isSchema(schema.not)) found += visit(schema.not, path.child('not'), uncompiled(schema.not), walk);
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    (schema[key] ?? []).forEach((s, i) => {
      if (isSchema(s)) found += visit(s, path.child(key).index(i), uncompiled(s), walk);
    });
  }
  if (isSchema(schema.items)) {
    const listPath = schema[EXT.listType] === 'map' ? undefined : path;
    found += visit(schema.items, path.child('items'), childContext(schema, ctx, schema.items, listPath), walk);
  }
  found += checkRuleTexts(schema, path, walk.ruleErrors);
  if (found === 0 && ctx.compiles && validationRules(schema).length > 0) checkCompiledRules(schema, path, ctx, walk);
  return found;
}

function expressionsOf(schema: JSONSchemaProps | undefined, out: Set<string>): Set<string> {
  if (!isSchema(schema)) return out;
  for (const rule of validationRules(schema)) {
    if (text(rule.rule) !== '') out.add(text(rule.rule));
    if (text(rule.messageExpression) !== '') out.add(text(rule.messageExpression));
  }
  if (isSchema(schema.additionalProperties)) expressionsOf(schema.additionalProperties, out);
  for (const prop of Object.values(schema.properties ?? {})) expressionsOf(prop, out);
  if (isSchema(schema.items)) expressionsOf(schema.items, out);
  return out;
}

/**
 * The CRD-write errors of every `x-<vendor>-validations` rule in `schema`, the structural
 * `openAPIV3Schema` at `fldPath` (call it only for a schema that passed the structural checks,
 * as upstream builds its CEL context only then). Errors sit at
 * `<node>.x-<vendor>-validations[i].rule` (`.message`, `.messageExpression`, `.reason`,
 * `.fieldPath`, `.optionalOldSelf`), the total-cost error at `fldPath`. Never throws.
 */
export function validateSchemaRules(schema: JSONSchemaProps, fldPath: FieldPath, options: SchemaRuleCheckOptions = {}): FieldError[] {
  const walk: Walk = {
    ruleErrors: [],
    celErrors: [],
    total: new TotalCost(),
    preexisting: expressionsOf(options.oldSchema, new Set()),
    suppressPerExpressionCost: options.suppressPerExpressionCost ?? false,
  };
  visit(schema, fldPath, { cardinality: 1, uncorrelatable: undefined, resourceRoot: true, compiles: true }, walk);
  const errors = [...walk.ruleErrors, ...walk.celErrors];
  if (walk.total.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of walk.total.mostExpensive) {
      errors.push(forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    }
    errors.push(forbidden(fldPath, costErrorMessage(`${EXT.validations} estimated rule cost total for entire OpenAPIv3 schema`, walk.total.total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return errors;
}
