import { expect } from 'chai';
import { replicaSet } from '../../../../../lib/apis/apps/v1/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web-5d8b9c', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
  },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const template = (o: Obj): Obj => spec(o).template as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(replicaSet, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(replicaSet, defaulted(mutate)));

describe('apps/v1 ReplicaSet: definition (issue #12 item 1)', () => {
  it('declares the upstream discovery facts and the status.replicas field selector', () => {
    expect(replicaSet).to.include({ group: 'apps', version: 'v1', kind: 'ReplicaSet', resource: 'replicasets', singular: 'replicaset', namespaced: true, statusSubresource: true });
    expect(replicaSet.shortNames).to.deep.equal(['rs']);
    expect(replicaSet.categories).to.deep.equal(['all']);
    expect(Object.keys(replicaSet.fieldSelectors)).to.deep.equal(['status.replicas']);
  });

  it('reads status.replicas as upstream prints it: 0 when unset', () => {
    const read = replicaSet.fieldSelectors['status.replicas']!;
    expect(read(defaulted())).to.equal('0');
    expect(read(variant(defaulted(), (o) => (o.status = { replicas: 3 })))).to.equal('3');
  });

  it('decodes a minimal replica set, applies exactly the upstream defaults (1 replica, no labels from the template) and validates clean', () => {
    const o = minimal();
    expect(decodeAndDefault(replicaSet, o)).to.deep.equal({ unknownFields: [] });
    const { template: _t, ...rest } = spec(o);
    expect(rest).to.deep.equal({ replicas: 1, selector: { matchLabels: { app: 'web' } } });
    expect(o.metadata).to.deep.equal({ name: 'web-5d8b9c', namespace: 'default' });
    expect(validateCreate(replicaSet, o)).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    expect(decodeAndDefault(replicaSet, fixture('replica-set'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(replicaSet.schema, fixture('replica-set'))).to.deep.equal([]);
  });
});

describe('apps/v1 ReplicaSet: validation (upstream ValidateReplicaSetSpec; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the selector is required', (o) => delete spec(o).selector, ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']],
    ['an empty selector is invalid (upstream says "for deployment")', (o) => (spec(o).selector = {}), ['spec.selector: Invalid value: {}: empty selector is invalid for deployment']],
    ['a selector that cannot be converted is invalid', (o) => (spec(o).selector = { matchExpressions: [{ key: 'app', operator: 'Near' }] }), [
      'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
      'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Near"}]}: invalid label selector',
    ]],
    ['template labels must match the selector', (o) => ((template(o).metadata as Obj).labels = { app: 'api' }), [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"api"}: `selector` does not match template `labels`',
    ]],
    ['the template is validated as a pod template', (o) => ((template(o).spec as Obj).containers = []), ['spec.template.spec.containers: Required value']],
    ['the template must restart always', (o) => ((template(o).spec as Obj).restartPolicy = 'Never'), ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']],
    ['the template has no active deadline', (o) => ((template(o).spec as Obj).activeDeadlineSeconds = 5), [
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
    ]],
    ['replicas and minReadySeconds are non-negative', (o) => Object.assign(spec(o), { replicas: -1, minReadySeconds: -1 }), [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('apps/v1 ReplicaSet: updates', () => {
  const stored = (): Obj => defaulted((o) => ((o.metadata as Obj).resourceVersion = '1'));

  it('allows scaling and a new template', () => {
    const old = stored();
    const next = variant(old, (o) => {
      spec(o).replicas = 4;
      ((template(o).spec as Obj).containers as Obj[])[0]!.image = 'nginx:1.26';
    });
    expect(messages(validateUpdate(replicaSet, next, old))).to.deep.equal([]);
  });

  it('keeps the selector immutable under apps/v1', () => {
    const old = stored();
    const next = variant(old, (o) => {
      spec(o).selector = { matchLabels: { app: 'web', tier: 'a' } };
      (template(o).metadata as Obj).labels = { app: 'web', tier: 'a' };
    });
    expect(messages(validateUpdate(replicaSet, next, old))).to.deep.equal(['spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"a"}}: field is immutable']);
  });
});

describe('apps/v1 ReplicaSet: status writes (upstream ValidateReplicaSetStatusUpdate)', () => {
  const withStatus = (status: Obj): Obj => variant(defaulted(), (o) => (o.status = status));
  const cases: [string, Obj, string[]][] = [
    ['a consistent status is accepted', { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 1, observedGeneration: 1 }, []],
    ['counters are non-negative', { replicas: 0, observedGeneration: -1 }, ['status.observedGeneration: Invalid value: -1: must be greater than or equal to 0']],
    ['no counter exceeds replicas; available does not exceed ready', { replicas: 1, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 2 }, [
      'status.fullyLabeledReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas',
    ]],
  ];
  for (const [name, status, expected] of cases) it(name, () => expect(messages(validateStatus(replicaSet, withStatus(status), withStatus({})))).to.deep.equal(expected));
});
