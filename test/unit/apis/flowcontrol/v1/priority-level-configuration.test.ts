import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { FLOWCONTROL_GROUP, mandatoryPriorityLevels, priorityLevelConfiguration, requiredEntropyBits } from '../../../../../lib/apis/flowcontrol/v1/index.js';
import { APF_PRESERVE_ZERO_SHARES_ANNOTATION } from '../../../../../lib/apis/vendor.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const kind = priorityLevelConfiguration;
const minimal = (): Obj => ({
  apiVersion: kind.apiVersion,
  kind: 'PriorityLevelConfiguration',
  metadata: { name: 'tenants' },
  spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const limited = (o: Obj): Obj => spec(o).limited as Obj;
const queuing = (o: Obj): Obj => (limited(o).limitResponse as Obj).queuing as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(kind, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(kind, defaulted(mutate)));

describe('flowcontrol/v1 PriorityLevelConfiguration: definition and defaults (issue #12; spec 001 § Limits)', () => {
  it('declares the upstream discovery facts: cluster-scoped, status subresource, no short names', () => {
    expect(kind).to.include({ group: FLOWCONTROL_GROUP, version: 'v1', resource: 'prioritylevelconfigurations', singular: 'prioritylevelconfiguration', namespaced: false, statusSubresource: true, nameRule: 'dns1123Subdomain' });
    expect(kind.shortNames).to.deep.equal([]);
    expect(kind.categories).to.deep.equal([]);
    expect(kind.fieldSelectors).to.deep.equal({});
  });

  it('a limited level gets 30 shares, 0 lendable percent and the queuing defaults 64 / 8 / 50', () => {
    const o = minimal();
    expect(decodeAndDefault(kind, o)).to.deep.equal({ unknownFields: [] });
    expect(spec(o)).to.deep.equal({
      type: 'Limited',
      limited: { nominalConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } }, lendablePercent: 0 },
    });
    expect(validateCreate(kind, o)).to.deep.equal([]);
  });

  it('an explicit 0 shares stays 0 (v1) and is valid; set values are kept', () => {
    const o = defaulted((x) => Object.assign(limited(x), { nominalConcurrencyShares: 0, lendablePercent: 10, borrowingLimitPercent: 0 }));
    expect(limited(o)).to.include({ nominalConcurrencyShares: 0, lendablePercent: 10, borrowingLimitPercent: 0 });
    expect(validateCreate(kind, o)).to.deep.equal([]);
    const q = defaulted((x) => Object.assign(queuing(x), { queues: 16, handSize: 4, queueLengthLimit: 0 }));
    expect(queuing(q)).to.deep.equal({ queues: 16, handSize: 4, queueLengthLimit: 50 });
  });

  it('null shares are unspecified: 30', () => {
    expect(limited(defaulted((x) => (limited(x).nominalConcurrencyShares = null))).nominalConcurrencyShares).to.equal(30);
  });

  it('nothing is defaulted into a Reject level, a level without limitResponse type or without queuing', () => {
    expect(limited(defaulted((x) => (limited(x).limitResponse = { type: 'Reject' }))).limitResponse).to.deep.equal({ type: 'Reject' });
    expect(limited(defaulted((x) => (limited(x).limitResponse = {}))).limitResponse).to.deep.equal({});
  });

  it('an exempt section gets 0 shares and 0 lendable percent; an exempt level without one stays without', () => {
    const e: Obj = { metadata: { name: 'exempt' }, spec: { type: 'Exempt', exempt: {} } };
    decodeAndDefault(kind, e);
    expect(spec(e)).to.deep.equal({ type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } });
    const bare: Obj = { metadata: { name: 'exempt' }, spec: { type: 'Exempt' } };
    decodeAndDefault(kind, bare);
    expect(spec(bare)).to.deep.equal({ type: 'Exempt' });
    expect(validateCreate(kind, bare)).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    const complete = (): Obj => ({ apiVersion: kind.apiVersion, ...fixture('priority-level-configuration') });
    expect(decodeAndDefault(kind, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(kind.schema, complete(), ['metadata.namespace'])).to.deep.equal([]);
  });
});

