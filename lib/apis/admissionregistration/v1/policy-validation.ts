/**
 * ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding validation with upstream
 * v1.30's paths and messages (`ValidateValidatingAdmissionPolicy`,
 * `ValidateValidatingAdmissionPolicyBinding`, their updates and the policy's status update).
 * Policy: failure policy, parameter kind, match constraints with resource rules, match
 * conditions, variables (CEL identifiers; each expression sees the variables before it),
 * validations and audit annotations (at least one of them; CEL expressions type-checked with
 * `object`, `oldObject`, `request`, `namespaceObject`, `authorizer`, `params` when the policy
 * has a parameter kind, and `variables`). Binding: policy name, parameter reference, match
 * resources (reported at upstream's misspelled `spec.matchResouces`), validation actions.
 * ObjectMeta is checked by the caller.
 */
import { type FieldError, FieldPath, duplicate, forbidden, GoSyntax, invalid, notSupported, required, tooLong } from '../../../apimachinery/field-errors.js';
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import { validateLabelName } from '../../../apimachinery/validation/label-map.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidPathSegmentName, regexError } from '../../../apimachinery/validation/names.js';
import { num, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';
import { type AdmissionExpressionCompiler, type CompileOutcome, type ExpressionResult, type ExpressionScope, isCELIdentifier } from './expressions.js';
import { goTypedSlice, sortedValues, strings, validateMatchConditions, validateMatchResources, validateSelector } from './rule-validation.js';
import { FAILURE_POLICIES, PARAMETER_NOT_FOUND_ACTIONS, VALIDATION_ACTIONS } from './types.js';

const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH = 5 * 1024;
const VALIDATION_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];

/** The expressions of the stored policy, by use: they compile as stored expressions. */
interface StoredExpressions {
  matchConditions: ReadonlySet<string>;
  validations: ReadonlySet<string>;
  messageExpressions: ReadonlySet<string>;
  auditAnnotations: ReadonlySet<string>;
}

const NONE: StoredExpressions = { matchConditions: new Set(), validations: new Set(), messageExpressions: new Set(), auditAnnotations: new Set() };

/** Upstream `parseGroupVersion`: `""`/`"/"` empty, `v` core, `g/v`, anything else an error. */
function parseGroupVersion(gv: string): { group: string; version: string } | string {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return `unexpected GroupVersion string: ${gv}`;
}

function validateParamKind(pk: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(pk.apiVersion);
  const p = path.child('apiVersion');
  if (apiVersion === '') errs.push(required(p));
  else {
    const gv = parseGroupVersion(apiVersion);
    if (typeof gv === 'string') errs.push(invalid(p, apiVersion, gv));
    else {
      if (gv.group !== '') {
        const groupErrs = isDNS1123Subdomain(gv.group);
        if (groupErrs.length > 0) errs.push(invalid(p, gv.group, groupErrs.join(',')));
      }
      if (gv.version === '') errs.push(invalid(p, apiVersion, 'version must be specified'));
      else {
        const versionErrs = isDNS1035Label(gv.version);
        if (versionErrs.length > 0) errs.push(invalid(p, gv.version, versionErrs.join(',')));
      }
    }
  }
  const kind = str(pk.kind);
  if (kind === '') errs.push(required(path.child('kind')));
  else {
    const kindErrs = isDNS1035Label(kind.toLowerCase());
    if (kindErrs.length > 0) errs.push(invalid(path.child('kind'), kind, `may have mixed case, but should otherwise match: ${kindErrs.join(',')}`));
  }
  return errs;
}

/** A compile failure as a field error (upstream `convertCELErrorToValidationError`). */
function celError(path: FieldPath, expression: string, outcome: CompileOutcome): FieldError[] {
  return outcome.ok ? [] : [invalid(path, expression, outcome.detail)];
}

/** Compiles the policy's expressions, keeping the compiled types of its variables in order. */
class PolicyCompiler {
  readonly variables: Map<string, string> | undefined;

  constructor(
    private readonly compiler: AdmissionExpressionCompiler,
    private readonly params: boolean,
    hasVariables: boolean,
  ) {
    this.variables = hasVariables ? new Map() : undefined;
  }

