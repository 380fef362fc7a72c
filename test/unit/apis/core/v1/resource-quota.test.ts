import { expect } from 'chai';
import { resourceQuota } from '../../../../../lib/apis/core/v1/resource-quota.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'quota', namespace: 'default' },
  spec: { hard: { pods: '10', 'requests.cpu': '4', 'limits.memory': '8Gi' } },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const errorsOf = (mutate: (o: Obj) => void): string[] => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(resourceQuota, o);
  return messages(validateCreate(resourceQuota, o));
};
const TERMINATING_ONLY =
  "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity";

describe('core/v1 ResourceQuota: definition (issue #12 item 1)', () => {
  it('declares the upstream discovery facts: namespaced, short name quota, status subresource', () => {
    expect(resourceQuota).to.include({
      group: '',
      version: 'v1',
      kind: 'ResourceQuota',
      resource: 'resourcequotas',
      singular: 'resourcequota',
      namespaced: true,
      statusSubresource: true,
      nameRule: 'dns1123Subdomain',
    });
    expect(resourceQuota.shortNames).to.deep.equal(['quota']);
    expect(resourceQuota.categories).to.deep.equal([]);
  });

  it('decodes a minimal quota with no defaults and validates clean', () => {
    const q = minimal();
    expect(decodeAndDefault(resourceQuota, q)).to.deep.equal({ unknownFields: [] });
    expect(q).to.deep.equal(minimal());
    expect(validateCreate(resourceQuota, q)).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    const complete = (): Obj => ({ apiVersion: 'v1', ...fixture('resource-quota') });
    expect(decodeAndDefault(resourceQuota, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(resourceQuota.schema, complete())).to.deep.equal([]);
    expect(validateCreate(resourceQuota, complete())).to.deep.equal([]);
  });
});

describe('core/v1 ResourceQuota: validation (upstream ValidateResourceQuota; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['hard names are standard or qualified', (o) => (spec(o).hard = { widgets: '1' }), [
      'spec.hard[widgets]: Invalid value: "widgets": must be a standard resource type or fully qualified',
      'spec.hard[widgets]: Invalid value: "widgets": must be a standard resource for quota',
    ]],
    ['hard names are quota resources', (o) => (spec(o).hard = { storage: '1Gi' }), ['spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota']],
    ['qualified and hugepages names are accepted', (o) => (spec(o).hard = { 'count/deployments.apps': '2', 'requests.hugepages-2Mi': '4Mi', 'example.com/gpu': '1' }), []],
    ['hard amounts are not negative', (o) => (spec(o).hard = { 'requests.cpu': '-1' }), ['spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0']],
    ['countable amounts are whole', (o) => (spec(o).hard = { pods: '1500m' }), ['spec.hard[pods]: Invalid value: "1500m": must be an integer']],
    ['scopes are supported', (o) => (spec(o).scopes = ['Soon']), ['spec.scopes: Invalid value: ["Soon"]: unsupported scope']],
    ['scopes apply to every limited resource', (o) => Object.assign(spec(o), { hard: { secrets: '1' }, scopes: ['BestEffort'] }), [
      'spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource',
    ]],
    ['scopes do not conflict', (o) => Object.assign(spec(o), { hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating'] }), [
      'spec.scopes: Invalid value: ["Terminating","NotTerminating"]: conflicting scopes',
    ]],
    ['pod scopes use Exists', (o) => (spec(o).scopeSelector = { matchExpressions: [{ scopeName: 'Terminating', operator: 'In', values: ['x'] }] }), [
      `spec.scopeSelector.matchExpressions.operator: Invalid value: "In": ${TERMINATING_ONLY}`,
    ]],
    ['In needs values', (o) => (spec(o).scopeSelector = { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In' }] }), [
      "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
    ]],
    ['Exists takes no values', (o) => (spec(o).scopeSelector = { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Exists', values: ['high'] }] }), [
      "spec.scopeSelector.matchExpressions.values: Invalid value: [\"high\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
    ]],
    ['selector operators are valid', (o) => (spec(o).scopeSelector = { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Like' }] }), [
      'spec.scopeSelector.matchExpressions.operator: Invalid value: "Like": not a valid selector operator',
    ]],
    ['selector scopes are supported', (o) => (spec(o).scopeSelector = { matchExpressions: [{ scopeName: 'Soon', operator: 'Exists' }] }), [
      'spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Soon": unsupported scope',
    ]],
    ['selector scopes do not conflict', (o) =>
      Object.assign(spec(o), { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'BestEffort', operator: 'Exists' }, { scopeName: 'NotBestEffort', operator: 'Exists' }] } }), [
      'spec.scopeSelector.matchExpressions: Invalid value: null: conflicting scopes',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('core/v1 ResourceQuota: updates and status writes (upstream ValidateResourceQuotaUpdate, ...StatusUpdate)', () => {
  const stored = (): Obj =>
    variant(minimal(), (o) => {
      (o.metadata as Obj).resourceVersion = '1';
      spec(o).scopes = ['NotTerminating'];
      spec(o).hard = { pods: '10' };
    });

  it('allows new hard limits', () => {
    const old = stored();
    expect(messages(validateUpdate(resourceQuota, variant(old, (o) => (spec(o).hard = { pods: '20' })), old))).to.deep.equal([]);
  });

  it('keeps the scopes immutable', () => {
    const old = stored();
    expect(messages(validateUpdate(resourceQuota, variant(old, (o) => (spec(o).scopes = ['Terminating'])), old))).to.deep.equal([
      'spec.scopes: Invalid value: ["Terminating"]: field is immutable',
    ]);
  });

  it('accepts a status with enforced and used amounts, and rejects bad ones', () => {
    const old = stored();
    const ok = variant(old, (o) => (o.status = { hard: { pods: '10' }, used: { pods: '3' } }));
    expect(messages(validateStatus(resourceQuota, ok, old))).to.deep.equal([]);
    const bad = variant(old, (o) => (o.status = { hard: { widgets: '1' }, used: { pods: '-1' } }));
    expect(messages(validateStatus(resourceQuota, bad, old))).to.deep.equal([
      'status.hard[widgets]: Invalid value: "widgets": must be a standard resource type or fully qualified',
      'status.hard[widgets]: Invalid value: "widgets": must be a standard resource for quota',
      'status.used[pods]: Invalid value: "-1": must be greater than or equal to 0',
    ]);
  });
});
