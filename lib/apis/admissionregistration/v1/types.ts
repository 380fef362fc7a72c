/**
 * Types shared by the kinds of `admissionregistration.<vendor>/v1` (upstream v1.30
 * `k8s.io/api/admissionregistration/v1`: field order, JSON names, `omitempty`, pointers, protobuf
 * numbers, list markers): the rules of webhooks and policies, the webhook client configuration,
 * match conditions and resources, and the pieces of ValidatingAdmissionPolicy and its binding.
 * Defaults as upstream's `SetDefaults_Rule`, `SetDefaults_ServiceReference`,
 * `SetDefaults_MatchResources`. Go-inline structs (RuleWithOperations inlines Rule,
 * NamedRuleWithOperations inlines RuleWithOperations) are flat in JSON and nested messages in
 * protobuf (see `inlineInto`).
 */
import { bytes, enumOf, field, int32, int64, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import type { Embedding, Field, ListMarkers, StructSchema } from '../../../apimachinery/schema/types.js';
import { condition, labelSelector } from '../../meta/v1/types.js';
import { vendorGroup } from '../../vendor.js';

/** The API group of the admission registration kinds. */
export const ADMISSIONREGISTRATION_GROUP = vendorGroup('admissionregistration');

const AR = 'api.admissionregistration.v1';

/** Rule scopes (upstream `ScopeType`). */
export const SCOPES = ['Cluster', 'Namespaced', '*'] as const;
/** Failure policies (upstream `FailurePolicyType`). */
export const FAILURE_POLICIES = ['Ignore', 'Fail'] as const;
/** Match policies (upstream `MatchPolicyType`). */
export const MATCH_POLICIES = ['Exact', 'Equivalent'] as const;
/** Side-effect classes (upstream `SideEffectClass`); v1 accepts only None and NoneOnDryRun on create. */
export const SIDE_EFFECT_CLASSES = ['Unknown', 'None', 'Some', 'NoneOnDryRun'] as const;
/** Admission operations (upstream `OperationType`). */
export const OPERATIONS = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const;
/** Reinvocation policies of a mutating webhook (upstream `ReinvocationPolicyType`). */
export const REINVOCATION_POLICIES = ['Never', 'IfNeeded'] as const;
/** What a binding does when no parameter matches (upstream `ParameterNotFoundActionType`). */
export const PARAMETER_NOT_FOUND_ACTIONS = ['Allow', 'Deny'] as const;
/** How a binding enforces failed validations (upstream `ValidationAction`). */
export const VALIDATION_ACTIONS = ['Deny', 'Warn', 'Audit'] as const;

const atomicStrings = () => listOf(string, { listType: 'atomic' });
const byName = (): ListMarkers => ({ patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] });

/**
 * Marks `fields` (those of the struct `id`) as members of a Go-inline struct carried at protobuf
 * number `proto` of the enclosing struct; fields already inline in `id` keep their own embedding
 * inside it (`within`), so a struct inlined twice nests its message twice, as upstream's wire form.
 */
export function inlineInto(proto: number, id: string, fields: Record<string, Field>): Record<string, Field> {
  const wrap = (e: Embedding | undefined): Embedding => (e ? { ...e, within: wrap(e.within) } : { proto, id });
  const out: Record<string, Field> = {};
  for (const [k, f] of Object.entries(fields)) out[k] = { ...f, embedded: wrap(f.embedded) };
  return out;
}

/** Rule: API groups, versions and resources (`pods`, `pods/log`, `*`, `pods/*`, `*\/scale`, `*\/*`) and the scope. */
const ruleFields: Record<string, Field> = {
  apiGroups: field(1, atomicStrings(), { description: "API groups of the resources; '*' is every group (then the only item)." }),
  apiVersions: field(2, atomicStrings(), { description: "API versions of the resources; '*' is every version (then the only item)." }),
  resources: field(3, atomicStrings(), { description: 'Resources and subresources the rule applies to.' }),
  scope: field(4, enumOf(...SCOPES), { default: '*', description: 'Cluster, Namespaced or * (no restriction).' }),
};

/** The definition id of Rule, which only ever appears inline (in RuleWithOperations). */
const RULE_ID = `${AR}.Rule`;

