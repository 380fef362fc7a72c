import { expect } from 'chai';
import { replicationController } from '../../../../../lib/apis/core/v1/replication-controller.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name: 'web', namespace: 'default' },
  spec: { template: { metadata: { labels: { app: 'web', tier: 'front' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } } },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const template = (o: Obj): Obj => spec(o).template as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(replicationController, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(replicationController, defaulted(mutate)));

describe('core/v1 ReplicationController: definition (issue #12 item 1)', () => {
  it('declares the upstream discovery facts and the status.replicas field selector', () => {
    expect(replicationController).to.include({
      group: '',
      version: 'v1',
      apiVersion: 'v1',
      kind: 'ReplicationController',
      resource: 'replicationcontrollers',
      singular: 'replicationcontroller',
      namespaced: true,
      statusSubresource: true,
    });
    expect(replicationController.shortNames).to.deep.equal(['rc']);
    expect(replicationController.categories).to.deep.equal(['all']);
    expect(replicationController.fieldSelectors['status.replicas']!(defaulted())).to.equal('0');
  });

  it('defaults 1 replica, and the selector and object labels from the template labels (SetDefaults_ReplicationController)', () => {
    const o = minimal();
    expect(decodeAndDefault(replicationController, o)).to.deep.equal({ unknownFields: [] });
    const { template: _t, ...rest } = spec(o);
    expect(rest).to.deep.equal({ replicas: 1, selector: { app: 'web', tier: 'front' } });
    expect((o.metadata as Obj).labels).to.deep.equal({ app: 'web', tier: 'front' });
    expect(validateCreate(replicationController, o)).to.deep.equal([]);
  });

  it('keeps a given selector and given object labels', () => {
    const o = defaulted((x) => {
      spec(x).selector = { app: 'web' };
      (x.metadata as Obj).labels = { owner: 'me' };
      spec(x).replicas = 0;
    });
    expect(spec(o)).to.deep.include({ replicas: 0, selector: { app: 'web' } });
    expect((o.metadata as Obj).labels).to.deep.equal({ owner: 'me' });
  });

  it('without template labels there is nothing to default from', () => {
    const o = defaulted((x) => delete (template(x).metadata as Obj).labels);
    expect(spec(o).selector).to.equal(undefined);
    expect((o.metadata as Obj).labels).to.equal(undefined);
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    expect(decodeAndDefault(replicationController, fixture('replication-controller'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(replicationController.schema, fixture('replication-controller'))).to.deep.equal([]);
  });
});

describe('core/v1 ReplicationController: validation (upstream ValidateReplicationControllerSpec; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['a selector is required when the template has no labels', (o) => delete (template(o).metadata as Obj).labels, ['spec.selector: Required value']],
    ['template labels must carry the selector', (o) => (spec(o).selector = { app: 'api' }), [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web", "tier":"front"}: `selector` does not match template `labels`',
    ]],
    ['the template is required', (o) => {
      delete spec(o).template;
      spec(o).selector = { app: 'web' };
    }, ['spec.template: Required value']],
    ['the template is validated as a pod template', (o) => ((template(o).spec as Obj).containers = []), ['spec.template.spec.containers: Required value']],
    ['the template must restart always', (o) => ((template(o).spec as Obj).restartPolicy = 'OnFailure'), [
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    ]],
    ['the template has no active deadline', (o) => ((template(o).spec as Obj).activeDeadlineSeconds = 5), [
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported',
    ]],
    ['minReadySeconds and replicas are non-negative', (o) => Object.assign(spec(o), { replicas: -1, minReadySeconds: -1 }), [
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('core/v1 ReplicationController: updates', () => {
  const stored = (): Obj => defaulted((o) => ((o.metadata as Obj).resourceVersion = '1'));

  it('lets the selector change (core/v1 has no immutable selector), with a matching template', () => {
    const old = stored();
    const next = variant(old, (o) => {
      spec(o).selector = { app: 'web' };
      spec(o).replicas = 3;
    });
    expect(messages(validateUpdate(replicationController, next, old))).to.deep.equal([]);
  });

  it('validates the new spec as on create', () => {
    const old = stored();
    expect(messages(validateUpdate(replicationController, variant(old, (o) => (spec(o).selector = { app: 'x' })), old))).to.deep.equal([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web", "tier":"front"}: `selector` does not match template `labels`',
    ]);
  });
});

describe('core/v1 ReplicationController: status writes (upstream ValidateReplicationControllerStatusUpdate)', () => {
  const withStatus = (status: Obj): Obj => variant(defaulted(), (o) => (o.status = status));
  const cases: [string, Obj, string[]][] = [
    ['a consistent status is accepted', { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1, observedGeneration: 3 }, []],
    ['a negative replica count is also below the other counters', { replicas: -1 }, [
      'status.replicas: Invalid value: -1: must be greater than or equal to 0',
      'status.fullyLabeledReplicas: Invalid value: 0: cannot be greater than status.replicas',
      'status.readyReplicas: Invalid value: 0: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 0: cannot be greater than status.replicas',
    ]],
    ['ready does not exceed replicas', { replicas: 1, readyReplicas: 2 }, ['status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas']],
  ];
  for (const [name, status, expected] of cases) it(name, () => expect(messages(validateStatus(replicationController, withStatus(status), withStatus({})))).to.deep.equal(expected));
});
