import { expect } from 'chai';
import type { Obj } from '../../../../lib/apis/define.js';
import { csiDriver, csiNode, csiStorageCapacity, storageClass, volumeAttachment } from '../../../../lib/apis/storage/v1/index.js';
import { DEFAULT_STORAGE_CLASS_ANNOTATIONS } from '../../../../lib/apis/vendor.js';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import { cellsOf, meta, NOW } from './helpers.js';

const columns = (kind: Parameters<typeof tableFor>[0]) =>
  tableFor(kind, { metadata: {}, items: [] }, { now: NOW }).columnDefinitions!.map((c) => [c.name, c.type, c.format, c.priority]);

describe('apis/printers: storage', () => {
  it('StorageClass: Name (default marked), Provisioner, ReclaimPolicy, VolumeBindingMode, AllowVolumeExpansion, Age', () => {
    expect(columns(storageClass)).to.deep.equal([
      ['Name', 'string', 'name', 0], ['Provisioner', 'string', '', 0], ['ReclaimPolicy', 'string', '', 0],
      ['VolumeBindingMode', 'string', '', 0], ['AllowVolumeExpansion', 'string', '', 0], ['Age', 'string', '', 0],
    ]);
    const sc: Obj = { kind: 'StorageClass', metadata: meta('fast', 90), provisioner: 'csi.example.com', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true };
    expect(cellsOf(storageClass, sc)).to.deep.equal(['fast', 'csi.example.com', 'Retain', 'WaitForFirstConsumer', true, '90s']);
    const unset: Obj = { kind: 'StorageClass', metadata: meta('plain', 30), provisioner: 'p' };
    expect(cellsOf(storageClass, unset)).to.deep.equal(['plain', 'p', 'Delete', 'Immediate', false, '30s']);
    for (const annotation of DEFAULT_STORAGE_CLASS_ANNOTATIONS) {
      const def: Obj = { ...unset, metadata: meta('std', 30, { annotations: { [annotation]: 'true' } }) };
      expect(cellsOf(storageClass, def)[0], annotation).to.equal('std (default)');
    }
  });

  it('CSIDriver: Name, AttachRequired, PodInfoOnMount, StorageCapacity, TokenRequests, RequiresRepublish, Modes, Age', () => {
    expect(columns(csiDriver).map((c) => [c[0], c[1]])).to.deep.equal([
      ['Name', 'string'], ['AttachRequired', 'boolean'], ['PodInfoOnMount', 'boolean'], ['StorageCapacity', 'boolean'],
      ['TokenRequests', 'string'], ['RequiresRepublish', 'boolean'], ['Modes', 'string'], ['Age', 'string'],
    ]);
    const d: Obj = { kind: 'CSIDriver', metadata: meta('csi.example.com', 120), spec: { attachRequired: false, podInfoOnMount: true, storageCapacity: true, tokenRequests: [{ audience: 'a' }, { audience: 'b' }], requiresRepublish: true, volumeLifecycleModes: ['Persistent', 'Ephemeral'] } };
    expect(cellsOf(csiDriver, d)).to.deep.equal(['csi.example.com', false, true, true, 'a,b', true, 'Persistent,Ephemeral', '2m']);
    expect(cellsOf(csiDriver, { kind: 'CSIDriver', metadata: meta('d', 5), spec: {} })).to.deep.equal(['d', true, false, false, '<unset>', false, '<none>', '5s']);
  });

  it('CSINode: Name, Drivers (count), Age', () => {
    expect(columns(csiNode)).to.deep.equal([['Name', 'string', 'name', 0], ['Drivers', 'integer', '', 0], ['Age', 'string', '', 0]]);
    expect(cellsOf(csiNode, { kind: 'CSINode', metadata: meta('node-1', 60), spec: { drivers: [{ name: 'a' }, { name: 'b' }] } })).to.deep.equal(['node-1', 2, '60s']);
    expect(cellsOf(csiNode, { kind: 'CSINode', metadata: meta('node-2', 60), spec: {} })).to.deep.equal(['node-2', 0, '60s']);
  });

  it('VolumeAttachment: Name, Attacher (a name column), PV, Node, Attached, Age', () => {
    expect(columns(volumeAttachment)).to.deep.equal([
      ['Name', 'string', 'name', 0], ['Attacher', 'string', 'name', 0], ['PV', 'string', '', 0], ['Node', 'string', '', 0], ['Attached', 'boolean', '', 0], ['Age', 'string', '', 0],
    ]);
    const va: Obj = { kind: 'VolumeAttachment', metadata: meta('csi-1', 600), spec: { attacher: 'csi.example.com', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' }, status: { attached: true } };
    expect(cellsOf(volumeAttachment, va)).to.deep.equal(['csi-1', 'csi.example.com', 'pv-1', 'node-1', true, '10m']);
    const inline: Obj = { kind: 'VolumeAttachment', metadata: meta('csi-2', 600), spec: { attacher: 'x', source: { inlineVolumeSpec: {} }, nodeName: 'n' } };
    expect(cellsOf(volumeAttachment, inline)).to.deep.equal(['csi-2', 'x', '', 'n', false, '10m']);
  });

  it('CSIStorageCapacity: Name, StorageClassName, Capacity (canonical, <unset>); no age', () => {
    expect(columns(csiStorageCapacity).map((c) => c[0])).to.deep.equal(['Name', 'StorageClassName', 'Capacity']);
    expect(cellsOf(csiStorageCapacity, { kind: 'CSIStorageCapacity', metadata: meta('c1'), storageClassName: 'fast', capacity: '1536Mi' })).to.deep.equal(['c1', 'fast', '1536Mi']);
    expect(cellsOf(csiStorageCapacity, { kind: 'CSIStorageCapacity', metadata: meta('c2'), storageClassName: 'fast' })).to.deep.equal(['c2', 'fast', '<unset>']);
  });
});