/** The operations a rule matches, with the Rule inline. */
const ruleWithOperationsFields: Record<string, Field> = {
  operations: field(1, listOf(enumOf(...OPERATIONS), { listType: 'atomic' }), { description: "CREATE, UPDATE, DELETE, CONNECT or '*' (then the only item)." }),
  ...inlineInto(2, RULE_ID, ruleFields),
};

/** RuleWithOperations: operations and resources a webhook cares about. */
export const ruleWithOperations = struct(`${AR}.RuleWithOperations`, ruleWithOperationsFields);

/** NamedRuleWithOperations: a RuleWithOperations limited to some object names (atomic). */
export const namedRuleWithOperations = struct(
  `${AR}.NamedRuleWithOperations`,
  {
    resourceNames: field(1, atomicStrings(), { description: 'Object names the rule is limited to; empty for every name.' }),
    ...inlineInto(2, ruleWithOperations.id, ruleWithOperationsFields),
  },
  { mapType: 'atomic' },
);

/** A reference to the Service of a webhook; port defaults to 443. */
export const webhookServiceReference = struct(`${AR}.ServiceReference`, {
  namespace: field(1, string, { required: true, omitEmpty: false, description: 'Namespace of the service.' }),
  name: field(2, string, { required: true, omitEmpty: false, description: 'Name of the service.' }),
  path: field(3, string, { pointer: true, description: 'URL path sent in every request to the service.' }),
  port: field(4, int32, { default: 443, description: 'Port of the service (1-65535).' }),
});

/** How to reach a webhook: exactly one of `url` and `service`, and the CA bundle of its certificate. */
export const webhookClientConfig = struct(`${AR}.WebhookClientConfig`, {
  url: field(3, string, { pointer: true, description: 'https URL of the webhook, without user information, query or fragment.' }),
  service: field(1, webhookServiceReference, { description: 'The in-cluster service of the webhook.' }),
  caBundle: field(2, bytes, { description: "PEM CA bundle verifying the webhook's serving certificate." }),
});

/** A named CEL condition a request must meet. */
export const matchCondition = struct(`${AR}.MatchCondition`, {
  name: field(1, string, { required: true, omitEmpty: false, description: 'Qualified name of the condition, unique in its list.' }),
  expression: field(2, string, { required: true, omitEmpty: false, description: 'CEL expression evaluating to bool.' }),
});

/** The match conditions list: a map keyed by name, merged by name. */
export function matchConditionsField(proto: number): Field {
  return field(proto, listOf(matchCondition, byName()), { description: 'At most 64 CEL conditions; all must hold for the request to match.' });
}

/** Which requests a policy or binding matches (atomic); selectors default to everything, matchPolicy to Equivalent. */
export const matchResources = struct(
  `${AR}.MatchResources`,
  {
    namespaceSelector: field(1, labelSelector, { default: {}, description: "Selects the object's namespace by its labels." }),
    objectSelector: field(2, labelSelector, { default: {}, description: "Selects the object by its labels." }),
    resourceRules: field(3, listOf(namedRuleWithOperations, { listType: 'atomic' }), { description: 'Operations and resources matched.' }),
    excludeResourceRules: field(4, listOf(namedRuleWithOperations, { listType: 'atomic' }), { description: 'Operations and resources never matched.' }),
    matchPolicy: field(7, enumOf(...MATCH_POLICIES), { default: 'Equivalent', description: 'Exact or Equivalent.' }),
  },
  { mapType: 'atomic' },
);

/** The kind of a policy's parameter resources (atomic). */
export const paramKind = struct(
  `${AR}.ParamKind`,
  {
    apiVersion: field(1, string, { description: 'group/version of the parameter resources.' }),
    kind: field(2, string, { description: 'Kind of the parameter resources.' }),
  },
  { mapType: 'atomic' },
);

/** Where a binding finds its parameters: one of name or selector (atomic). */
export const paramRef = struct(
  `${AR}.ParamRef`,
  {
    name: field(1, string, { description: 'Name of the parameter resource.' }),
    namespace: field(2, string, { description: 'Namespace of the parameter resources.' }),
    selector: field(3, labelSelector, { description: 'Selects the parameter resources by their labels.' }),
    parameterNotFoundAction: field(4, enumOf(...PARAMETER_NOT_FOUND_ACTIONS), { description: 'Allow or Deny when no parameter matches.' }),
  },
  { mapType: 'atomic' },
);

