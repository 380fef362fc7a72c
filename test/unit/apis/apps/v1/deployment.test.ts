import { expect } from 'chai';
import { deployment } from '../../../../../lib/apis/apps/v1/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';
import { covers } from '../../../../conformance/covers.js';

const minimal = (): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
  },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const template = (o: Obj): Obj => spec(o).template as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(deployment, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(deployment, defaulted(mutate)));

describe('apps/v1 Deployment: definition (issue #2 item 5)', () => {
  it('declares the upstream discovery facts', () => {
    expect(deployment).to.include({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      resource: 'deployments',
      singular: 'deployment',
      namespaced: true,
      statusSubresource: true,
      nameRule: 'dns1123Subdomain',
    });
    expect(deployment.shortNames).to.deep.equal(['deploy']);
    expect(deployment.categories).to.deep.equal(['all']);
  });

  it(`decodes a minimal deployment, applies exactly the upstream defaults and validates clean${covers('001 § Limits › Default deployment values (v1)')}`, () => {
    const d = minimal();
    expect(decodeAndDefault(deployment, d)).to.deep.equal({ unknownFields: [] });
    const { template: t, ...rest } = spec(d);
    expect(rest).to.deep.equal({
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect((t as Obj).spec).to.deep.include({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30 });
    expect(((t as Obj).spec as Obj).containers).to.deep.equal([
      { name: 'web', image: 'nginx:1.25', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' },
    ]);
    expect(validateCreate(deployment, d)).to.deep.equal([]);
  });

  it('keeps user values and does not add rollingUpdate to a Recreate strategy', () => {
    const d = defaulted((o) => Object.assign(spec(o), { replicas: 0, strategy: { type: 'Recreate' }, revisionHistoryLimit: 2, progressDeadlineSeconds: 60 }));
    expect(spec(d)).to.deep.include({ replicas: 0, strategy: { type: 'Recreate' }, revisionHistoryLimit: 2, progressDeadlineSeconds: 60 });
    const partial = defaulted((o) => (spec(o).strategy = { rollingUpdate: { maxSurge: 2 } }));
    expect(spec(partial).strategy).to.deep.equal({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 2, maxUnavailable: '25%' } });
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    expect(decodeAndDefault(deployment, fixture('deployment'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(deployment.schema, fixture('deployment'))).to.deep.equal([]);
  });
});

describe('apps/v1 Deployment: validation (upstream ValidateDeployment; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the selector is required', (o) => delete spec(o).selector, ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']],
    ['an empty selector is invalid', (o) => (spec(o).selector = {}), ['spec.selector: Invalid value: {}: empty selector is invalid for deployment']],
    ['template labels must match the selector', (o) => ((template(o).metadata as Obj).labels = { app: 'api' }), [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"api"}: `selector` does not match template `labels`',
    ]],
    ['selector expressions must be valid', (o) => (spec(o).selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In' }] }), [
      'spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\'',
      'spec.selector: Invalid value: {"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"In"}]}: invalid label selector',
    ]],
    ['the template is required', (o) => delete spec(o).template, ['spec.template: Required value']],
    ['the template is validated as a pod template', (o) => ((template(o).spec as Obj).containers = []), ['spec.template.spec.containers: Required value']],
    ['the template must restart always', (o) => ((template(o).spec as Obj).restartPolicy = 'Never'), ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']],
    ['the template has no active deadline', (o) => ((template(o).spec as Obj).activeDeadlineSeconds = 10), [
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
    ]],
    ['replicas are non-negative', (o) => (spec(o).replicas = -1), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    ['minReadySeconds is non-negative', (o) => (spec(o).minReadySeconds = -1), ['spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0']],
    ['revisionHistoryLimit is non-negative', (o) => (spec(o).revisionHistoryLimit = -1), ['spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0']],
    ['the progress deadline exceeds minReadySeconds', (o) => Object.assign(spec(o), { minReadySeconds: 600, progressDeadlineSeconds: 600 }), [
      'spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds',
    ]],
    ['the strategy type is Recreate or RollingUpdate', (o) => (spec(o).strategy = { type: 'BlueGreen' }), [
      'spec.strategy: Unsupported value: {"type":"BlueGreen"}: supported values: "Recreate", "RollingUpdate"',
    ]],
    ['Recreate has no rollingUpdate', (o) => (spec(o).strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }), [
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ]],
    ['maxUnavailable and maxSurge are not both 0', (o) => (spec(o).strategy = { rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } }), [
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0',
    ]],
    ['maxUnavailable is at most 100%', (o) => (spec(o).strategy = { rollingUpdate: { maxUnavailable: '101%' } }), [
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%',
    ]],
    ['maxSurge is a non-negative number', (o) => (spec(o).strategy = { rollingUpdate: { maxSurge: -1 } }), ['spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0']],
    ['maxSurge percentages are well formed', (o) => (spec(o).strategy = { rollingUpdate: { maxSurge: 'lots' } }), [
      "spec.strategy.rollingUpdate.maxSurge: Invalid value: \"lots\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    ]],
    ['names are DNS subdomains', (o) => ((o.metadata as Obj).name = 'Web'), [
      "metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('apps/v1 Deployment: updates', () => {
  const stored = (): Obj => defaulted((o) => ((o.metadata as Obj).resourceVersion = '1'));

  it('allows scaling, a new image and a new strategy', () => {
    const old = stored();
    const next = variant(old, (o) => {
      spec(o).replicas = 5;
      ((template(o).spec as Obj).containers as Obj[])[0]!.image = 'nginx:1.26';
      spec(o).strategy = { type: 'Recreate' };
    });
    expect(messages(validateUpdate(deployment, next, old))).to.deep.equal([]);
  });

  it('keeps the selector immutable', () => {
    const old = stored();
    const next = variant(old, (o) => {
      spec(o).selector = { matchLabels: { app: 'web', tier: 'front' } };
      (template(o).metadata as Obj).labels = { app: 'web', tier: 'front' };
    });
    expect(messages(validateUpdate(deployment, next, old))).to.deep.equal([
      'spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"front"}}: field is immutable',
    ]);
  });

  it('validates the new spec as on create', () => {
    const old = stored();
    const next = variant(old, (o) => (spec(o).replicas = -2));
    expect(messages(validateUpdate(deployment, next, old))).to.deep.equal(['spec.replicas: Invalid value: -2: must be greater than or equal to 0']);
  });
});

describe('apps/v1 Deployment: status writes (upstream ValidateDeploymentStatusUpdate)', () => {
  const withStatus = (status: Obj): Obj => variant(defaulted(), (o) => (o.status = status));
  const cases: [string, Obj, Obj, string[]][] = [
    ['a consistent status is accepted', {}, { observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2, collisionCount: 1 }, []],
    ['counts are non-negative', {}, { observedGeneration: -1, collisionCount: -1 }, [
      'status.observedGeneration: Invalid value: -1: must be greater than or equal to 0',
      'status.collisionCount: Invalid value: -1: must be greater than or equal to 0',
    ]],
    ['a negative replica count is also below the other counts', {}, { replicas: -1 }, [
      'status.replicas: Invalid value: -1: must be greater than or equal to 0',
      'status.updatedReplicas: Invalid value: 0: cannot be greater than status.replicas',
      'status.readyReplicas: Invalid value: 0: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 0: cannot be greater than status.replicas',
    ]],
    ['updated replicas do not exceed replicas', {}, { replicas: 1, updatedReplicas: 2, readyReplicas: 1, availableReplicas: 1 }, [
      'status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas',
    ]],
    ['available replicas do not exceed ready replicas', {}, { replicas: 3, readyReplicas: 1, availableReplicas: 2 }, [
      'status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas',
    ]],
    ['collisionCount is never decremented', { collisionCount: 2 }, { collisionCount: 1 }, ['status.collisionCount: Invalid value: 1: cannot be decremented']],
  ];
  for (const [name, oldStatus, newStatus, expected] of cases)
    it(name, () => expect(messages(validateStatus(deployment, withStatus(newStatus), withStatus(oldStatus)))).to.deep.equal(expected));
});
