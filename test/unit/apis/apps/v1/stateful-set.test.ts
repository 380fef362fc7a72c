import { expect } from 'chai';
import { appsV1Kinds, controllerRevision, daemonSet, deployment, replicaSet, statefulSet } from '../../../../../lib/apis/apps/v1/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const claim = (): Obj => ({ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
const minimal = (): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
    serviceName: 'web',
    volumeClaimTemplates: [claim()],
  },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const template = (o: Obj): Obj => spec(o).template as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(statefulSet, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(statefulSet, defaulted(mutate)));

describe('apps/v1 StatefulSet: definition (issue #12 item 1)', () => {
  it('declares the upstream discovery facts', () => {
    expect(statefulSet).to.include({
      group: 'apps',
      version: 'v1',
      kind: 'StatefulSet',
      resource: 'statefulsets',
      singular: 'statefulset',
      namespaced: true,
      statusSubresource: true,
      nameRule: 'dns1123Subdomain',
    });
    expect(statefulSet.shortNames).to.deep.equal(['sts']);
    expect(statefulSet.categories).to.deep.equal(['all']);
    expect(statefulSet.fieldSelectors).to.deep.equal({});
  });

  it('lists the apps/v1 kinds Deployment first, then in upstream discovery order', () => {
    expect(appsV1Kinds).to.deep.equal([deployment, statefulSet, daemonSet, replicaSet, controllerRevision]);
  });

  it('decodes a minimal set, applies exactly the upstream defaults (claim templates included) and validates clean', () => {
    const o = minimal();
    expect(decodeAndDefault(statefulSet, o)).to.deep.equal({ unknownFields: [] });
    const { template: t, ...rest } = spec(o);
    expect(rest).to.deep.equal({
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
          status: { phase: 'Pending' },
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
        },
      ],
      serviceName: 'web',
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    expect((t as Obj).spec).to.deep.include({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
    expect(validateCreate(statefulSet, o)).to.deep.equal([]);
  });

  const strategies: Array<[string, unknown, unknown]> = [
    ['OnDelete stays as given', { type: 'OnDelete' }, { type: 'OnDelete' }],
    ['an explicit RollingUpdate without parameters gets none', { type: 'RollingUpdate' }, { type: 'RollingUpdate' }],
    ['RollingUpdate parameters get partition 0', { type: 'RollingUpdate', rollingUpdate: {} }, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }],
    ['no type means RollingUpdate, keeping a given partition', { rollingUpdate: { partition: 2 } }, { type: 'RollingUpdate', rollingUpdate: { partition: 2 } }],
    ['an empty type means RollingUpdate', { type: '' }, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }],
  ];
  for (const [name, given, expected] of strategies) {
    it(`updateStrategy: ${name}`, () => expect(spec(defaulted((o) => (spec(o).updateStrategy = given))).updateStrategy).to.deep.equal(expected));
  }

  it('claim templates always read apiVersion v1 and kind PersistentVolumeClaim (upstream conversion, issue 87583)', () => {
    const o = defaulted((x) => Object.assign((spec(x).volumeClaimTemplates as Obj[])[0]!, { apiVersion: 'v9', kind: 'Other' }));
    expect((spec(o).volumeClaimTemplates as Obj[])[0]).to.include({ apiVersion: 'v1', kind: 'PersistentVolumeClaim' });
  });

  it('keeps user values: Parallel management, a partial retention policy, ordinals', () => {
    const o = defaulted((x) =>
      Object.assign(spec(x), { replicas: 0, podManagementPolicy: 'Parallel', persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' }, ordinals: { start: 3 }, revisionHistoryLimit: 1 }),
    );
    expect(spec(o)).to.deep.include({ replicas: 0, podManagementPolicy: 'Parallel', ordinals: { start: 3 }, revisionHistoryLimit: 1 });
    expect(spec(o).persistentVolumeClaimRetentionPolicy).to.deep.equal({ whenDeleted: 'Delete', whenScaled: 'Retain' });
  });

  it('decodes the complete fixture with no unknown field and sets every field (claim type meta is set by the server, not carried by protobuf)', () => {
    expect(decodeAndDefault(statefulSet, fixture('stateful-set'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(statefulSet.schema, fixture('stateful-set'), ['spec.volumeClaimTemplates[].kind', 'spec.volumeClaimTemplates[].apiVersion'])).to.deep.equal([]);
  });
});

describe('apps/v1 StatefulSet: validation (upstream ValidateStatefulSetSpec; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the selector is required', (o) => delete spec(o).selector, ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']],
    ['an empty selector is invalid', (o) => (spec(o).selector = {}), ['spec.selector: Invalid value: {}: empty selector is invalid for statefulset']],
    ['template labels must match the selector', (o) => ((template(o).metadata as Obj).labels = { app: 'api' }), [
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"api"}: `selector` does not match template `labels`',
    ]],
    ['a selector that cannot be converted is invalid', (o) => (spec(o).selector = { matchExpressions: [{ key: 'app', operator: 'Near' }] }), [
      'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
      'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Near"}]}',
    ]],
    ['template labels are reported at spec.template.labels, as upstream', (o) => {
      spec(o).selector = { matchExpressions: [{ key: 'app', operator: 'Exists' }] };
      (template(o).metadata as Obj).labels = { app: 'web', 'bad key!': 'x' };
    }, [
      "spec.template.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]],
    ['the template must restart always', (o) => ((template(o).spec as Obj).restartPolicy = 'OnFailure'), [
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    ]],
    ['the template has no active deadline', (o) => ((template(o).spec as Obj).activeDeadlineSeconds = 5), [
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported',
    ]],
    ['the pod management policy is OrderedReady or Parallel', (o) => (spec(o).podManagementPolicy = 'Burst'), [
      "spec.podManagementPolicy: Invalid value: \"Burst\": must be 'OrderedReady' or 'Parallel'",
    ]],
    ['the update strategy is RollingUpdate or OnDelete', (o) => (spec(o).updateStrategy = { type: 'Blue' }), [
      'spec.updateStrategy: Invalid value: {"type":"Blue"}: must be \'RollingUpdate\' or \'OnDelete\'',
    ]],
    ['OnDelete has no rollingUpdate', (o) => (spec(o).updateStrategy = { type: 'OnDelete', rollingUpdate: { partition: 1 } }), [
      'spec.updateStrategy.rollingUpdate: Invalid value: {"partition":1}: only allowed for updateStrategy \'RollingUpdate\'',
    ]],
    ['the partition is non-negative', (o) => (spec(o).updateStrategy = { rollingUpdate: { partition: -1 } }), [
      'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0',
    ]],
    ['maxUnavailable cannot be 0', (o) => (spec(o).updateStrategy = { rollingUpdate: { maxUnavailable: '0%' } }), [
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "0%": cannot be 0',
    ]],
    ['maxUnavailable is at most 100%', (o) => (spec(o).updateStrategy = { rollingUpdate: { maxUnavailable: '120%' } }), [
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%',
    ]],
    ['the retention policies are Retain or Delete', (o) => (spec(o).persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Keep', whenScaled: 'Delete' }), [
      'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
    ]],
    ['replicas, minReadySeconds and the start ordinal are non-negative', (o) => Object.assign(spec(o), { replicas: -1, minReadySeconds: -2, ordinals: { start: -3 } }), [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0',
      'spec.ordinals.start: Invalid value: -3: must be greater than or equal to 0',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('apps/v1 StatefulSet: updates (upstream ValidateStatefulSetUpdate)', () => {
  const stored = (): Obj => defaulted((o) => ((o.metadata as Obj).resourceVersion = '1'));
  const FORBIDDEN =
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

  it('allows replicas, ordinals, template, updateStrategy, the retention policy and minReadySeconds to change', () => {
    const old = stored();
    const next = variant(old, (o) => {
      Object.assign(spec(o), { replicas: 5, ordinals: { start: 1 }, minReadySeconds: 3, updateStrategy: { type: 'OnDelete' } });
      spec(o).persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Delete' };
      ((template(o).spec as Obj).containers as Obj[])[0]!.image = 'nginx:1.26';
    });
    expect(messages(validateUpdate(statefulSet, next, old))).to.deep.equal([]);
  });

  const forbiddenChanges: Array<[string, (o: Obj) => void]> = [
    ['serviceName', (o) => (spec(o).serviceName = 'other')],
    ['volumeClaimTemplates', (o) => (spec(o).volumeClaimTemplates = [])],
    ['podManagementPolicy', (o) => (spec(o).podManagementPolicy = 'Parallel')],
    ['revisionHistoryLimit', (o) => (spec(o).revisionHistoryLimit = 3)],
    ['selector', (o) => (spec(o).selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'app', operator: 'Exists' }] })],
  ];
  for (const [name, mutate] of forbiddenChanges) {
    it(`forbids changing ${name}`, () => {
      const old = stored();
      expect(messages(validateUpdate(statefulSet, variant(old, mutate), old))).to.deep.equal([FORBIDDEN]);
    });
  }
});

describe('apps/v1 StatefulSet: status writes (upstream ValidateStatefulSetStatusUpdate)', () => {
  const withStatus = (status: Obj): Obj => variant(defaulted(), (o) => (o.status = status));
  const cases: [string, Obj, Obj, string[]][] = [
    ['a consistent status is accepted', {}, { observedGeneration: 1, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 1, availableReplicas: 2, collisionCount: 0 }, []],
    ['counters are non-negative', {}, { replicas: 1, currentReplicas: -1, observedGeneration: -1 }, [
      'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
      'status.observedGeneration: Invalid value: -1: must be greater than or equal to 0',
    ]],
    ['no counter exceeds replicas; available does not exceed ready', {}, { replicas: 1, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 3 }, [
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.currentReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than status.readyReplicas',
    ]],
    ['collisionCount is never decremented', { collisionCount: 2 }, {}, ['status.collisionCount: Invalid value: 0: cannot be decremented']],
  ];
  for (const [name, oldStatus, newStatus, expected] of cases)
    it(name, () => expect(messages(validateStatus(statefulSet, withStatus(newStatus), withStatus(oldStatus)))).to.deep.equal(expected));
});
