import { expect } from 'chai';
import { persistentVolume } from '../../../../../lib/apis/core/v1/persistent-volume.js';
import { PERSISTENT_VOLUME_SOURCE_KEYS } from '../../../../../lib/apis/core/v1/persistent-volume-sources.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'pv-1' },
  spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], nfs: { server: 'nfs.example.com', path: '/exports' } },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(persistentVolume, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(persistentVolume, defaulted(mutate)));
const selector = (expressions: Obj[]): Obj => ({ required: { nodeSelectorTerms: [{ matchExpressions: expressions }] } });
const ZONE_A = selector([{ key: 'zone', operator: 'In', values: ['a'] }]);

describe('core/v1 PersistentVolume: definition (issue #12 item 1)', () => {
  it('declares the upstream discovery facts: cluster-scoped, short name pv, status subresource', () => {
    expect(persistentVolume).to.include({
      group: '',
      version: 'v1',
      kind: 'PersistentVolume',
      resource: 'persistentvolumes',
      singular: 'persistentvolume',
      namespaced: false,
      statusSubresource: true,
      nameRule: 'dns1123Subdomain',
    });
    expect(persistentVolume.shortNames).to.deep.equal(['pv']);
    expect(persistentVolume.categories).to.deep.equal([]);
    expect(persistentVolume.fieldSelectors).to.deep.equal({});
  });

  it('inlines the 22 volume sources of PersistentVolumeSource in the spec, in upstream order', () => {
    expect(PERSISTENT_VOLUME_SOURCE_KEYS).to.deep.equal([
      'gcePersistentDisk', 'awsElasticBlockStore', 'hostPath', 'glusterfs', 'nfs', 'rbd', 'iscsi', 'cinder', 'cephfs', 'fc', 'flocker',
      'flexVolume', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'local', 'storageos', 'csi',
    ]);
  });

  it('decodes a minimal volume, defaults Retain, Filesystem and phase Pending, and validates clean', () => {
    const pv = minimal();
    expect(decodeAndDefault(persistentVolume, pv)).to.deep.equal({ unknownFields: [] });
    expect(pv.spec).to.deep.equal({ ...minimal().spec as Obj, persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' });
    expect(pv.status).to.deep.equal({ phase: 'Pending' });
    expect(validateCreate(persistentVolume, pv)).to.deep.equal([]);
  });

  it('defaults inside the PV-only sources as upstream (RBD pool, user and keyring; iSCSI interface; ScaleIO mode and fsType)', () => {
    const pv = defaulted((o) => {
      delete spec(o).nfs;
      spec(o).rbd = { monitors: ['m'], image: 'i' };
    });
    expect(spec(pv).rbd).to.deep.equal({ monitors: ['m'], image: 'i', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' });
    const iscsi = defaulted((o) => Object.assign(spec(o), { nfs: undefined, iscsi: { targetPortal: 'p', iqn: 'iqn.2001-04.com.example:x', lun: 0 } }));
    expect((spec(iscsi).iscsi as Obj).iscsiInterface).to.equal('default');
    const sio = defaulted((o) => Object.assign(spec(o), { nfs: undefined, scaleIO: { gateway: 'g', system: 's', secretRef: { name: 'x' }, volumeName: 'v' } }));
    expect(spec(sio).scaleIO).to.deep.include({ storageMode: 'ThinProvisioned', fsType: 'xfs' });
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    const complete = (): Obj => ({ apiVersion: 'v1', ...fixture('persistent-volume') });
    expect(decodeAndDefault(persistentVolume, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(persistentVolume.schema, complete(), ['metadata.namespace'])).to.deep.equal([]);
  });
});

describe('core/v1 PersistentVolume: validation (upstream ValidatePersistentVolumeSpec; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['access modes are required', (o) => delete spec(o).accessModes, ['spec.accessModes: Required value']],
    ['access modes are supported ones', (o) => (spec(o).accessModes = ['ReadWriteSometimes']), [
      'spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    ]],
    ['ReadWriteOncePod stands alone', (o) => (spec(o).accessModes = ['ReadWriteOnce', 'ReadWriteOncePod']), ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes']],
    ['capacity is required', (o) => delete spec(o).capacity, ['spec.capacity: Required value', 'spec.capacity: Unsupported value: null: supported values: "storage"']],
    ['capacity holds only storage', (o) => (spec(o).capacity = { storage: '1Gi', cpu: '1' }), ['spec.capacity: Unsupported value: {"cpu":"1","storage":"1Gi"}: supported values: "storage"']],
    ['the storage capacity is positive', (o) => (spec(o).capacity = { storage: '0' }), ['spec.capacity[storage]: Invalid value: "0": must be greater than zero']],
    ['a negative capacity is no valid quantity', (o) => (spec(o).capacity = { storage: '-1Gi' }), [
      'spec.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity',
      'spec.capacity[storage]: Invalid value: "-1Gi": must be greater than zero',
    ]],
    ['a volume source is required', (o) => delete spec(o).nfs, ['spec: Required value: must specify a volume type']],
    ['only one volume source', (o) => (spec(o).hostPath = { path: '/data' }), ['spec.nfs: Forbidden: may not specify more than 1 volume type']],
    ['a second cephfs is refused at upstream’s cephFS', (o) => (spec(o).cephfs = { monitors: ['m'] }), ['spec.cephFS: Forbidden: may not specify more than 1 volume type']],
    ['NFS paths are absolute', (o) => (spec(o).nfs = { server: 'nfs', path: 'exports' }), ['spec.nfs.path: Invalid value: "exports": must be an absolute path']],
    ['NFS needs a server', (o) => (spec(o).nfs = { path: '/exports' }), ['spec.nfs.server: Required value']],
    ['RBD needs monitors', (o) => Object.assign(spec(o), { nfs: undefined, rbd: { monitors: [], image: 'i' } }), ['spec.rbd.monitors: Required value']],
    ['iSCSI qualified names have a valid format', (o) => Object.assign(spec(o), { nfs: undefined, iscsi: { targetPortal: 'p', iqn: 'bad', lun: 0 } }), [
      'spec.iscsi.iqn: Invalid value: "bad": must be valid format',
    ]],
    ['iSCSI CHAP needs a secret', (o) => Object.assign(spec(o), { nfs: undefined, iscsi: { targetPortal: 'p', iqn: 'iqn.2001-04.com.example:x', lun: 0, chapAuthSession: true } }), [
      'spec.iscsi.secretRef: Required value',
    ]],
    ['a set Glusterfs endpoints namespace is a namespace name', (o) => Object.assign(spec(o), { nfs: undefined, glusterfs: { endpoints: 'e', path: 'p', endpointsNamespace: '' } }), [
      'spec.glusterfs.endpointsNamespace: Invalid value: "": if the endpointnamespace is set, it must be a valid namespace name',
    ]],
    ['Cinder secrets name their namespace', (o) => Object.assign(spec(o), { nfs: undefined, cinder: { volumeID: 'v', secretRef: { name: 's' } } }), ['spec.cinder.secretRef.namespace: Required value']],
    ['CSI secrets name their namespace', (o) => Object.assign(spec(o), { nfs: undefined, csi: { driver: 'csi.example.com', volumeHandle: 'h', nodePublishSecretRef: { name: 's' } } }), [
      'spec.csi.nodePublishSecretRef.namespace: Required value',
    ]],
    ['CSI needs a volume handle', (o) => Object.assign(spec(o), { nfs: undefined, csi: { driver: 'csi.example.com' } }), ['spec.csi.volumeHandle: Required value']],
    ['a local volume needs node affinity', (o) => Object.assign(spec(o), { nfs: undefined, local: { path: '/mnt/ssd' } }), ['spec.nodeAffinity: Required value: Local volume requires node affinity']],
    ['a local volume with node affinity is valid', (o) => Object.assign(spec(o), { nfs: undefined, local: { path: '/mnt/ssd' }, nodeAffinity: ZONE_A }), []],
    ['node affinity names required constraints', (o) => (spec(o).nodeAffinity = {}), ['spec.nodeAffinity.required: Required value: must specify required node constraints']],
    ['node affinity has terms', (o) => (spec(o).nodeAffinity = { required: { nodeSelectorTerms: [] } }), [
      'spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term',
    ]],
    ['node affinity operators are valid', (o) => (spec(o).nodeAffinity = selector([{ key: 'zone', operator: 'Near', values: ['a'] }])), [
      'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
    ]],
    ['the reclaim policy is a supported one', (o) => (spec(o).persistentVolumeReclaimPolicy = 'Keep'), [
      'spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"',
    ]],
    ['a hostPath of / cannot be recycled', (o) => Object.assign(spec(o), { nfs: undefined, hostPath: { path: '//' }, persistentVolumeReclaimPolicy: 'Recycle' }), [
      "spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'",
    ]],
    ['the volume mode is Block or Filesystem', (o) => (spec(o).volumeMode = 'Raw'), ['spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"']],
    ['the storage class is a DNS subdomain', (o) => (spec(o).storageClassName = 'Fast'), [
      "spec.storageClassName: Invalid value: \"Fast\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('core/v1 PersistentVolume: updates (upstream ValidatePersistentVolumeUpdate)', () => {
  const stored = (mutate: (o: Obj) => void = () => {}): Obj =>
    defaulted((o) => {
      (o.metadata as Obj).resourceVersion = '1';
      mutate(o);
    });
  const updateErrors = (old: Obj, mutate: (o: Obj) => void): string[] => messages(validateUpdate(persistentVolume, variant(old, mutate), old));

  it('allows binding, a new capacity, reclaim policy and storage class', () => {
    expect(
      updateErrors(stored(), (o) =>
        Object.assign(spec(o), { claimRef: { namespace: 'default', name: 'data' }, capacity: { storage: '20Gi' }, persistentVolumeReclaimPolicy: 'Delete', storageClassName: 'fast' }),
      ),
    ).to.deep.equal([]);
  });

  it('keeps the volume source immutable, with a diff', () => {
    expect(updateErrors(stored(), (o) => (spec(o).nfs = { server: 'other', path: '/exports' }))).to.deep.equal([
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n- spec.nfs.server: "nfs.example.com"\n+ spec.nfs.server: "other"',
    ]);
  });

  it('lets a CSI volume gain a controllerExpandSecretRef', () => {
    const old = stored((o) => Object.assign(spec(o), { nfs: undefined, csi: { driver: 'csi.example.com', volumeHandle: 'h' } }));
    const ref = { name: 'expand', namespace: 'storage' };
    expect(updateErrors(old, (o) => ((spec(o).csi as Obj).controllerExpandSecretRef = ref))).to.deep.equal([]);
  });

  it('keeps the volume mode immutable', () => {
    expect(updateErrors(stored(), (o) => (spec(o).volumeMode = 'Block'))).to.deep.equal(['volumeMode: Invalid value: "Block": field is immutable']);
  });

  it('lets node affinity be set once, then keeps it', () => {
    expect(updateErrors(stored(), (o) => (spec(o).nodeAffinity = ZONE_A))).to.deep.equal([]);
    const old = stored((o) => (spec(o).nodeAffinity = ZONE_A));
    const next = selector([{ key: 'zone', operator: 'In', values: ['b'] }]);
    expect(updateErrors(old, (o) => (spec(o).nodeAffinity = next))).to.deep.equal([
      `nodeAffinity: Invalid value: ${JSON.stringify(next)}: field is immutable, except for updating from beta label to GA`,
    ]);
  });
});

describe('core/v1 PersistentVolume: status writes', () => {
  it('accepts any phase with a reason and message', () => {
    const old = defaulted();
    const next = variant(old, (o) => (o.status = { phase: 'Released', reason: 'Released', message: 'claim deleted' }));
    expect(messages(validateStatus(persistentVolume, next, old))).to.deep.equal([]);
  });
});
