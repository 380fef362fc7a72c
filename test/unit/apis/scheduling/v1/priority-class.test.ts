import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { priorityClass, SCHEDULING_GROUP, schedulingV1Kinds, SYSTEM_PRIORITY_CLASSES } from '../../../../../lib/apis/scheduling/v1/index.js';
import { vendorGroup } from '../../../../../lib/apis/vendor.js';
import { priorityClassStrategy } from '../../../../../lib/registry/scheduling/priorityclass/strategy.js';
import type { RequestContext } from '../../../../../lib/request/context.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, variant } from '../../kind-pipeline.js';

const ctx = {} as RequestContext;
const minimal = (): Obj => ({ apiVersion: priorityClass.apiVersion, kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 });
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(priorityClass, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(priorityClass, defaulted(mutate)));
const RESERVED = "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error:";

describe('scheduling/v1 PriorityClass: definition', () => {
  it('declares the upstream discovery facts: cluster-scoped, short name pc', () => {
    expect(SCHEDULING_GROUP).to.equal(vendorGroup('scheduling'));
    expect(priorityClass).to.include({ group: SCHEDULING_GROUP, version: 'v1', kind: 'PriorityClass', resource: 'priorityclasses', singular: 'priorityclass', namespaced: false, statusSubresource: false });
    expect(priorityClass.shortNames).to.deep.equal(['pc']);
    expect(priorityClass.fieldSelectors).to.deep.equal({});
    expect(schedulingV1Kinds).to.deep.equal([priorityClass]);
  });

  it('defaults preemptionPolicy to PreemptLowerPriority, and nothing else', () => {
    const o = defaulted();
    expect(o).to.deep.equal({ ...minimal(), preemptionPolicy: 'PreemptLowerPriority' });
    expect(validateCreate(priorityClass, o)).to.deep.equal([]);
    expect(defaulted((x) => (x.preemptionPolicy = 'Never')).preemptionPolicy).to.equal('Never');
  });

  it('declares the two system classes with the upstream values and descriptions', () => {
    expect(SYSTEM_PRIORITY_CLASSES).to.deep.equal([
      { name: 'system-node-critical', value: 2000001000, globalDefault: false, description: 'Used for system critical pods that must not be moved from their current node.' },
      {
        name: 'system-cluster-critical',
        value: 2000000000,
        globalDefault: false,
        description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
      },
    ]);
    for (const c of SYSTEM_PRIORITY_CLASSES) {
      expect(errorsOf((o) => Object.assign(o, { metadata: { name: c.name }, value: c.value, description: c.description }))).to.deep.equal([]);
    }
  });

  it('decodes the complete fixture with no unknown field and sets every field', () => {
    const complete = (): Obj => ({ apiVersion: priorityClass.apiVersion, ...fixture('priority-class') });
    expect(decodeAndDefault(priorityClass, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(priorityClass.schema, complete(), ['metadata.namespace'])).to.deep.equal([]);
    expect(validateCreate(priorityClass, complete())).to.deep.equal([]);
  });
});

describe('scheduling/v1 PriorityClass: validation (upstream ValidatePriorityClass; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['a missing value is 0', (o) => delete o.value, []],
    ['user classes are at most 1000000000', (o) => (o.value = 1000000001), ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']],
    ['the system- prefix is reserved', (o) => ((o.metadata as Obj).name = 'system-mine'), [`${RESERVED} system-mine is not a known system priority class`]],
    ['a system class has its value', (o) => Object.assign(o, { metadata: { name: 'system-node-critical' }, value: 5 }), [`${RESERVED} value of system-node-critical PriorityClass must be 2000001000`]],
    ['a system class is not the global default', (o) => Object.assign(o, { metadata: { name: 'system-cluster-critical' }, value: 2000000000, globalDefault: true }), [
      `${RESERVED} globalDefault of system-cluster-critical PriorityClass must be false`,
    ]],
    ['preemptionPolicy is PreemptLowerPriority or Never', (o) => (o.preemptionPolicy = 'Always'), ['preemptionPolicy: Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"']],
    ['an empty preemptionPolicy is missing', (o) => (o.preemptionPolicy = ''), ['preemptionPolicy: Required value']],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('scheduling/v1 PriorityClass: update rules (upstream ValidatePriorityClassUpdate, priorityclass strategy)', () => {
  const stored = (mutate: (o: Obj) => void = () => {}): Obj => {
    const o = defaulted(mutate);
    Object.assign(o.metadata as Obj, { uid: 'u1', resourceVersion: '5', generation: 1, creationTimestamp: '2024-05-01T10:00:00Z' });
    return o;
  };
  const updateErrors = (old: Obj, mutate: (o: Obj) => void): string[] => messages(priorityClassStrategy.validateUpdate(ctx, variant(old, mutate), old));

  it('value may not change', () => {
    expect(updateErrors(stored(), (o) => (o.value = 2000))).to.deep.equal(['value: Forbidden: may not be changed in an update.']);
  });

  it('preemptionPolicy is immutable', () => {
    expect(updateErrors(stored(), (o) => (o.preemptionPolicy = 'Never'))).to.deep.equal(['preemptionPolicy: Invalid value: "Never": field is immutable']);
  });

  it('description and globalDefault may change, and the create rules are not applied again', () => {
    expect(updateErrors(stored(), (o) => Object.assign(o, { description: 'd', globalDefault: true }))).to.deep.equal([]);
    const system = stored((o) => Object.assign(o, { metadata: { name: 'system-node-critical' }, value: 2000001000 }));
    expect(updateErrors(system, (o) => (o.globalDefault = true))).to.deep.equal([]);
  });

  it('generation is 1 from create on and never bumped', () => {
    const o = defaulted();
    priorityClassStrategy.prepareForCreate(ctx, o);
    expect((o.metadata as Obj).generation).to.equal(1);
    const old = stored();
    const next = variant(old, (x) => (x.description = 'changed'));
    priorityClassStrategy.prepareForUpdate(ctx, next, old);
    expect((next.metadata as Obj).generation).to.equal(1);
  });
});