/** One CEL validation of a policy. */
export const validation = struct(`${AR}.Validation`, {
  expression: field(1, string, { required: true, omitEmpty: false, description: 'CEL expression evaluating to bool.' }),
  message: field(2, string, { description: 'Message when the validation fails (one line).' }),
  reason: field(3, string, { description: 'Status reason of a failure: Forbidden, Invalid or RequestEntityTooLarge.' }),
  messageExpression: field(4, string, { description: 'CEL expression evaluating to the failure message.' }),
});

/** A named CEL expression usable as `variables.<name>` (atomic). */
export const variable = struct(
  `${AR}.Variable`,
  {
    name: field(1, string, { required: true, omitEmpty: false, description: 'CEL identifier, unique among the variables.' }),
    expression: field(2, string, { required: true, omitEmpty: false, description: 'CEL expression of the value.' }),
  },
  { mapType: 'atomic' },
);

/** An audit annotation produced by a CEL expression. */
export const auditAnnotation = struct(`${AR}.AuditAnnotation`, {
  key: field(1, string, { required: true, omitEmpty: false, description: 'Annotation key, unique in the policy.' }),
  valueExpression: field(2, string, { required: true, omitEmpty: false, description: 'CEL expression evaluating to a string or null.' }),
});

/** A type-checking warning on one expression of a policy. */
export const expressionWarning = struct(`${AR}.ExpressionWarning`, {
  fieldRef: field(2, string, { required: true, omitEmpty: false, description: 'Path of the expression, e.g. spec.validations[0].expression.' }),
  warning: field(3, string, { required: true, omitEmpty: false, description: 'The type-checking warning.' }),
});

/** The type-checking results of a policy. */
export const typeChecking = struct(`${AR}.TypeChecking`, {
  expressionWarnings: field(1, listOf(expressionWarning, { listType: 'atomic' }), { description: 'Warnings, one per expression.' }),
});

/** The policy spec fields: parameters, match constraints, validations, failure policy, audit annotations, conditions, variables. */
export const validatingAdmissionPolicySpec: StructSchema = struct(`${AR}.ValidatingAdmissionPolicySpec`, {
  paramKind: field(1, paramKind, { description: 'Kind of the parameter resources; absent: no parameters.' }),
  matchConstraints: field(2, matchResources, { description: 'Requests the policy validates; resourceRules are required.' }),
  validations: field(3, listOf(validation, { listType: 'atomic' }), { description: 'CEL validations.' }),
  failurePolicy: field(4, enumOf(...FAILURE_POLICIES), { default: 'Fail', description: 'Fail or Ignore on errors.' }),
  auditAnnotations: field(5, listOf(auditAnnotation, { listType: 'atomic' }), { description: 'CEL audit annotations.' }),
  matchConditions: matchConditionsField(6),
  variables: field(7, listOf(variable, byName()), { description: 'Named expressions usable as variables.<name>.' }),
});

/** The observed state of a policy. */
export const validatingAdmissionPolicyStatus = struct(`${AR}.ValidatingAdmissionPolicyStatus`, {
  observedGeneration: field(1, int64, { description: 'The generation the status describes.' }),
  typeChecking: field(2, typeChecking, { description: 'Type-checking results, present once checked.' }),
  conditions: field(3, listOf(condition, { listType: 'map', listMapKeys: ['type'] }), { description: 'Observations of the policy.' }),
});

/** The binding spec fields: the policy, its parameters, the resources and the validation actions. */
export const validatingAdmissionPolicyBindingSpec = struct(`${AR}.ValidatingAdmissionPolicyBindingSpec`, {
  policyName: field(1, string, { description: 'Name of the ValidatingAdmissionPolicy bound.' }),
  paramRef: field(2, paramRef, { description: 'The parameter resources of the binding.' }),
  matchResources: field(3, matchResources, { description: "Narrows the policy's match constraints." }),
  validationActions: field(4, listOf(enumOf(...VALIDATION_ACTIONS), { listType: 'set' }), { description: 'Deny, Warn and/or Audit (not Deny with Warn).' }),
});
