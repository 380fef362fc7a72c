import { expect } from 'chai';
import { pod } from '../../../../../lib/apis/core/v1/workloads.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, messages, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const stored = (): Obj => {
  const p: Obj = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', uid: 'u-1', creationTimestamp: '2024-05-01T10:00:00Z' },
    spec: {
      containers: [{ name: 'web', image: 'nginx:1.25' }],
      initContainers: [{ name: 'init', image: 'busybox:1.36' }],
      tolerations: [{ key: 'example.com/dedicated', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
      activeDeadlineSeconds: 600,
    },
  };
  decodeAndDefault(pod, p);
  return p;
};
const spec = (o: Obj): Obj => o.spec as Obj;
const update = (mutate: (o: Obj) => void, base: Obj = stored()): string[] => messages(validateUpdate(pod, variant(base, mutate), base));

const UPDATABLE =
  'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

describe('core/v1 Pod: update rules (upstream ValidatePodUpdate)', () => {
  it('allows changing container and init container images', () => {
    expect(update((o) => {
      (spec(o).containers as Obj[])[0]!.image = 'nginx:1.26';
      (spec(o).initContainers as Obj[])[0]!.image = 'busybox:1.37';
    })).to.deep.equal([]);
  });

  it('forbids any other spec change, naming the updatable fields and showing the difference', () => {
    const errs = update((o) => (spec(o).dnsPolicy = 'Default'));
    expect(errs).to.have.length(1);
    expect(errs[0]!.startsWith(`${UPDATABLE}\n`)).to.equal(true);
    expect(errs[0]).to.contain('- spec.dnsPolicy: "ClusterFirst"\n+ spec.dnsPolicy: "Default"');
  });

  it('forbids changing container fields other than the image', () => {
    const errs = update((o) => ((spec(o).containers as Obj[])[0]!.env = [{ name: 'A', value: '1' }]));
    expect(errs.map((e) => e.split('\n')[0])).to.deep.equal([UPDATABLE]);
  });

  it('forbids adding or removing containers', () => {
    expect(update((o) => (spec(o).containers as Obj[]).push({ name: 'side', image: 'busybox', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }))).to.deep.equal([
      'spec.containers: Forbidden: pod updates may not add or remove containers',
    ]);
  });

  it('requires an image on update', () => {
    expect(update((o) => ((spec(o).containers as Obj[])[0]!.image = ''))).to.deep.equal([
      'spec.containers[0].image: Required value',
      'spec.containers[0].image: Required value',
    ]);
  });

  it('allows lowering the active deadline, not raising or removing it', () => {
    expect(update((o) => (spec(o).activeDeadlineSeconds = 300))).to.deep.equal([]);
    expect(update((o) => (spec(o).activeDeadlineSeconds = 900))).to.deep.equal(['spec.activeDeadlineSeconds: Invalid value: 900: must be less than or equal to previous value']);
    expect(update((o) => delete spec(o).activeDeadlineSeconds)).to.deep.equal(['spec.activeDeadlineSeconds: Invalid value: "null": must not update from a positive integer to nil value']);
  });

  it('allows adding tolerations and changing tolerationSeconds, not changing existing ones', () => {
    expect(update((o) => (spec(o).tolerations as Obj[]).push({ key: 'example.com/gpu', operator: 'Exists' }))).to.deep.equal([]);
    expect(update((o) => ((spec(o).tolerations as Obj[])[0]!.tolerationSeconds = 30))).to.deep.equal([]);
    expect(update((o) => ((spec(o).tolerations as Obj[])[0]!.effect = 'NoSchedule'))).to.deep.equal([
      'spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    ]);
  });

  it('allows a negative grace period to become 1, nothing else', () => {
    const negative = variant(stored(), (o) => (spec(o).terminationGracePeriodSeconds = -1));
    expect(update((o) => (spec(o).terminationGracePeriodSeconds = 1), negative)).to.deep.equal([]);
    expect(update((o) => (spec(o).terminationGracePeriodSeconds = 10)).map((e) => e.split('\n')[0])).to.deep.equal([UPDATABLE]);
  });

  it('allows removing scheduling gates, not adding them, and adding node selectors to gated pods', () => {
    const gated = variant(stored(), (o) => {
      spec(o).schedulingGates = [{ name: 'example.com/quota' }];
      spec(o).nodeSelector = { disk: 'ssd' };
    });
    expect(update((o) => (spec(o).schedulingGates = []), gated)).to.deep.equal([]);
    expect(update((o) => (spec(o).nodeSelector = { disk: 'ssd', zone: 'a' }), gated)).to.deep.equal([]);
    expect(update((o) => (spec(o).nodeSelector = { disk: 'hdd' }), gated)).to.deep.equal([
      'spec.nodeSelector: Invalid value: {"disk":"hdd"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)',
    ]);
    expect(update((o) => (spec(o).schedulingGates = [{ name: 'example.com/quota' }, { name: 'example.com/other' }]), gated)).to.deep.equal([
      "spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/other'",
    ]);
  });
});

describe('core/v1 Pod: status writes (upstream ValidatePodStatusUpdate)', () => {
  const running = (): Obj =>
    variant(stored(), (o) => {
      spec(o).restartPolicy = 'Never';
      o.status = {
        phase: 'Running',
        qosClass: 'BestEffort',
        hostIP: '10.0.0.1',
        podIPs: [{ ip: '10.244.1.7' }],
        containerStatuses: [{ name: 'web', ready: false, restartCount: 0, image: 'nginx:1.25', imageID: 'sha256:1', state: { terminated: { exitCode: 0 } } }],
      };
    });
  const status = (mutate: (s: Obj) => void): string[] => {
    const old = running();
    return messages(validateStatus(pod, variant(old, (o) => mutate(o.status as Obj)), old));
  };

  it('accepts a consistent status', () => expect(status((s) => (s.phase = 'Succeeded'))).to.deep.equal([]));
  it('keeps the QoS class', () => expect(status((s) => (s.qosClass = 'Burstable'))).to.deep.equal(['status.qosClass: Invalid value: "Burstable": field is immutable']));
  it('requires the fields of container statuses', () => {
    expect(status((s) => delete (s.containerStatuses as Obj[])[0]!.imageID)).to.deep.equal(['status.containerStatuses[0].imageID: Required value']);
  });
  it('does not bring back terminated containers of a Never pod', () => {
    expect(status((s) => ((s.containerStatuses as Obj[])[0]!.state = { running: { startedAt: '2024-05-01T10:00:00Z' } }))).to.deep.equal([
      'status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state',
    ]);
  });
  it('checks pod IPs: valid, one per family, no duplicates', () => {
    expect(status((s) => (s.podIPs = [{ ip: '10.244.1.7' }, { ip: '10.244.1.8' }]))).to.deep.equal([
      'status.podIPs: Invalid value: [{"ip":"10.244.1.7"},{"ip":"10.244.1.8"}]: may specify no more than one IP for each IP family',
    ]);
    expect(status((s) => (s.podIPs = [{ ip: 'pod-1' }]))).to.deep.equal(['status.podIPs[0]: Invalid value: "pod-1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
  });
  it('requires hostIPs to start with hostIP', () => {
    expect(status((s) => (s.hostIPs = [{ ip: '10.0.0.2' }]))).to.deep.equal(['status.hostIPs[0].ip: Invalid value: "10.0.0.2": must be equal to `hostIP`']);
  });
  it('checks custom condition types as qualified names', () => {
    expect(status((s) => (s.conditions = [{ type: 'Ready', status: 'True' }, { type: 'bad type', status: 'True' }]))).to.deep.equal([
      "metadata.conditions[1].Type: Invalid value: \"bad type\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
  });
});
