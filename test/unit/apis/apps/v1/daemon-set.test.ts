import { expect } from 'chai';
import { daemonSet, DEPRECATED_TEMPLATE_GENERATION } from '../../../../../lib/apis/apps/v1/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'agent:1' }] } },
  },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const template = (o: Obj): Obj => spec(o).template as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(daemonSet, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(daemonSet, defaulted(mutate)));

describe('apps/v1 DaemonSet: definition (issue #12 item 1)', () => {
  it('declares the upstream discovery facts', () => {
    expect(daemonSet).to.include({ group: 'apps', version: 'v1', kind: 'DaemonSet', resource: 'daemonsets', singular: 'daemonset', namespaced: true, statusSubresource: true });
    expect(daemonSet.shortNames).to.deep.equal(['ds']);
    expect(daemonSet.categories).to.deep.equal(['all']);
    expect(daemonSet.fieldSelectors).to.deep.equal({});
  });

  it('decodes a minimal daemon set, applies exactly the upstream defaults and validates clean', () => {
    const o = minimal();
    expect(decodeAndDefault(daemonSet, o)).to.deep.equal({ unknownFields: [] });
    const { template: t, ...rest } = spec(o);
    expect(rest).to.deep.equal({
      selector: { matchLabels: { app: 'agent' } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
    expect((t as Obj).spec).to.deep.include({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' });
    expect(validateCreate(daemonSet, o)).to.deep.equal([]);
  });

  it('reads the template generation annotation as 0 until the server sets it, keeping a given value', () => {
    expect(defaulted().metadata).to.deep.equal({ name: 'agent', namespace: 'default', annotations: { [DEPRECATED_TEMPLATE_GENERATION]: '0' } });
    const given = defaulted((o) => ((o.metadata as Obj).annotations = { a: 'b', [DEPRECATED_TEMPLATE_GENERATION]: '4' }));
    expect((given.metadata as Obj).annotations).to.deep.equal({ a: 'b', [DEPRECATED_TEMPLATE_GENERATION]: '4' });
  });

  const strategies: Array<[string, unknown, unknown]> = [
    ['OnDelete gets no rollingUpdate', { type: 'OnDelete' }, { type: 'OnDelete' }],
    ['a partial rollingUpdate is completed', { rollingUpdate: { maxSurge: '10%' } }, { type: 'RollingUpdate', rollingUpdate: { maxSurge: '10%', maxUnavailable: 1 } }],
    ['an empty type means RollingUpdate', { type: '' }, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }],
  ];
  for (const [name, given, expected] of strategies) {
    it(`updateStrategy: ${name}`, () => expect(spec(defaulted((o) => (spec(o).updateStrategy = given))).updateStrategy).to.deep.equal(expected));
  }

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    expect(decodeAndDefault(daemonSet, fixture('daemon-set'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(daemonSet.schema, fixture('daemon-set'))).to.deep.equal([]);
  });
});

describe('apps/v1 DaemonSet: validation (upstream ValidateDaemonSetSpec; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the selector is required', (o) => delete spec(o).selector, ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`']],
    ['an empty selector is invalid', (o) => (spec(o).selector = {}), ['spec.selector: Invalid value: {}: empty selector is invalid for daemonset']],
    ['template labels must match the selector', (o) => ((template(o).metadata as Obj).labels = { app: 'other' }), [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
    ]],
    ['the template is validated as a pod template', (o) => ((template(o).spec as Obj).containers = []), ['spec.template.spec.containers: Required value']],
    ['the template must restart always', (o) => ((template(o).spec as Obj).restartPolicy = 'Never'), ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']],
    ['the template has no active deadline', (o) => ((template(o).spec as Obj).activeDeadlineSeconds = 5), [
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
    ]],
    ['minReadySeconds and revisionHistoryLimit are non-negative', (o) => Object.assign(spec(o), { minReadySeconds: -1, revisionHistoryLimit: -1 }), [
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
    ]],
    ['the update strategy is RollingUpdate or OnDelete', (o) => (spec(o).updateStrategy = { type: 'Recreate' }), [
      'spec.updateStrategy: Unsupported value: {"type":"Recreate"}: supported values: "RollingUpdate", "OnDelete"',
    ]],
    ['maxSurge may not be set with a non-zero maxUnavailable', (o) => (spec(o).updateStrategy = { rollingUpdate: { maxUnavailable: 1, maxSurge: '20%' } }), [
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "20%": may not be set when maxUnavailable is non-zero',
    ]],
    ['maxUnavailable and maxSurge are not both 0', (o) => (spec(o).updateStrategy = { rollingUpdate: { maxUnavailable: '0%', maxSurge: 0 } }), [
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    ]],
    ['bounds are ints or percentages of at most 100%', (o) => (spec(o).updateStrategy = { rollingUpdate: { maxUnavailable: 'half', maxSurge: '150%' } }), [
      "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"half\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "150%": must not be greater than 100%',
    ]],
    ['a negative bound is invalid', (o) => (spec(o).updateStrategy = { rollingUpdate: { maxUnavailable: -1, maxSurge: 0 } }), [
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('apps/v1 DaemonSet: updates', () => {
  const stored = (): Obj => defaulted((o) => ((o.metadata as Obj).resourceVersion = '1'));

  it('allows a new template and strategy', () => {
    const old = stored();
    const next = variant(old, (o) => {
      ((template(o).spec as Obj).containers as Obj[])[0]!.image = 'agent:2';
      spec(o).updateStrategy = { type: 'OnDelete' };
    });
    expect(messages(validateUpdate(daemonSet, next, old))).to.deep.equal([]);
  });

  it('keeps the selector immutable', () => {
    const old = stored();
    const next = variant(old, (o) => (spec(o).selector = { matchLabels: { app: 'agent' }, matchExpressions: [{ key: 'app', operator: 'Exists' }] }));
    expect(messages(validateUpdate(daemonSet, next, old))).to.deep.equal([
      'spec.selector: Invalid value: {"matchLabels":{"app":"agent"},"matchExpressions":[{"key":"app","operator":"Exists"}]}: field is immutable',
    ]);
  });
});

describe('apps/v1 DaemonSet: status writes (upstream ValidateDaemonSetStatusUpdate)', () => {
  const withStatus = (status: Obj): Obj => variant(defaulted(), (o) => (o.status = status));
  const cases: [string, Obj, Obj, string[]][] = [
    ['a consistent status is accepted', {}, { currentNumberScheduled: 2, numberMisscheduled: 0, desiredNumberScheduled: 2, numberReady: 2, observedGeneration: 1 }, []],
    ['counters are non-negative', {}, { numberMisscheduled: -1, numberUnavailable: -2 }, [
      'status.numberMisscheduled: Invalid value: -1: must be greater than or equal to 0',
      'status.numberUnavailable: Invalid value: -2: must be greater than or equal to 0',
    ]],
    ['collisionCount is never decremented', { collisionCount: 3 }, { collisionCount: 1 }, ['status.collisionCount: Invalid value: 1: cannot be decremented']],
  ];
  for (const [name, oldStatus, newStatus, expected] of cases)
    it(name, () => expect(messages(validateStatus(daemonSet, withStatus(newStatus), withStatus(oldStatus)))).to.deep.equal(expected));
});