  compile(expression: string, result: ExpressionResult, stored: boolean, opts: { authorizer?: boolean } = {}): CompileOutcome {
    const scope: ExpressionScope = { params: this.params, authorizer: opts.authorizer ?? true, stored };
    if (this.variables) scope.variables = new Map(this.variables);
    return this.compiler.compile(expression, scope, result);
  }
}

function validateVariable(compiler: PolicyCompiler, v: Obj, stored: StoredExpressions, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(v.name);
  if (name.trim() === '') errs.push(required(path.child('name'), 'name is not specified'));
  else if (!isCELIdentifier(name)) errs.push(invalid(path.child('name'), name, 'name is not a valid CEL identifier'));
  const expression = str(v.expression);
  if (expression.trim() === '') errs.push(required(path.child('expression'), 'expression is not specified'));
  else {
    const outcome = compiler.compile(expression, 'any', stored.validations.has(expression));
    errs.push(...celError(path.child('expression'), expression, outcome));
    if (isCELIdentifier(name)) compiler.variables!.set(name, outcome.ok ? outcome.type : 'dyn');
  }
  return errs;
}

function validateValidation(compiler: PolicyCompiler, v: Obj, stored: StoredExpressions, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const expression = str(v.expression);
  if (expression.trim() === '') errs.push(required(path.child('expression'), 'expression is not specified'));
  else errs.push(...celError(path.child('expression'), expression, compiler.compile(expression, 'bool', stored.validations.has(expression))));
  const messageExpression = str(v.messageExpression);
  if (messageExpression !== '' && messageExpression.trim() === '') errs.push(invalid(path.child('messageExpression'), messageExpression, 'must be non-empty if specified'));
  else if (messageExpression.trim() !== '') {
    const outcome = compiler.compile(messageExpression, 'string', stored.messageExpressions.has(messageExpression), { authorizer: false });
    errs.push(...celError(path.child('messageExpression'), messageExpression, outcome));
  }
  const message = str(v.message);
  if (message !== '' && message.trim() === '') errs.push(invalid(path.child('message'), message, 'message must be non-empty if specified'));
  else if (/[\n\r]/.test(message.trim())) errs.push(invalid(path.child('message'), message, 'message must not contain line breaks'));
  if (typeof v.reason === 'string' && !VALIDATION_REASONS.includes(v.reason)) errs.push(notSupported(path.child('reason'), v.reason, VALIDATION_REASONS));
  return errs;
}

function validateAuditAnnotation(compiler: PolicyCompiler, policyName: string, a: Obj, stored: StoredExpressions, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const key = str(a.key);
  if (policyName !== '') for (const m of isQualifiedName(`${policyName}/${key}`)) errs.push(invalid(path.child('key'), `${policyName}/${key}`, m));
  else errs.push(invalid(path.child('key'), key, 'requires metadata.name be non-empty'));
  const valueExpression = str(a.valueExpression);
  const trimmed = valueExpression.trim();
  const p = path.child('valueExpression');
  if (trimmed === '') errs.push(required(p, 'valueExpression is not specified'));
  else if (trimmed.length > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH) errs.push(required(p, `must not exceed ${MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH} bytes in length`));
  else errs.push(...celError(p, valueExpression, compiler.compile(trimmed, 'string-or-null', stored.auditAnnotations.has(valueExpression))));
  return errs;
}

/** Go's `%#v` of the audit annotations, as upstream prints the list it finds too long. */
function goAuditAnnotations(items: Obj[]): GoSyntax {
  const one = (a: Obj) => `admissionregistration.AuditAnnotation{Key:${JSON.stringify(str(a.key))}, ValueExpression:${JSON.stringify(str(a.valueExpression))}}`;
  return new GoSyntax(`[]admissionregistration.AuditAnnotation{${items.map(one).join(', ')}}`);
}

