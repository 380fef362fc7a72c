import { expect } from 'chai';
import { limitRange } from '../../../../../lib/apis/core/v1/limit-range.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name: 'limits', namespace: 'default' },
  spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { cpu: '100m' }, default: { cpu: '500m' }, defaultRequest: { cpu: '250m' } }] },
});
const item = (o: Obj): Obj => ((o.spec as Obj).limits as Obj[])[0]!;
const withItems = (...items: Obj[]) => (o: Obj): void => void ((o.spec as Obj).limits = items);
const errorsOf = (mutate: (o: Obj) => void): string[] => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(limitRange, o);
  return messages(validateCreate(limitRange, o));
};

describe('core/v1 LimitRange: definition (issue #12 item 1)', () => {
  it('declares the upstream discovery facts: namespaced, short name limits, no status, no printer', () => {
    expect(limitRange).to.include({
      group: '',
      version: 'v1',
      kind: 'LimitRange',
      resource: 'limitranges',
      singular: 'limitrange',
      namespaced: true,
      statusSubresource: false,
      nameRule: 'dns1123Subdomain',
    });
    expect(limitRange.shortNames).to.deep.equal(['limits']);
    expect(limitRange.categories).to.deep.equal([]);
    expect(limitRange.printerColumns).to.equal(undefined);
  });

  it('decodes a complete limit range, changes nothing of it and validates clean', () => {
    const lr = minimal();
    expect(decodeAndDefault(limitRange, lr)).to.deep.equal({ unknownFields: [] });
    expect(lr).to.deep.equal(minimal());
    expect(validateCreate(limitRange, lr)).to.deep.equal([]);
  });

  it('defaults Container items as upstream: max → default → defaultRequest, then min → defaultRequest', () => {
    const lr = variant(minimal(), withItems(
      { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m', 'ephemeral-storage': '1Gi' }, default: { cpu: '1' } },
      { type: 'Pod', max: { cpu: '4' } },
    ));
    decodeAndDefault(limitRange, lr);
    expect((lr.spec as Obj).limits).to.deep.equal([
      {
        type: 'Container',
        max: { cpu: '2', memory: '1Gi' },
        min: { cpu: '100m', 'ephemeral-storage': '1Gi' },
        default: { cpu: '1', memory: '1Gi' },
        defaultRequest: { cpu: '1', memory: '1Gi', 'ephemeral-storage': '1Gi' },
      },
      { type: 'Pod', max: { cpu: '4' } },
    ]);
  });

  it('accepts an empty spec, as upstream', () => {
    expect(errorsOf((o) => (o.spec = {}))).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    const complete = (): Obj => ({ apiVersion: 'v1', ...fixture('limit-range') });
    expect(decodeAndDefault(limitRange, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(limitRange.schema, complete())).to.deep.equal([]);
    expect(validateCreate(limitRange, complete())).to.deep.equal([]);
  });
});

describe('core/v1 LimitRange: validation (upstream ValidateLimitRange; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the type is standard or qualified', (o) => (item(o).type = 'Thing'), ['spec.limits[0].type: Invalid value: "Thing": must be a standard limit type or fully qualified']],
    ['a qualified type is accepted', (o) => (item(o).type = 'example.com/thing'), []],
    ['each type appears once', withItems({ type: 'Container' }, { type: 'Container' }), ['spec.limits[1].type: Duplicate value: "Container"']],
    ['container items limit container resources', withItems({ type: 'Container', max: { storage: '1Gi' } }), [
      'spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers',
      // max is defaulted into default, and default into defaultRequest, before validation
      'spec.limits[0].default[storage]: Invalid value: "storage": must be a standard resource for containers',
      'spec.limits[0].defaultRequest[storage]: Invalid value: "storage": must be a standard resource for containers',
    ]],
    ['resource names are standard or qualified', withItems({ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { disk: '1' } }), [
      'spec.limits[0].max[disk]: Invalid value: "disk": must be a standard resource type or fully qualified',
    ]],
    ['Pod items have no defaults', withItems({ type: 'Pod', max: { cpu: '2' }, default: { cpu: '1' }, defaultRequest: { cpu: '1' } }), [
      "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
      "spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod'",
    ]],
    ['claim items bound the storage', withItems({ type: 'PersistentVolumeClaim', max: { 'requests.storage': '1Gi' } }), [
      'spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    ]],
    ['min is at most max (and the defaults taken from max)', withItems({ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }), [
      'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1',
      'spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1',
    ]],
    ['min is at most the default request', (o) => (item(o).defaultRequest = { cpu: '50m' }), [
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "50m": min value 100m is greater than default request value 50m',
    ]],
    ['the default request is at most max', withItems({ type: 'Container', max: { cpu: '1' }, defaultRequest: { cpu: '2' } }), [
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "2": default request value 2 is greater than max value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "2": default request value 2 is greater than default limit value 1',
    ]],
    ['the default request is at most the default', withItems({ type: 'Container', default: { cpu: '1' }, defaultRequest: { cpu: '2' } }), [
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "2": default request value 2 is greater than default limit value 1',
    ]],
    ['min is at most the default (and the request defaulted from it)', withItems({ type: 'Container', min: { memory: '2Gi' }, default: { memory: '1Gi' } }), [
      'spec.limits[0].defaultRequest[memory]: Invalid value: "1Gi": min value 2Gi is greater than default request value 1Gi',
      'spec.limits[0].default[memory]: Invalid value: "2Gi": min value 2Gi is greater than default value 1Gi',
    ]],
    ['the default is at most max (upstream shows max as the value)', withItems({ type: 'Container', max: { memory: '1Gi' }, default: { memory: '2Gi' } }), [
      'spec.limits[0].defaultRequest[memory]: Invalid value: "2Gi": default request value 2Gi is greater than max value 1Gi',
      'spec.limits[0].default[memory]: Invalid value: "1Gi": default value 2Gi is greater than max value 1Gi',
    ]],
    ['a ratio is at least 1', withItems({ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }), [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
    ]],
    ['a ratio is at most max/min', withItems({ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' }, maxLimitRequestRatio: { cpu: '20' } }), [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "20": ratio 20 is greater than max/min = 10.000000',
    ]],
    ['hugepages cannot be overcommitted', withItems({ type: 'Container', default: { 'hugepages-2Mi': '4Mi' }, defaultRequest: { 'hugepages-2Mi': '2Mi' } }), [
      'spec.limits[0].defaultRequest[hugepages-2Mi]: Invalid value: "2Mi": default value 4Mi must equal to defaultRequest value 2Mi in hugepages-2Mi',
    ]],
    ['names are DNS subdomains', (o) => ((o.metadata as Obj).name = 'Limits'), [
      "metadata.name: Invalid value: \"Limits\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('core/v1 LimitRange: updates', () => {
  it('allows any change that validates, and validates the new items', () => {
    const old = variant(minimal(), (o) => ((o.metadata as Obj).resourceVersion = '1'));
    expect(messages(validateUpdate(limitRange, variant(old, withItems({ type: 'Pod', max: { cpu: '4' } })), old))).to.deep.equal([]);
    expect(messages(validateUpdate(limitRange, variant(old, withItems({ type: 'Thing' })), old))).to.deep.equal([
      'spec.limits[0].type: Invalid value: "Thing": must be a standard limit type or fully qualified',
    ]);
  });
});