describe('flowcontrol/v1 PriorityLevelConfiguration: validation (upstream ValidatePriorityLevelConfiguration; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['type is Exempt or Limited', (o) => (spec(o).type = 'Paused'), ['spec.type: Unsupported value: "Paused": supported values: "Exempt", "Limited"']],
    ['type Exempt only for the level named exempt', (o) => (o.spec = { type: 'Exempt' }), ['spec.type: Invalid value: "Exempt": type must be \'Exempt\' if and only if name is \'exempt\'']],
    ['an exempt level has no limited section', (o) => ((o.metadata as Obj).name = 'exempt', (o.spec = { type: 'Exempt', limited: { limitResponse: { type: 'Reject' } } })), [
      'spec.limited: Forbidden: must be nil if the type is not Limited',
      "spec: Invalid value: {\"type\":\"Exempt\",\"limited\":{\"limitResponse\":{\"type\":\"Reject\"},\"nominalConcurrencyShares\":30,\"lendablePercent\":0}}: spec of 'exempt' except the 'spec.exempt' field must equal the fixed value",
    ]],
    ['a limited level has no exempt section', (o) => (spec(o).exempt = {}), ['spec.exempt: Forbidden: must be nil if the type is Limited']],
    ['a limited level needs its limited section', (o) => delete spec(o).limited, ['spec.limited: Required value: must not be empty when type is Limited']],
    ['shares are not negative', (o) => (limited(o).nominalConcurrencyShares = -1), ['spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer']],
    ['lendablePercent is 0 to 100', (o) => (limited(o).lendablePercent = 101), ['spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive']],
    ['borrowingLimitPercent is not negative', (o) => (limited(o).borrowingLimitPercent = -5), ['spec.limited.borrowingLimitPercent: Invalid value: -5: if specified, must be a non-negative integer']],
    ['limitResponse type is Queue or Reject', (o) => (limited(o).limitResponse = { type: 'Drop' }), ['spec.limited.limitResponse.type: Unsupported value: "Drop": supported values: "Queue", "Reject"']],
    ['Reject has no queuing', (o) => ((limited(o).limitResponse as Obj).type = 'Reject'), ['spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited']],
    ['Queue needs queuing', (o) => (limited(o).limitResponse = { type: 'Queue' }), ['spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited']],
    ['queues and queue length are positive', (o) => Object.assign(queuing(o), { queues: -1, queueLengthLimit: -2 }), [
      'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -2: must be positive',
      'spec.limited.limitResponse.queuing.queues: Invalid value: -1: must be positive',
      'spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (-1)',
    ]],
    ['queues at most 10^7', (o) => Object.assign(queuing(o), { queues: 10_000_001, handSize: 1 }), ['spec.limited.limitResponse.queuing.queues: Invalid value: 10000001: must not be greater than 10000000']],
    ['handSize is positive', (o) => (queuing(o).handSize = -1), ['spec.limited.limitResponse.queuing.handSize: Invalid value: -1: must be positive']],
    ['handSize is at most queues', (o) => Object.assign(queuing(o), { queues: 4, handSize: 5 }), ['spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)']],
    ['the shuffle-sharding entropy is at most 60 bits', (o) => Object.assign(queuing(o), { queues: 128, handSize: 9 }), [
      'spec.limited.limitResponse.queuing.handSize: Invalid value: 9: required entropy bits of deckSize 128 and handSize 9 should not be greater than 60',
    ]],
    ['the v1beta3 round-trip annotation is forbidden', (o) => ((o.metadata as Obj).annotations = { [APF_PRESERVE_ZERO_SHARES_ANNOTATION]: '' }), [
      `metadata.annotations: Forbidden: annotation '${APF_PRESERVE_ZERO_SHARES_ANNOTATION}' is forbidden`,
    ]],
    ['exempt shares are not negative and its lendable percent in range', (o) => ((o.metadata as Obj).name = 'exempt', (o.spec = { type: 'Exempt', exempt: { nominalConcurrencyShares: -1, lendablePercent: -1 } })), [
      'spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
      'spec.exempt.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive',
    ]],
  ];
  for (const [name, mutate, expected] of cases) {
    it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
  }

  it('requiredEntropyBits is ceil(log2(queues) × handSize)', () => {
    expect(requiredEntropyBits(128, 8)).to.equal(56);
    expect(requiredEntropyBits(64, 10)).to.equal(60);
    expect(requiredEntropyBits(100, 9)).to.equal(60);
  });

  it('catch-all keeps its fixed spec; exempt may change only spec.exempt', () => {
    const [catchAll, exempt] = mandatoryPriorityLevels();
    const shares = variant(catchAll!, (o) => (limited(o).nominalConcurrencyShares = 50));
    decodeAndDefault(kind, shares);
    expect(validateCreate(kind, shares).map((e) => [e.field, e.detail])).to.deep.equal([['spec', "spec of 'catch-all' must equal the fixed value"]]);
    const tuned = variant(exempt!, (o) => (spec(o).exempt = { nominalConcurrencyShares: 20, lendablePercent: 50 }));
    decodeAndDefault(kind, tuned);
    expect(validateCreate(kind, tuned)).to.deep.equal([]);
    for (const o of [catchAll!, exempt!]) expect(validateCreate(kind, structuredClone(o) as Obj)).to.deep.equal([]);
  });

  it('status conditions need unique, non-empty types; a status write checks only those', () => {
    const old = defaulted();
    const o = variant(old, (x) => {
      x.status = { conditions: [{ type: '' }] };
      spec(x).type = 'Broken';
    });
    expect(messages(validateStatus(kind, o, old))).to.deep.equal(['status.conditions[0].type: Required value: must not be empty']);
  });

  it('updates are validated as creates (zero shares allowed in v1.30)', () => {
    const old = defaulted();
    expect(validateUpdate(kind, variant(old, (o) => (limited(o).nominalConcurrencyShares = 0)), old)).to.deep.equal([]);
    expect(messages(validateUpdate(kind, variant(old, (o) => (queuing(o).handSize = 0)), old))).to.deep.equal([
      'spec.limited.limitResponse.queuing.handSize: Invalid value: 0: must be positive',
    ]);
  });
});
