import { expect } from 'chai';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import { limitRange } from '../../../../lib/apis/core/v1/limit-range.js';
import { persistentVolume } from '../../../../lib/apis/core/v1/persistent-volume.js';
import { persistentVolumeClaim } from '../../../../lib/apis/core/v1/persistent-volume-claim.js';
import { podTemplate } from '../../../../lib/apis/core/v1/pod-template-kind.js';
import { resourceQuota } from '../../../../lib/apis/core/v1/resource-quota.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from '../../../../lib/apis/vendor.js';
import { ago, cellsOf, meta } from './helpers.js';

const columnsOf = (kind: Parameters<typeof tableFor>[0]): Array<[string, string, number]> => tableFor(kind, [], {}).columnDefinitions!.map((c) => [c.name, c.type, c.priority]);
const o = (kind: string, body: Obj, metadata: Obj = meta('x', 45)): Obj => ({ apiVersion: 'v1', kind, metadata, ...body });

describe('apis/printers: PersistentVolume', () => {
  it('columns as upstream v1.30; wide: VolumeMode', () => {
    expect(columnsOf(persistentVolume)).to.deep.equal([
      ['Name', 'string', 0], ['Capacity', 'string', 0], ['Access Modes', 'string', 0], ['Reclaim Policy', 'string', 0], ['Status', 'string', 0], ['Claim', 'string', 0],
      ['StorageClass', 'string', 0], ['VolumeAttributesClass', 'string', 0], ['Reason', 'string', 0], ['Age', 'string', 0], ['VolumeMode', 'string', 1],
    ]);
  });

  const pv = (spec: Obj, status: Obj = {}, metadata?: Obj): Obj => o('PersistentVolume', { spec, status }, metadata ?? meta('pv-1', 45));
  const cases: Array<[string, Obj, unknown[]]> = [
    [
      'a bound volume',
      pv(
        { capacity: { storage: '10Gi' }, accessModes: ['ReadOnlyMany', 'ReadWriteOnce', 'ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', claimRef: { namespace: 'default', name: 'data' }, storageClassName: 'fast', volumeMode: 'Filesystem' },
        { phase: 'Bound' },
      ),
      ['pv-1', '10Gi', 'RWO,ROX', 'Retain', 'Bound', 'default/data', 'fast', '<unset>', '', '45s', 'Filesystem'],
    ],
    [
      'quantities print canonically; every access mode',
      pv({ capacity: { storage: '1536Mi' }, accessModes: ['ReadWriteOncePod', 'ReadWriteMany', 'ReadOnlyMany', 'ReadWriteOnce'], volumeAttributesClassName: 'gold' }, { phase: 'Failed', reason: 'Recycle' }),
      ['pv-1', '1536Mi', 'RWO,ROX,RWX,RWOP', '', 'Failed', '', '', 'gold', 'Recycle', '45s', '<unset>'],
    ],
    ['no storage capacity prints 0', pv({ capacity: {} }), ['pv-1', '0', '', '', '', '', '', '<unset>', '', '45s', '<unset>']],
    [
      'a deleted volume is Terminating; the beta annotation names the class',
      pv({ capacity: { storage: '1Gi' }, storageClassName: 'field' }, { phase: 'Released' }, meta('pv-1', 45, { deletionTimestamp: ago(1), annotations: { [BETA_STORAGE_CLASS_ANNOTATION]: 'annotated' } })),
      ['pv-1', '1Gi', '', '', 'Terminating', '', 'annotated', '<unset>', '', '45s', '<unset>'],
    ],
  ];
  for (const [name, obj, cells] of cases) it(name, () => expect(cellsOf(persistentVolume, obj)).to.deep.equal(cells));
});

describe('apis/printers: PersistentVolumeClaim', () => {
  it('columns as upstream v1.30; wide: VolumeMode', () => {
    expect(columnsOf(persistentVolumeClaim)).to.deep.equal([
      ['Name', 'string', 0], ['Status', 'string', 0], ['Volume', 'string', 0], ['Capacity', 'string', 0], ['Access Modes', 'string', 0],
      ['StorageClass', 'string', 0], ['VolumeAttributesClass', 'string', 0], ['Age', 'string', 0], ['VolumeMode', 'string', 1],
    ]);
  });

  const pvc = (spec: Obj, status: Obj, metadata?: Obj): Obj => o('PersistentVolumeClaim', { spec, status }, metadata ?? meta('data', 45));
  const cases: Array<[string, Obj, unknown[]]> = [
    [
      'a pending claim shows no capacity nor access modes',
      pvc({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'fast', volumeMode: 'Filesystem' }, { phase: 'Pending' }),
      ['data', 'Pending', '', '', '', 'fast', '<unset>', '45s', 'Filesystem'],
    ],
    [
      'a bound claim shows the volume’s capacity and modes from status',
      pvc({ accessModes: ['ReadWriteOnce'], volumeName: 'pv-1', volumeMode: 'Block', volumeAttributesClassName: 'gold' }, { phase: 'Bound', accessModes: ['ReadWriteMany'], capacity: { storage: '10Gi' } }),
      ['data', 'Bound', 'pv-1', '10Gi', 'RWX', '', 'gold', '45s', 'Block'],
    ],
    [
      'a deleted claim is Terminating; the beta annotation names the class',
      pvc({ storageClassName: 'field' }, { phase: 'Bound' }, meta('data', 45, { deletionTimestamp: ago(1), annotations: { [BETA_STORAGE_CLASS_ANNOTATION]: 'annotated' } })),
      ['data', 'Terminating', '', '', '', 'annotated', '<unset>', '45s', '<unset>'],
    ],
  ];
  for (const [name, obj, cells] of cases) it(name, () => expect(cellsOf(persistentVolumeClaim, obj)).to.deep.equal(cells));
});

describe('apis/printers: ResourceQuota', () => {
  it('columns as upstream: Name, Request, Limit, Age', () => {
    expect(columnsOf(resourceQuota)).to.deep.equal([['Name', 'string', 0], ['Request', 'string', 0], ['Limit', 'string', 0], ['Age', 'string', 0]]);
  });

  it('used/hard of each enforced resource, sorted, limits.* in Limit', () => {
    const quota = o('ResourceQuota', {
      spec: { hard: { pods: '10' } },
      status: { hard: { pods: '10', 'requests.cpu': '4', 'limits.memory': '8Gi', 'limits.cpu': '8' }, used: { pods: '3', 'limits.cpu': '1500m' } },
    });
    expect(cellsOf(resourceQuota, quota)).to.deep.equal(['x', 'pods: 3/10, requests.cpu: 0/4', 'limits.cpu: 1500m/8, limits.memory: 0/8Gi', '45s']);
  });

  it('a quota without status prints empty cells', () => {
    expect(cellsOf(resourceQuota, o('ResourceQuota', { spec: { hard: { pods: '1' } } }))).to.deep.equal(['x', '', '', '45s']);
  });
});

describe('apis/printers: PodTemplate', () => {
  it('columns as upstream: Name, Containers, Images, Pod Labels (no Age)', () => {
    expect(columnsOf(podTemplate)).to.deep.equal([['Name', 'string', 0], ['Containers', 'string', 0], ['Images', 'string', 0], ['Pod Labels', 'string', 0]]);
  });

  it('container names and images, and the template labels', () => {
    const template = { metadata: { labels: { tier: 'front', app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }, { name: 'log', image: 'busybox' }] } };
    expect(cellsOf(podTemplate, o('PodTemplate', { template }))).to.deep.equal(['x', 'nginx,log', 'nginx:1.25,busybox', 'app=web,tier=front']);
  });

  it('a template without labels prints <none>', () => {
    expect(cellsOf(podTemplate, o('PodTemplate', { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } }))).to.deep.equal(['x', 'c', 'i', '<none>']);
  });
});

describe('apis/printers: LimitRange', () => {
  it('has no printer upstream: the default Name / Created At table', () => {
    expect(columnsOf(limitRange)).to.deep.equal([['Name', 'string', 0], ['Created At', 'date', 0]]);
  });
});
