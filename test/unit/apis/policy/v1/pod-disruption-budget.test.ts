import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { eviction, POLICY_GROUP, podDisruptionBudget, policyV1Kinds } from '../../../../../lib/apis/policy/v1/index.js';
import { PDB_V1BETA1_SELECTOR_LABEL } from '../../../../../lib/apis/vendor.js';
import { podDisruptionBudgetStatusStrategy } from '../../../../../lib/registry/policy/poddisruptionbudget/strategy.js';
import { internalContext } from '../../../../../lib/request/context.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default' },
  spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
});
const spec = (o: Obj) => o.spec as Obj;
const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

describe('policy/v1 PodDisruptionBudget (issue #12 item 1)', () => {
  it('declares the upstream discovery facts: short name pdb, status subresource, no category', () => {
    expect(POLICY_GROUP).to.equal('policy');
    expect(podDisruptionBudget).to.include({ group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', singular: 'poddisruptionbudget', namespaced: true, statusSubresource: true });
    expect(podDisruptionBudget.shortNames).to.deep.equal(['pdb']);
    expect(podDisruptionBudget.categories).to.deep.equal([]);
    expect(podDisruptionBudget.schema.id).to.equal('api.policy.v1.PodDisruptionBudget');
    expect(policyV1Kinds).to.deep.equal([podDisruptionBudget]);
    expect(eviction).to.include({ group: 'policy', version: 'v1', kind: 'Eviction' });
  });

  it('has no defaults in v1: a minimal budget decodes unchanged and validates clean', () => {
    const p = minimal();
    expect(decodeAndDefault(podDisruptionBudget, p)).to.deep.equal({ unknownFields: [] });
    expect(p).to.deep.equal(minimal());
    expect(validateCreate(podDisruptionBudget, p)).to.deep.equal([]);
  });

  it('decodes the complete fixture with every field and no unknown field', () => {
    const complete = (): Obj => fixture('pod-disruption-budget');
    expect(decodeAndDefault(podDisruptionBudget, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(podDisruptionBudget.schema, complete())).to.deep.equal([]);
  });

  describe('the v1beta1 migration label of the selector', () => {
    const withExprs = (exprs: Obj[]) => variant(minimal(), (o) => (spec(o).selector = { matchLabels: { app: 'web' }, matchExpressions: exprs }));
    it('is stripped from an ordinary selector', () => {
      const p = withExprs([{ key: PDB_V1BETA1_SELECTOR_LABEL, operator: 'DoesNotExist' }, { key: 'tier', operator: 'Exists' }]);
      decodeAndDefault(podDisruptionBudget, p);
      expect(spec(p).selector).to.deep.equal({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] });
    });
    it('leaves no matchExpressions when it was the only one', () => {
      const p = withExprs([{ key: PDB_V1BETA1_SELECTOR_LABEL, operator: 'DoesNotExist' }]);
      decodeAndDefault(podDisruptionBudget, p);
      expect(spec(p).selector).to.deep.equal({ matchLabels: { app: 'web' } });
    });
    it('is kept in the exact match-none form', () => {
      const none = { matchExpressions: [{ key: PDB_V1BETA1_SELECTOR_LABEL, operator: 'Exists' }] };
      const p = variant(minimal(), (o) => (spec(o).selector = none));
      decodeAndDefault(podDisruptionBudget, p);
      expect(spec(p).selector).to.deep.equal(none);
    });
  });

  const cases: Array<[string, (o: Obj) => void, string[]]> = [
    ['minAvailable and maxUnavailable are exclusive', (o) => (spec(o).maxUnavailable = 1), [
      'spec: Invalid value: {"minAvailable":1,"selector":{"matchLabels":{"app":"web"}},"maxUnavailable":1}: minAvailable and maxUnavailable cannot be both set',
    ]],
    ['minAvailable is not negative', (o) => (spec(o).minAvailable = -1), ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']],
    ['minAvailable percentages are well formed', (o) => (spec(o).minAvailable = 'half'), [`spec.minAvailable: Invalid value: "half": ${PERCENT_MSG}`]],
    ['maxUnavailable is at most 100%', (o) => {
      delete spec(o).minAvailable;
      spec(o).maxUnavailable = '150%';
    }, ['spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%']],
    ['100% is allowed', (o) => (spec(o).minAvailable = '100%'), []],
    ['the selector is validated', (o) => (spec(o).selector = { matchExpressions: [{ key: 'a', operator: 'In' }] }), [
      'spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\'',
    ]],
    ['an empty selector (every pod) is valid', (o) => (spec(o).selector = {}), []],
    ['unhealthyPodEvictionPolicy is IfHealthyBudget or AlwaysAllow', (o) => (spec(o).unhealthyPodEvictionPolicy = 'Never'), [
      'spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
    ]],
  ];
  for (const [name, mutate, expected] of cases) {
    it(`validation: ${name}`, () => {
      const p = variant(minimal(), mutate);
      decodeAndDefault(podDisruptionBudget, p);
      expect(messages(validateCreate(podDisruptionBudget, p))).to.deep.equal(expected);
    });
  }

  it('the spec stays mutable on update', () => {
    const old = minimal();
    decodeAndDefault(podDisruptionBudget, old);
    const updated = variant(old, (o) => (o.spec = { maxUnavailable: '10%', selector: { matchLabels: { app: 'api' } } }));
    expect(validateUpdate(podDisruptionBudget, updated, old)).to.deep.equal([]);
  });

  it('status writes check the conditions and non-negative counts', () => {
    const old = minimal();
    const updated = variant(old, (o) => {
      o.status = {
        disruptionsAllowed: -1,
        currentHealthy: 0,
        desiredHealthy: 0,
        expectedPods: 0,
        conditions: [{ type: 'DisruptionAllowed', status: 'Maybe', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'bad reason', message: 'm' }],
      };
    });
    expect(messages(validateStatus(podDisruptionBudget, updated, old))).to.deep.equal([
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
      "status.conditions[0].reason: Invalid value: \"bad reason\": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
      'status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

describe('PodDisruptionBudget status strategy', () => {
  it('accepts a condition without a message, as upstream', () => {
    const old = { ...minimal(), metadata: { name: 'web', namespace: 'default', resourceVersion: '1' } };
    const next = variant(old, (o) => {
      o.status = {
        disruptionsAllowed: 0,
        currentHealthy: 1,
        desiredHealthy: 1,
        expectedPods: 1,
        conditions: [{ type: 'DisruptionAllowed', status: 'False', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'InsufficientPods', message: '' }],
      };
    });
    expect(podDisruptionBudgetStatusStrategy.validateUpdate(internalContext({ name: 'test', groups: [] }), next, old)).to.deep.equal([]);
  });
});
