import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { FLOWCONTROL_GROUP, flowcontrolV1Kinds, flowSchema, mandatoryFlowSchemas, priorityLevelConfiguration } from '../../../../../lib/apis/flowcontrol/v1/index.js';
import { vendorGroup } from '../../../../../lib/apis/vendor.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: flowSchema.apiVersion,
  kind: 'FlowSchema',
  metadata: { name: 'tenant-a' },
  spec: {
    priorityLevelConfiguration: { name: 'workload-low' },
    rules: [{ subjects: [{ kind: 'Group', group: { name: 'tenant-a' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['tenant-a'] }] }],
  },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const rule = (o: Obj): Obj => (spec(o).rules as Obj[])[0]!;
const subject = (o: Obj): Obj => (rule(o).subjects as Obj[])[0]!;
const resourceRule = (o: Obj): Obj => (rule(o).resourceRules as Obj[])[0]!;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(flowSchema, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(flowSchema, defaulted(mutate)));

describe('flowcontrol/v1 FlowSchema: definition (issue #12)', () => {
  it('declares the upstream discovery facts: cluster-scoped, status subresource, no short names', () => {
    expect(FLOWCONTROL_GROUP).to.equal(vendorGroup('flowcontrol.apiserver'));
    expect(flowSchema).to.include({ group: FLOWCONTROL_GROUP, version: 'v1', kind: 'FlowSchema', resource: 'flowschemas', singular: 'flowschema', namespaced: false, statusSubresource: true, nameRule: 'dns1123Subdomain' });
    expect(flowSchema.shortNames).to.deep.equal([]);
    expect(flowSchema.categories).to.deep.equal([]);
    expect(flowSchema.fieldSelectors).to.deep.equal({});
    expect(flowSchema.schema.id).to.equal('api.flowcontrol.v1.FlowSchema');
    expect(flowcontrolV1Kinds).to.deep.equal([flowSchema, priorityLevelConfiguration]);
  });

  it('defaults matchingPrecedence to 1000 and nothing else; validates clean', () => {
    const o = minimal();
    expect(decodeAndDefault(flowSchema, o)).to.deep.equal({ unknownFields: [] });
    expect(o).to.deep.equal({ ...minimal(), spec: { ...spec(minimal()), matchingPrecedence: 1000 } });
    expect(validateCreate(flowSchema, o)).to.deep.equal([]);
  });

  it('defaults a zero precedence and an absent spec too; keeps a set precedence', () => {
    expect(spec(defaulted((o) => (spec(o).matchingPrecedence = 0))).matchingPrecedence).to.equal(1000);
    expect(spec(defaulted((o) => (spec(o).matchingPrecedence = 42))).matchingPrecedence).to.equal(42);
    const bare: Obj = { metadata: { name: 'x' } };
    decodeAndDefault(flowSchema, bare);
    expect(bare.spec).to.deep.equal({ priorityLevelConfiguration: {}, matchingPrecedence: 1000 });
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    const complete = (): Obj => ({ apiVersion: flowSchema.apiVersion, ...fixture('flow-schema') });
    expect(decodeAndDefault(flowSchema, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(flowSchema.schema, complete(), ['metadata.namespace'])).to.deep.equal([]);
  });
});

describe('flowcontrol/v1 FlowSchema: validation (upstream ValidateFlowSchema; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['matchingPrecedence is at most 10000', (o) => (spec(o).matchingPrecedence = 10001), ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000']],
    ['matchingPrecedence is positive', (o) => (spec(o).matchingPrecedence = -3), ['spec.matchingPrecedence: Invalid value: -3: must be a positive value']],
    ['only exempt may have precedence 1', (o) => (spec(o).matchingPrecedence = 1), ["spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1"]],
    ['the distinguisher is ByUser or ByNamespace', (o) => (spec(o).distinguisherMethod = { type: 'ByColor' }), [
      'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByColor"}: supported values: "ByNamespace", "ByUser"',
    ]],
    ['a priority level is referenced', (o) => (spec(o).priorityLevelConfiguration = {}), ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level']],
    ['the priority level name is a DNS subdomain', (o) => (spec(o).priorityLevelConfiguration = { name: 'Low' }), [
      "spec.priorityLevelConfiguration.name: Invalid value: \"Low\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
    ['a rule needs subjects', (o) => (rule(o).subjects = []), ['spec.rules[0].subjects: Required value: subjects must contain at least one value']],
    ['a rule needs resource or non-resource rules', (o) => delete rule(o).resourceRules, ['spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty']],
    ['subject kinds are User, Group, ServiceAccount', (o) => (subject(o).kind = 'Robot'), ['spec.rules[0].subjects[0].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"']],
    ['a Group subject needs group', (o) => delete subject(o).group, ["spec.rules[0].subjects[0].group: Required value: group is required when subject kind is 'Group'"]],
    ['a Group subject needs a group name', (o) => (subject(o).group = { name: '' }), ['spec.rules[0].subjects[0].group.name: Required value']],
    ['a Group subject has no user or serviceAccount', (o) => Object.assign(subject(o), { user: { name: 'a' }, serviceAccount: { namespace: 'n', name: 's' } }), [
      "spec.rules[0].subjects[0].serviceAccount: Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
      "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
    ]],
    ['a User subject needs user and no group', (o) => (subject(o).kind = 'User'), [
      "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
      "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
    ]],
    ['a ServiceAccount subject needs a namespace and a valid name', (o) => (rule(o).subjects = [{ kind: 'ServiceAccount', serviceAccount: { name: 'Bad_Name' } }]), [
      "spec.rules[0].subjects[0].serviceAccount.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.rules[0].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account',
    ]],
    ['a ServiceAccount subject may name every account with *', (o) => (rule(o).subjects = [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ci', name: '*' } }]), []],
    ['a ServiceAccount subject needs serviceAccount', (o) => (rule(o).subjects = [{ kind: 'ServiceAccount', user: { name: 'x' } }]), [
      "spec.rules[0].subjects[0].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
      "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
    ]],
    ['resource rules need verbs', (o) => (resourceRule(o).verbs = []), ['spec.rules[0].resourceRules[0].verbs: Required value: verbs must contain at least one value']],
    ['* is the only verb when present', (o) => (resourceRule(o).verbs = ['*', 'get']), [
      'spec.rules[0].resourceRules[0].verbs: Invalid value: []string{"*", "get"}: if \'*\' is present, must not specify other verbs',
    ]],
    ['verbs are the supported ones', (o) => (resourceRule(o).verbs = ['get', 'escalate']), [
      'spec.rules[0].resourceRules[0].verbs: Unsupported value: []string{"get", "escalate"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
    ]],
    ['resource rules need api groups and resources', (o) => Object.assign(resourceRule(o), { apiGroups: [], resources: [] }), [
      'spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'spec.rules[0].resourceRules[0].resources: Required value: resource rules must supply at least one resource',
    ]],
    ['* is the only api group and resource when present', (o) => Object.assign(resourceRule(o), { apiGroups: ['*', 'apps'], resources: ['pods', '*'] }), [
      'spec.rules[0].resourceRules[0].apiGroups: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other api groups',
      'spec.rules[0].resourceRules[0].resources: Invalid value: []string{"pods", "*"}: if \'*\' is present, must not specify other resources',
    ]],
    ['namespaces are required without clusterScope', (o) => (resourceRule(o).namespaces = []), [
      'spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace',
    ]],
    ['clusterScope alone is enough', (o) => Object.assign(resourceRule(o), { namespaces: [], clusterScope: true }), []],
    ['namespaces are DNS labels or * alone', (o) => (resourceRule(o).namespaces = ['Team.A']), [
      "spec.rules[0].resourceRules[0].namespaces[0]: Invalid value: \"Team.A\": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]],
    ['* is the only namespace when present', (o) => (resourceRule(o).namespaces = ['*', 'a']), [
      'spec.rules[0].resourceRules[0].namespaces: Invalid value: []string{"*", "a"}: if \'*\' is present, must not specify other namespaces',
    ]],
  ];
  for (const [name, mutate, expected] of cases) {
    it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
  }

  const urls: [string, string[], string[]][] = [
    ['non-resource rules need URLs', [], ['spec.rules[0].nonResourceRules[0].nonResourceURLs: Required value: nonResourceURLs must contain at least one value']],
    ['* is the only URL when present', ['*', '/healthz'], ['spec.rules[0].nonResourceRules[0].nonResourceURLs: Invalid value: []string{"*", "/healthz"}: if \'*\' is present, must not specify other non-resource URLs']],
    ['a URL is not empty', [''], ['spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "": must not be empty']],
    ['a URL starts with a slash', ['healthz'], ['spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "healthz": must start with slash']],
    ['a URL has no white space', ['/a b'], ['spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/a b": must not contain white-space']],
    ['a URL has no double slash', ['/a//b'], ['spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/a//b": must not contain double slash']],
    ['a wildcard only as the /* suffix', ['/hea*'], ['spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/hea*": wildcard can only do suffix matching']],
    ['/, paths and /* suffixes are fine', ['/', '/healthz', '/metrics/*'], []],
  ];
  for (const [name, nonResourceURLs, expected] of urls) {
    it(`non-resource rules: ${name}`, () => expect(errorsOf((o) => (rule(o).nonResourceRules = [{ verbs: ['get'], nonResourceURLs }]))).to.deep.equal(expected));
  }

  it('the mandatory schemas must keep their fixed spec; an equal spec is accepted', () => {
    const [exempt, catchAll] = mandatoryFlowSchemas();
    const edited = variant(catchAll!, (o) => (spec(o).distinguisherMethod = { type: 'ByNamespace' }));
    decodeAndDefault(flowSchema, edited);
    const errs = validateCreate(flowSchema, edited);
    expect(errs.map((e) => [e.field, e.detail])).to.deep.equal([['spec', "spec of 'catch-all' must equal the fixed value"]]);
    for (const o of [exempt!, catchAll!]) {
      const copy = structuredClone(o) as Obj;
      decodeAndDefault(flowSchema, copy);
      expect(validateCreate(flowSchema, copy)).to.deep.equal([]);
    }
    // a spec written with its zero values spelled out is the same spec
    const spelled = variant(exempt!, (o) => {
      spec(o).distinguisherMethod = null;
      (spec(o).rules as Obj[])[0]!.resourceRules = [{ namespaces: ['*'], clusterScope: true, resources: ['*'], apiGroups: ['*'], verbs: ['*'] }];
    });
    decodeAndDefault(flowSchema, spelled);
    expect(validateCreate(flowSchema, spelled)).to.deep.equal([]);
  });

  it('status conditions need unique, non-empty types (on create, update and status writes)', () => {
    const status = { conditions: [{ type: 'Dangling', status: 'True' }, { type: 'Dangling', status: 'False' }, { status: 'True' }] };
    const expected = ['status.conditions[1].type: Duplicate value: "Dangling"', 'status.conditions[2].type: Required value: must not be empty'];
    const o = defaulted((x) => (x.status = status));
    expect(messages(validateCreate(flowSchema, o))).to.deep.equal(expected);
    const old = defaulted();
    expect(messages(validateStatus(flowSchema, o, old))).to.deep.equal(expected);
  });

  it('updates are validated as creates; metadata.name is immutable', () => {
    const old = defaulted((o) => ((o.metadata as Obj).resourceVersion = '5'));
    const updated = variant(old, (o) => {
      spec(o).matchingPrecedence = 20000;
      (o.metadata as Obj).name = 'renamed';
    });
    expect(messages(validateUpdate(flowSchema, updated, old))).to.deep.equal([
      'metadata.name: Invalid value: "renamed": field is immutable',
      'spec.matchingPrecedence: Invalid value: 20000: must not be greater than 10000',
    ]);
  });
});