function validatePolicySpec(compiler: AdmissionExpressionCompiler, policyName: string, spec: Obj, ignoreMatchConditions: boolean, stored: StoredExpressions): FieldError[] {
  const errs: FieldError[] = [];
  const path = FieldPath.of('spec');
  if (typeof spec.failurePolicy !== 'string') errs.push(required(path.child('failurePolicy')));
  else if (!(FAILURE_POLICIES as readonly string[]).includes(spec.failurePolicy)) {
    errs.push(notSupported(path.child('failurePolicy'), spec.failurePolicy, sortedValues(FAILURE_POLICIES)));
  }
  const paramKind = obj(spec.paramKind);
  if (paramKind) errs.push(...validateParamKind(paramKind, path.child('paramKind')));
  const constraints = obj(spec.matchConstraints);
  if (!constraints) errs.push(required(path.child('matchConstraints')));
  else {
    errs.push(...validateMatchResources(constraints, path.child('matchConstraints')));
    if (objs(constraints.resourceRules).length === 0) errs.push(required(path.child('matchConstraints', 'resourceRules')));
  }
  if (!ignoreMatchConditions) {
    errs.push(...validateMatchConditions(compiler, spec.matchConditions, { params: paramKind !== undefined, authorizer: true }, stored.matchConditions, path.child('matchConditions')));
  }
  const variables = objs(spec.variables);
  const policyCompiler = new PolicyCompiler(compiler, paramKind !== undefined, variables.length > 0);
  variables.forEach((v, i) => errs.push(...validateVariable(policyCompiler, v, stored, path.child('variables').index(i))));
  const validations = objs(spec.validations);
  const auditAnnotations = objs(spec.auditAnnotations);
  if (validations.length === 0 && auditAnnotations.length === 0) {
    errs.push(required(path.child('validations'), 'validations or auditAnnotations must contain at least one item'));
    errs.push(required(path.child('auditAnnotations'), 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((v, i) => errs.push(...validateValidation(policyCompiler, v, stored, path.child('validations').index(i))));
  if (auditAnnotations.length > MAX_AUDIT_ANNOTATIONS) {
    errs.push(invalid(path.child('auditAnnotations'), goAuditAnnotations(auditAnnotations), `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  }
  const keys = new Set<string>();
  auditAnnotations.forEach((a, i) => {
    const p = path.child('auditAnnotations').index(i);
    errs.push(...validateAuditAnnotation(policyCompiler, policyName, a, stored, p));
    if (keys.has(str(a.key))) errs.push(duplicate(p.child('key'), str(a.key)));
    keys.add(str(a.key));
  });
  return errs;
}

const policyName = (o: Obj): string => str(obj(o.metadata)?.name);
const specOf = (o: Obj): Obj => obj(o.spec) ?? {};

/** A new ValidatingAdmissionPolicy. */
export function validateValidatingAdmissionPolicy(policy: Obj, compiler: AdmissionExpressionCompiler): FieldError[] {
  return validatePolicySpec(compiler, policyName(policy), specOf(policy), false, NONE);
}

/**
 * An updated ValidatingAdmissionPolicy: match conditions are not re-checked while they and the
 * parameter kind are unchanged; the stored policy's expressions compile as stored expressions.
 */
export function validateValidatingAdmissionPolicyUpdate(policy: Obj, old: Obj, compiler: AdmissionExpressionCompiler): FieldError[] {
  const spec = specOf(policy);
  const oldSpec = specOf(old);
  const ignore = deepEqual(spec.paramKind ?? null, oldSpec.paramKind ?? null) && deepEqual(spec.matchConditions ?? null, oldSpec.matchConditions ?? null);
  const validations = objs(oldSpec.validations);
  const stored: StoredExpressions = {
    matchConditions: new Set(objs(oldSpec.matchConditions).map((c) => str(c.expression))),
    validations: new Set(validations.map((v) => str(v.expression))),
    messageExpressions: new Set(validations.map((v) => str(v.messageExpression)).filter((e) => e !== '')),
    auditAnnotations: new Set(objs(oldSpec.auditAnnotations).map((a) => str(a.valueExpression))),
  };
  return validatePolicySpec(compiler, policyName(policy), spec, ignore, stored);
}

const CONDITION_REASON = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/** Upstream metav1 `ValidateConditions`: unique types, qualified-name types, statuses, times, reasons, lengths. */
export function validateMetaConditions(conditions: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  objs(conditions).forEach((c, i) => {
    const p = path.index(i);
    const type = str(c.type);
    if (types.has(type)) errs.push(duplicate(p.child('type'), type));
    types.add(type);
    errs.push(...validateLabelName(type, p.child('type')));
    if (!CONDITION_STATUSES.includes(str(c.status))) errs.push(notSupported(p.child('status'), str(c.status), CONDITION_STATUSES));
    const generation = num(c.observedGeneration) ?? 0;
    if (generation < 0) errs.push(invalid(p.child('observedGeneration'), generation, 'must be greater than or equal to zero'));
    if (typeof c.lastTransitionTime !== 'string' || c.lastTransitionTime === '') errs.push(required(p.child('lastTransitionTime'), 'must be set'));
    const reason = str(c.reason);
    if (reason === '') errs.push(required(p.child('reason'), 'must be set'));
    else {
      if (!new RegExp(`^${CONDITION_REASON}$`).test(reason)) {
        const msg = regexError(
          "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
          CONDITION_REASON,
          'my_name',
          'MY_NAME',
          'MyName',
          'ReasonA,ReasonB',
          'ReasonA:ReasonB',
        );
        errs.push(invalid(p.child('reason'), reason, msg));
      }
      if (reason.length > 1024) errs.push(tooLong(p.child('reason'), reason, 1024));
    }
    if (str(c.message).length > 32 * 1024) errs.push(tooLong(p.child('message'), c.message, 32 * 1024));
  });
  return errs;
}

/**
 * A status write of a policy (upstream `ValidateValidatingAdmissionPolicyStatusUpdate`): each
 * type-checking warning has a warning and a field reference; the conditions are valid. The field
 * reference is checked for presence only (upstream also parses it as a JSONPath).
 */
export function validateValidatingAdmissionPolicyStatus(policy: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const status = obj(policy.status) ?? {};
  const warnings = FieldPath.of('status', 'typeChecking', 'expressionWarnings');
  objs(obj(status.typeChecking)?.expressionWarnings).forEach((w, i) => {
    if (str(w.warning) === '') errs.push(required(warnings.index(i).child('warning')));
    if (str(w.fieldRef).trim() === '') errs.push(required(warnings.index(i).child('fieldRef')));
  });
  return [...errs, ...validateMetaConditions(status.conditions, FieldPath.of('status', 'conditions'))];
}

function validateParamRef(ref: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(ref.name);
  const selector = obj(ref.selector);
  if (name !== '') {
    for (const m of isValidPathSegmentName(name)) errs.push(invalid(path.child('name'), name, m));
    if (selector) errs.push(forbidden(path.child('name'), 'name and selector are mutually exclusive'));
  }
  if (selector) {
    errs.push(...validateSelector(selector, path.child('selector')));
    if (name !== '') errs.push(forbidden(path.child('selector'), 'name and selector are mutually exclusive'));
  }
  if (name === '' && !selector) errs.push(required(path, 'one of name or selector must be specified'));
  const action = str(ref.parameterNotFoundAction);
  if (action === '') errs.push(required(path.child('parameterNotFoundAction')));
  else if (!(PARAMETER_NOT_FOUND_ACTIONS as readonly string[]).includes(action)) errs.push(notSupported(path.child('parameterNotFoundAction'), action, ['Deny', 'Allow']));
  return errs;
}

function validateValidationActions(actions: string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!(VALIDATION_ACTIONS as readonly string[]).includes(a)) errs.push(notSupported(path.index(i), a, sortedValues(VALIDATION_ACTIONS)));
    if (seen.has(a)) errs.push(duplicate(path.index(i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(invalid(path, goTypedSlice('ValidationAction', actions), 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errs.push(required(path, 'at least one validation action is required'));
  return errs;
}

/** A ValidatingAdmissionPolicyBinding, on create and update. */
export function validateValidatingAdmissionPolicyBinding(binding: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(binding);
  const path = FieldPath.of('spec');
  const policy = str(spec.policyName);
  if (policy === '') errs.push(required(path.child('policyName')));
  else for (const m of isDNS1123Subdomain(policy)) errs.push(invalid(path.child('policyName'), policy, m));
  const ref = obj(spec.paramRef);
  if (ref) errs.push(...validateParamRef(ref, path.child('paramRef')));
  const mr = obj(spec.matchResources);
  if (mr) errs.push(...validateMatchResources(mr, path.child('matchResouces')));
  errs.push(...validateValidationActions(strings(spec.validationActions), path.child('validationActions')));
  return errs;
}
