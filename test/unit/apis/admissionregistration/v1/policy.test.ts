import { expect } from 'chai';
import { ADMISSIONREGISTRATION_GROUP, validatingAdmissionPolicy, validatingAdmissionPolicyBinding } from '../../../../../lib/apis/admissionregistration/v1/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, unsetFields } from '../../kind-pipeline.js';
import { createErrors, defaulted, statusErrors, strategiesOf, testContext, updateErrors } from './pipeline.js';

const apiVersion = `${ADMISSIONREGISTRATION_GROUP}/v1`;
const P = validatingAdmissionPolicy;
const B = validatingAdmissionPolicyBinding;
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const rule = (extra: Obj = {}): Obj => ({ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], ...extra });
const policy = (spec: Obj): Obj => ({
  apiVersion,
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'replica-limit' },
  spec: { matchConstraints: { resourceRules: [rule()] }, validations: [{ expression: 'object.spec.replicas <= 5' }], ...spec },
});
const binding = (spec: Obj): Obj => ({ apiVersion, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'replica-limit-prod' }, spec: { policyName: 'replica-limit', validationActions: ['Deny'], ...spec } });

describe('admissionregistration/v1 ValidatingAdmissionPolicy and binding: definitions (issue #12)', () => {
  it('declares the upstream discovery facts', () => {
    expect(P).to.include({ kind: 'ValidatingAdmissionPolicy', resource: 'validatingadmissionpolicies', singular: 'validatingadmissionpolicy', namespaced: false, statusSubresource: true });
    expect(B).to.include({ kind: 'ValidatingAdmissionPolicyBinding', resource: 'validatingadmissionpolicybindings', singular: 'validatingadmissionpolicybinding', namespaced: false, statusSubresource: false });
    for (const k of [P, B]) {
      expect(k.categories).to.deep.equal(['api-extensions']);
      expect(k.shortNames).to.deep.equal([]);
    }
  });

  it('defaults failurePolicy to Fail, the match constraints to Equivalent with empty selectors, and rule scopes to *', () => {
    const o = defaulted(P, policy({}));
    expect(o.spec).to.deep.equal({
      matchConstraints: { resourceRules: [rule({ scope: '*' })], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' },
      validations: [{ expression: 'object.spec.replicas <= 5' }],
      failurePolicy: 'Fail',
    });
    expect(createErrors(P, o)).to.deep.equal([]);
  });

  it("defaults a binding's match resources when present, and nothing else", () => {
    expect(defaulted(B, binding({})).spec).to.deep.equal({ policyName: 'replica-limit', validationActions: ['Deny'] });
    const withResources = defaulted(B, binding({ matchResources: { resourceRules: [rule()] }, paramRef: { name: 'p' } }));
    expect(withResources.spec).to.deep.include({
      matchResources: { resourceRules: [rule({ scope: '*' })], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' },
      paramRef: { name: 'p' },
    });
  });

  it('decodes the complete fixtures with no unknown field, setting every field of the structure', () => {
    for (const [kind, name] of [[P, 'validating-admission-policy'], [B, 'validating-admission-policy-binding']] as const) {
      const f = { apiVersion, ...fixture(name) };
      expect(decodeAndDefault(kind, f)).to.deep.equal({ unknownFields: [] });
      expect(unsetFields(kind.schema, f, ['metadata.namespace'])).to.deep.equal([]);
    }
    expect(createErrors(P, { apiVersion, ...fixture('validating-admission-policy') })).to.deep.equal([]);
    expect(createErrors(B, { apiVersion, ...fixture('validating-admission-policy-binding') })).to.deep.equal([
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
    ]);
  });
});

describe('admissionregistration/v1 ValidatingAdmissionPolicy: validation (upstream ValidateValidatingAdmissionPolicy; 422 causes)', () => {
  const cases: [string, Obj, string[]][] = [
    ['the failure policy is Fail or Ignore', { failurePolicy: 'Retry' }, ['spec.failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"']],
    ['matchConstraints is required', { matchConstraints: undefined }, ['spec.matchConstraints: Required value']],
    ['matchConstraints needs resource rules', { matchConstraints: { excludeResourceRules: [rule()] } }, ['spec.matchConstraints.resourceRules: Required value']],
    ['rules and resource names are validated', { matchConstraints: { resourceRules: [rule({ resourceNames: ['a/b', 'c', 'c'], operations: ['PATCH'] })], matchPolicy: 'Fuzzy' } }, [
      'spec.matchConstraints.matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
      "spec.matchConstraints.resourceRules[0].resourceNames[0]: Invalid value: \"a/b\": may not contain '/'",
      'spec.matchConstraints.resourceRules[0].resourceNames[2]: Duplicate value: "c"',
      'spec.matchConstraints.resourceRules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    ]],
    ['the parameter kind has a group/version and a kind', { paramKind: {} }, ['spec.paramKind.apiVersion: Required value', 'spec.paramKind.kind: Required value']],
    ['the parameter kind apiVersion is group/version', { paramKind: { apiVersion: 'a/b/c', kind: 'Limit' } }, ['spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c']],
    ['the parameter kind names a version', { paramKind: { apiVersion: 'rules.example.com/', kind: 'Limit' } }, ['spec.paramKind.apiVersion: Invalid value: "rules.example.com/": version must be specified']],
    ['the parameter kind is a DNS-1035 label in any case', { paramKind: { apiVersion: 'rules.example.com/V1', kind: 'Replica_Limit' } }, [
      `spec.paramKind.apiVersion: Invalid value: "V1": ${DNS1035}`,
      `spec.paramKind.kind: Invalid value: "Replica_Limit": may have mixed case, but should otherwise match: ${DNS1035}`,
    ]],
    ['validations or audit annotations are required', { validations: [] }, [
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
      'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
    ]],
    ['a validation has an expression evaluating to bool', { validations: [{ expression: ' ' }, { expression: 'object.spec' }, { expression: 'params.max > 1' }] }, [
      'spec.validations[0].expression: Required value: expression is not specified',
      'spec.validations[1].expression: Invalid value: "object.spec": must evaluate to bool',
      'spec.validations[2].expression: Invalid value: "params.max > 1": compilation failed: ERROR: <input>:1:1: undeclared reference to \'params\'\n | params.max > 1\n | ^',
    ]],
    ['messages are one non-blank line; message expressions are strings without the authorizer', {
      validations: [
        { expression: 'true', message: '  ', messageExpression: '  ' },
        { expression: 'true', message: 'a\nb', messageExpression: '1' },
        { expression: 'true', messageExpression: "authorizer.path('/').check('get').reason()" },
      ],
    }, [
      'spec.validations[0].messageExpression: Invalid value: "  ": must be non-empty if specified',
      'spec.validations[0].message: Invalid value: "  ": message must be non-empty if specified',
      'spec.validations[1].messageExpression: Invalid value: "1": must evaluate to string',
      'spec.validations[1].message: Invalid value: "a\\nb": message must not contain line breaks',
      'spec.validations[2].messageExpression: Invalid value: "authorizer.path(\'/\').check(\'get\').reason()": compilation failed: ERROR: <input>:1:1: undeclared reference to \'authorizer\'\n | authorizer.path(\'/\').check(\'get\').reason()\n | ^',
    ]],
    ['the reason is Forbidden, Invalid or RequestEntityTooLarge', { validations: [{ expression: 'true', reason: 'Unauthorized' }] }, [
      'spec.validations[0].reason: Unsupported value: "Unauthorized": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
    ]],
    ['audit annotations have unique qualified keys and string-or-null expressions', {
      auditAnnotations: [
        { key: 'bad key', valueExpression: "'x'" },
        { key: 'count', valueExpression: '1' },
        { key: 'count', valueExpression: ' ' },
        { key: 'maybe', valueExpression: "has(object.spec) ? 'yes' : 'no'" },
        { key: 'none', valueExpression: 'null' },
      ],
    }, [
      "spec.auditAnnotations[0].key: Invalid value: \"replica-limit/bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.auditAnnotations[1].valueExpression: Invalid value: "1": must evaluate to one of [string null_type]',
      'spec.auditAnnotations[2].valueExpression: Required value: valueExpression is not specified',
      'spec.auditAnnotations[2].key: Duplicate value: "count"',
    ]],
    ['variables are CEL identifiers whose expressions compile, each seeing the ones before it', {
      variables: [
        { name: 'replicas', expression: 'object.spec.replicas' },
        { name: 'limit', expression: 'variables.replicas + variables.later' },
        { name: 'namespace', expression: 'true' },
        { name: ' ', expression: ' ' },
        { name: 'later', expression: '1' },
      ],
      validations: [{ expression: 'variables.replicas <= variables.later && variables.limit > 0' }],
    }, [
      "spec.variables[1].expression: Invalid value: \"variables.replicas + variables.later\": compilation failed: ERROR: <input>:1:32: undefined field 'later'\n | variables.replicas + variables.later\n | ...............................^",
      'spec.variables[2].name: Invalid value: "namespace": name is not a valid CEL identifier',
      'spec.variables[3].name: Required value: name is not specified',
      'spec.variables[3].expression: Required value: expression is not specified',
    ]],
    ['without variables, `variables` is not declared', { validations: [{ expression: 'variables.x' }] }, [
      "spec.validations[0].expression: Invalid value: \"variables.x\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables'\n | variables.x\n | ^",
    ]],
  ];
  for (const [name, spec, expected] of cases) it(name, () => expect(createErrors(P, policy(spec))).to.deep.equal(expected));

  it('with a parameter kind, validations, message expressions and match conditions see params', () => {
    const spec = {
      paramKind: { apiVersion: 'rules.example.com/v1', kind: 'ReplicaLimit' },
      matchConditions: [{ name: 'has-params', expression: 'params != null' }],
      validations: [{ expression: 'object.spec.replicas <= params.max', messageExpression: "'at most ' + string(params.max)" }],
      auditAnnotations: [{ key: 'max', valueExpression: 'string(params.max)' }],
    };
    expect(createErrors(P, policy(spec))).to.deep.equal([]);
  });

  it('allows at most 20 audit annotations, printed as upstream does', () => {
    const annotations = Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, valueExpression: "'v'" }));
    const errs = createErrors(P, policy({ auditAnnotations: annotations }));
    expect(errs).to.have.length(1);
    expect(errs[0]).to.match(/^spec\.auditAnnotations: Invalid value: \[\]admissionregistration\.AuditAnnotation\{admissionregistration\.AuditAnnotation\{Key:"k0", ValueExpression:"'v'"\}, /);
    expect(errs[0]).to.match(/: must not have more than 20 auditAnnotations$/);
  });
});

describe('admissionregistration/v1 ValidatingAdmissionPolicy: updates and status', () => {
  const stored = (spec: Obj): Obj => ({ ...policy(spec), metadata: { name: 'replica-limit', resourceVersion: '3', generation: 1 } });

  it('does not re-check match conditions while they and the parameter kind are unchanged', () => {
    const conditions = [{ name: 'old', expression: "'not bool'" }];
    const old = stored({ matchConditions: conditions });
    expect(updateErrors(P, stored({ matchConditions: conditions, failurePolicy: 'Ignore' }), old)).to.deep.equal([]);
    expect(updateErrors(P, stored({ matchConditions: conditions, paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } }), old)).to.deep.equal([
      'spec.matchConditions[0].expression: Invalid value: "\'not bool\'": must evaluate to bool',
    ]);
  });

  it('clears status on create, bumps generation on spec changes and keeps status on main writes', () => {
    const s = strategiesOf(P).main;
    const created = defaulted(P, { ...policy({}), status: { observedGeneration: 9 } });
    s.prepareForCreate(testContext, created);
    expect(created.status).to.equal(undefined);
    expect((created.metadata as Obj).generation).to.equal(1);
    const old = { ...created, status: { observedGeneration: 1 } };
    const next = defaulted(P, { ...policy({ failurePolicy: 'Ignore' }), status: { observedGeneration: 5 } });
    s.prepareForUpdate(testContext, next, old);
    expect(next.status).to.deep.equal({ observedGeneration: 1 });
    expect((next.metadata as Obj).generation).to.equal(2);
  });

  it('validates status writes: type-checking warnings and conditions (upstream ValidateValidatingAdmissionPolicyStatusUpdate)', () => {
    const old = stored({});
    const next = {
      ...stored({}),
      status: {
        typeChecking: { expressionWarnings: [{ fieldRef: ' ', warning: '' }] },
        conditions: [
          { type: 'Ready', status: 'Maybe', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'Checked', message: '' },
          { type: 'Ready', status: 'True', observedGeneration: -1, reason: '1bad' },
        ],
      },
    };
    expect(statusErrors(P, next, old)).to.deep.equal([
      'status.typeChecking.expressionWarnings[0].warning: Required value',
      'status.typeChecking.expressionWarnings[0].fieldRef: Required value',
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'status.conditions[1].type: Duplicate value: "Ready"',
      'status.conditions[1].observedGeneration: Invalid value: -1: must be greater than or equal to zero',
      'status.conditions[1].lastTransitionTime: Required value: must be set',
      "status.conditions[1].reason: Invalid value: \"1bad\": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')",
    ]);
  });
});

describe('admissionregistration/v1 ValidatingAdmissionPolicyBinding: validation (upstream ValidateValidatingAdmissionPolicyBinding)', () => {
  const cases: [string, Obj, string[]][] = [
    ['policyName is required', { policyName: '' }, ['spec.policyName: Required value']],
    ['policyName is a DNS subdomain', { policyName: 'Replica_Limit' }, [
      "spec.policyName: Invalid value: \"Replica_Limit\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
    ['paramRef has one of name and selector, and an action', { paramRef: { namespace: 'rules' } }, [
      'spec.paramRef: Required value: one of name or selector must be specified',
      'spec.paramRef.parameterNotFoundAction: Required value',
    ]],
    ['paramRef name and selector are exclusive', { paramRef: { name: 'a/b', selector: {}, parameterNotFoundAction: 'Skip' } }, [
      "spec.paramRef.name: Invalid value: \"a/b\": may not contain '/'",
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.parameterNotFoundAction: Unsupported value: "Skip": supported values: "Deny", "Allow"',
    ]],
    ['match resources are validated (at upstream’s spec.matchResouces)', { matchResources: { matchPolicy: 'Fuzzy', resourceRules: [rule({ scope: 'Global' })] } }, [
      'spec.matchResouces.matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
      'spec.matchResouces.resourceRules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
    ]],
    ['at least one validation action', { validationActions: [] }, ['spec.validationActions: Required value: at least one validation action is required']],
    ['actions are Deny, Warn or Audit, once each', { validationActions: ['Audit', 'Block', 'Audit'] }, [
      'spec.validationActions[1]: Unsupported value: "Block": supported values: "Audit", "Deny", "Warn"',
      'spec.validationActions[2]: Duplicate value: "Audit"',
    ]],
    ['Deny and Warn are not used together', { validationActions: ['Deny', 'Warn'] }, [
      'spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ]],
  ];
  for (const [name, spec, expected] of cases) it(name, () => expect(createErrors(B, binding(spec))).to.deep.equal(expected));

  it('accepts a parameter selected by labels, with Warn and Audit', () => {
    const spec = { paramRef: { selector: { matchLabels: { tier: 'prod' } }, parameterNotFoundAction: 'Allow' }, validationActions: ['Warn', 'Audit'] };
    expect(createErrors(B, binding(spec))).to.deep.equal([]);
    expect(updateErrors(B, binding({ ...spec, validationActions: ['Deny', 'Warn'] }), binding(spec))).to.have.length(1);
  });
});
