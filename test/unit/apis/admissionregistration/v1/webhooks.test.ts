import { expect } from 'chai';
import { ADMISSIONREGISTRATION_GROUP, admissionregistrationV1Kinds, mutatingWebhookConfiguration, validatingWebhookConfiguration } from '../../../../../lib/apis/admissionregistration/v1/index.js';
import type { KindDefinition, Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, unsetFields } from '../../kind-pipeline.js';
import { createErrors, defaulted, strategiesOf, testContext, updateErrors } from './pipeline.js';
import { covers } from '../../../../conformance/covers.js';

const apiVersion = `${ADMISSIONREGISTRATION_GROUP}/v1`;
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const FORM = '; desired format: https://host[/path]';

const hook = (extra: Obj = {}): Obj => ({
  name: 'pods.hooks.example.com',
  clientConfig: { service: { namespace: 'hooks', name: 'webhook' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const config = (kind: KindDefinition, ...webhooks: Obj[]): Obj => ({ apiVersion, kind: kind.kind, metadata: { name: 'policy' }, webhooks });
const hookOf = (o: Obj, i = 0): Obj => (o.webhooks as Obj[])[i]!;

describe('admissionregistration/v1 webhook configurations: definitions (issue #12)', () => {
  it('declares the upstream discovery facts, in discovery order', () => {
    expect(admissionregistrationV1Kinds.map((k) => k.resource)).to.deep.equal([
      'mutatingwebhookconfigurations',
      'validatingadmissionpolicies',
      'validatingadmissionpolicybindings',
      'validatingwebhookconfigurations',
    ]);
    for (const [kind, name] of [[validatingWebhookConfiguration, 'ValidatingWebhookConfiguration'], [mutatingWebhookConfiguration, 'MutatingWebhookConfiguration']] as const) {
      expect(kind).to.include({ group: ADMISSIONREGISTRATION_GROUP, version: 'v1', kind: name, singular: name.toLowerCase(), namespaced: false, statusSubresource: false });
      expect(kind.shortNames).to.deep.equal([]);
      expect(kind.categories).to.deep.equal(['api-extensions']);
      expect(kind.fieldSelectors).to.deep.equal({});
    }
  });

  it(`applies exactly the upstream defaults to a webhook (failure and match policy, selectors, timeout, rule scope, service port)${covers('001 § Limits › Default webhook timeout')}`, () => {
    const o = defaulted(validatingWebhookConfiguration, config(validatingWebhookConfiguration, hook()));
    expect(hookOf(o)).to.deep.equal({
      ...hook(),
      clientConfig: { service: { namespace: 'hooks', name: 'webhook', port: 443 } },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
    });
    expect(createErrors(validatingWebhookConfiguration, o)).to.deep.equal([]);
  });

  it('defaults reinvocationPolicy to Never on a mutating webhook only, and leaves sideEffects and admissionReviewVersions unset', () => {
    const m = defaulted(mutatingWebhookConfiguration, config(mutatingWebhookConfiguration, { name: 'a.b.c', clientConfig: { url: 'https://x' } }));
    expect(hookOf(m)).to.include({ reinvocationPolicy: 'Never' });
    expect(hookOf(m)).to.not.have.any.keys('sideEffects', 'admissionReviewVersions');
    const v = defaulted(validatingWebhookConfiguration, config(validatingWebhookConfiguration, { name: 'a.b.c', clientConfig: { url: 'https://x' } }));
    expect(hookOf(v)).to.not.have.any.keys('reinvocationPolicy', 'sideEffects');
  });

  it('decodes the complete fixtures with no unknown field, setting every field of the structure', () => {
    for (const [kind, name] of [[validatingWebhookConfiguration, 'validating-webhook-configuration'], [mutatingWebhookConfiguration, 'mutating-webhook-configuration']] as const) {
      const f = { apiVersion, ...fixture(name) };
      expect(decodeAndDefault(kind, f)).to.deep.equal({ unknownFields: [] });
      expect(unsetFields(kind.schema, f, ['metadata.namespace'])).to.deep.equal([]);
    }
  });
});

describe('admissionregistration/v1 webhook configurations: validation (upstream ValidateValidatingWebhookConfiguration; 422 causes)', () => {
  const V = validatingWebhookConfiguration;
  const cases: [string, Obj[], string[]][] = [
    ['a webhook has a name', [hook({ name: '' })], ['webhooks[0].name: Required value']],
    ['the name has at least three segments', [hook({ name: 'hooks.example' })], ['webhooks[0].name: Invalid value: "hooks.example": should be a domain with at least three segments separated by dots']],
    ['the name is a DNS subdomain', [hook({ name: 'Pods.example.com' })], [`webhooks[0].name: Invalid value: "Pods.example.com": ${SUBDOMAIN}`]],
    ['names are unique', [hook(), hook()], ['webhooks[1].name: Duplicate value: "pods.hooks.example.com"']],
    ['exactly one of url and service', [hook({ clientConfig: { url: 'https://a.example.com', service: { namespace: 'a', name: 'b' } } })], [
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
    ]],
    ['one of url and service is required', [hook({ clientConfig: {} })], ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']],
    ['the url is https', [hook({ clientConfig: { url: 'http://a.example.com/hook' } })], [`webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme${FORM}`]],
    ['the url has a host', [hook({ clientConfig: { url: 'https:///hook' } })], [`webhooks[0].clientConfig.url: Invalid value: "": host must be provided${FORM}`]],
    ['the url has no user information, fragment or query', [hook({ clientConfig: { url: 'https://u:p@a.example.com/hook?x=1#top' } })], [
      'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "top": fragments are not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL',
    ]],
    ['the url parses as a URL', [hook({ clientConfig: { url: 'https://a b.example.com' } })], [
      `webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://a b.example.com": invalid character " " in host name${FORM}`,
    ]],
    ['a relative url is not https and has no host', [hook({ clientConfig: { url: 'hooks/validate' } })], [
      `webhooks[0].clientConfig.url: Invalid value: "": 'https' is the only allowed URL scheme${FORM}`,
      `webhooks[0].clientConfig.url: Invalid value: "": host must be provided${FORM}`,
    ]],
    ['the service has a namespace (reported at name, as upstream swaps them)', [hook({ clientConfig: { service: { namespace: '', name: 'webhook' } } })], [
      'webhooks[0].clientConfig.service.name: Required value: service name is required',
    ]],
    ['the service has a name (reported at namespace)', [hook({ clientConfig: { service: { namespace: 'hooks', name: '' } } })], [
      'webhooks[0].clientConfig.service.namespace: Required value: service namespace is required',
    ]],
    ['the service port is 1-65535', [hook({ clientConfig: { service: { namespace: 'hooks', name: 'webhook', port: 0 } } })], [
      'webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
    ]],
    ['the service path starts with a slash', [hook({ clientConfig: { service: { namespace: 'hooks', name: 'webhook', path: 'validate' } } })], [
      `webhooks[0].clientConfig.service.path: Invalid value: "validate": must start with a '/'`,
    ]],
    ['the service path has no empty or invalid segments', [hook({ clientConfig: { service: { namespace: 'hooks', name: 'webhook', path: '/a//B/' } } })], [
      'webhooks[0].clientConfig.service.path: Invalid value: "/a//B/": segment[1] may not be empty',
      `webhooks[0].clientConfig.service.path: Invalid value: "/a//B/": segment[2]: ${SUBDOMAIN}`,
    ]],
    ['a rule has operations', [hook({ rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })], ['webhooks[0].rules[0].operations: Required value']],
    ["'*' is the only operation", [hook({ rules: [{ operations: ['*', 'CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })], [
      `webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if '*' is present, must not specify other operations`,
    ]],
    ['operations are admission operations', [hook({ rules: [{ operations: ['PATCH'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })], [
      'webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    ]],
    ['a rule has groups, versions and resources', [hook({ rules: [{ operations: ['CREATE'] }] })], [
      'webhooks[0].rules[0].apiGroups: Required value',
      'webhooks[0].rules[0].apiVersions: Required value',
      'webhooks[0].rules[0].resources: Required value',
    ]],
    ["'*' is the only group and the only version; versions are not empty", [hook({ rules: [{ operations: ['CREATE'], apiGroups: ['*', 'apps'], apiVersions: ['*', ''], resources: ['pods'] }] })], [
      `webhooks[0].rules[0].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other API groups`,
      `webhooks[0].rules[0].apiVersions: Invalid value: []string{"*", ""}: if '*' is present, must not specify other API versions`,
      'webhooks[0].rules[0].apiVersions[1]: Required value',
    ]],
    ["'*/*' is the only resource", [hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*/*', 'pods'] }] })], [
      `webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`,
    ]],
    ["'*' excludes other resources without subresources", [hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*', 'pods'] }] })], [
      `webhooks[0].rules[0].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources without subresources`,
    ]],
    ['wildcard subresources overlap nothing', [hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/*', 'pods/log', '*/scale', 'deployments/scale', ''] }] })], [
      'webhooks[0].rules[0].resources[1]: Invalid value: "pods/log": if \'pods/*\' is present, must not specify pods/log',
      'webhooks[0].rules[0].resources[3]: Invalid value: "deployments/scale": if \'*/scale\' is present, must not specify deployments/scale',
      'webhooks[0].rules[0].resources[4]: Required value',
    ]],
    ['the scope is Cluster, Namespaced or *', [hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Global' }] })], [
      'webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
    ]],
    ['the failure policy is Fail or Ignore', [hook({ failurePolicy: 'Retry' })], ['webhooks[0].failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"']],
    ['the match policy is Exact or Equivalent', [hook({ matchPolicy: 'Fuzzy' })], ['webhooks[0].matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"']],
    ['sideEffects is required', [hook({ sideEffects: undefined })], ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']],
    ['sideEffects is None or NoneOnDryRun in v1', [hook({ sideEffects: 'Some' })], ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']],
    ['the timeout is 1-30 seconds', [hook({ timeoutSeconds: 31 }), hook({ name: 'b.hooks.example.com', timeoutSeconds: 0 })], [
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      'webhooks[1].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds',
    ]],
    ['selectors are valid label selectors', [hook({ namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Near' }] }, objectSelector: { matchExpressions: [{ key: 'a', operator: 'In', values: ['b c'] }] } })], [
      'webhooks[0].namespaceSelector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
      "webhooks[0].objectSelector.matchExpressions[0].values[0]: Invalid value: \"b c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]],
    ['admissionReviewVersions is required', [hook({ admissionReviewVersions: undefined })], ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']],
    ['admissionReviewVersions includes v1 or v1beta1', [hook({ admissionReviewVersions: ['v2'] })], [
      'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
    ]],
    ['admissionReviewVersions are unique DNS-1035 labels', [hook({ admissionReviewVersions: ['v1', 'v1', 'V2'] })], [
      'webhooks[0].admissionReviewVersions[1]: Invalid value: "v1": duplicate version',
      "webhooks[0].admissionReviewVersions[2]: Invalid value: \"V2\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]],
  ];
  for (const [name, hooks, expected] of cases) it(name, () => expect(createErrors(V, config(V, ...hooks))).to.deep.equal(expected));

  it('a mutating webhook has the same rules, plus reinvocationPolicy Never or IfNeeded', () => {
    const M = mutatingWebhookConfiguration;
    expect(createErrors(M, config(M, hook({ reinvocationPolicy: 'Always', sideEffects: 'Unknown' })))).to.deep.equal([
      'webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
      'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
    ]);
    expect(createErrors(M, config(M, hook({ reinvocationPolicy: 'IfNeeded' })))).to.deep.equal([]);
  });
});

describe('admissionregistration/v1 webhook configurations: match conditions (upstream validateMatchConditions)', () => {
  const V = validatingWebhookConfiguration;
  const withConditions = (matchConditions: Obj[]) => config(V, hook({ matchConditions }));

  it('accepts boolean CEL conditions over request, object, oldObject, namespaceObject and authorizer', () => {
    const conditions = [
      { name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" },
      { name: 'example.com/in-ns', expression: "request.namespace == 'default' && has(object.metadata)" },
      { name: 'labelled', expression: "namespaceObject.metadata.labels['env'] == 'prod' || oldObject == null" },
      { name: 'can-get', expression: "authorizer.requestResource.check('get').allowed() && authorizer.group('apps').resource('deployments').check('list').allowed()" },
    ];
    expect(createErrors(V, withConditions(conditions))).to.deep.equal([]);
  });

  it('reports blank, non-boolean, invalid and parameterized expressions, invalid and duplicate names', () => {
    expect(createErrors(V, withConditions([
      { name: 'blank', expression: '   ' },
      { name: 'string', expression: "'yes'" },
      { name: 'syntax', expression: 'object.x ==' },
      { name: 'bad name!', expression: 'params.x == 1' },
      { name: '', expression: 'true' },
      { name: 'string', expression: 'true' },
    ]))).to.deep.equal([
      'webhooks[0].matchConditions[0].expression: Required value',
      'webhooks[0].matchConditions[1].expression: Invalid value: "\'yes\'": must evaluate to bool',
      'webhooks[0].matchConditions[2].expression: Invalid value: "object.x ==": compilation failed: ERROR: <input>:1:12: Syntax error: Unexpected token: EOF\n | object.x ==\n | ...........^',
      'webhooks[0].matchConditions[3].expression: Invalid value: "params.x == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to \'params\'\n | params.x == 1\n | ^',
      "webhooks[0].matchConditions[3].name: Invalid value: \"bad name!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'webhooks[0].matchConditions[4].name: Required value',
      'webhooks[0].matchConditions[5].name: Duplicate value: "string"',
    ]);
  });

  it('allows at most 64 conditions', () => {
    const conditions = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
    expect(createErrors(V, withConditions(conditions))).to.deep.equal(['webhooks[0].matchConditions: Too many: 65: must have at most 64 items']);
  });
});

describe('admissionregistration/v1 webhook configurations: updates (upstream ValidateValidatingWebhookConfigurationUpdate ratcheting)', () => {
  const V = validatingWebhookConfiguration;
  const stored = (...hooks: Obj[]) => ({ ...config(V, ...hooks), metadata: { name: 'policy', resourceVersion: '7', generation: 1 } });

  it('keeps accepting side effects, review versions and duplicate names the stored object already had', () => {
    const old = stored(hook({ sideEffects: 'Some', admissionReviewVersions: ['v2'] }), hook());
    const next = stored(hook({ sideEffects: 'Unknown', admissionReviewVersions: ['v3'], timeoutSeconds: 5 }), hook());
    expect(updateErrors(V, next, old)).to.deep.equal([]);
    expect(createErrors(V, next)).to.have.length(3);
  });

  it('enforces the rules again once the stored object follows them', () => {
    const old = stored(hook());
    expect(updateErrors(V, stored(hook({ sideEffects: 'Some' })), old)).to.deep.equal([
      'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
    ]);
  });

  it('does not re-check unchanged match conditions, and checks changed ones', () => {
    const bad = [{ name: 'old', expression: "'not a bool'" }];
    const old = stored(hook({ matchConditions: bad }));
    expect(updateErrors(V, stored(hook({ matchConditions: bad, timeoutSeconds: 3 })), old)).to.deep.equal([]);
    expect(updateErrors(V, stored(hook({ matchConditions: [...bad, { name: 'new', expression: 'true' }] })), old)).to.deep.equal([
      'webhooks[0].matchConditions[0].expression: Invalid value: "\'not a bool\'": must evaluate to bool',
    ]);
  });

  it('tolerates invalid selector values the stored object already had', () => {
    const sel = { matchExpressions: [{ key: 'a', operator: 'In', values: ['b c'] }] };
    expect(updateErrors(V, stored(hook({ objectSelector: sel, timeoutSeconds: 3 })), stored(hook({ objectSelector: sel })))).to.deep.equal([]);
  });

  it('sets generation 1 on create and bumps it when the webhooks change', () => {
    const s = strategiesOf(V).main;
    const created = defaulted(V, config(V, hook()));
    s.prepareForCreate(testContext, created);
    expect((created.metadata as Obj).generation).to.equal(1);
    const relabelled = structuredClone(created);
    (relabelled.metadata as Obj).labels = { a: 'b' };
    s.prepareForUpdate(testContext, relabelled, created);
    expect((relabelled.metadata as Obj).generation).to.equal(1);
    const changed = defaulted(V, config(V, hook({ timeoutSeconds: 3 })));
    s.prepareForUpdate(testContext, changed, created);
    expect((changed.metadata as Obj).generation).to.equal(2);
    expect(s.allowCreateOnUpdate()).to.equal(false);
    expect(s.allowUnconditionalUpdate()).to.equal(false);
  });
});
