import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { STORAGE_GROUP, volumeAttachment } from '../../../../../lib/apis/storage/v1/index.js';
import { volumeAttachmentStatusStrategy } from '../../../../../lib/registry/storage/strategies.js';
import { internalContext } from '../../../../../lib/request/context.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  kind: 'VolumeAttachment',
  metadata: { name: 'csi-123' },
  spec: { attacher: 'csi.example.com', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const source = (o: Obj): Obj => spec(o).source as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(volumeAttachment, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(volumeAttachment, defaulted(mutate)));
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const EXACTLY_ONE = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
const inline = (extra: Obj = {}): Obj => ({ csi: { driver: 'csi.example.com', volumeHandle: 'vol-1' }, accessModes: ['ReadWriteOnce'], ...extra });

describe('storage/v1 VolumeAttachment: definition (issue #12)', () => {
  it('declares the upstream discovery facts with a status subresource', () => {
    expect(volumeAttachment).to.include({ group: STORAGE_GROUP, version: 'v1', kind: 'VolumeAttachment', resource: 'volumeattachments', singular: 'volumeattachment', namespaced: false, statusSubresource: true });
    expect(volumeAttachment.shortNames).to.deep.equal([]);
  });

  it('applies no defaults and validates clean', () => {
    const va = minimal();
    expect(decodeAndDefault(volumeAttachment, va)).to.deep.equal({ unknownFields: [] });
    expect(va).to.deep.equal(minimal());
    expect(validateCreate(volumeAttachment, va)).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field', () => {
    const va = { apiVersion: volumeAttachment.apiVersion, ...fixture('volume-attachment') };
    expect(decodeAndDefault(volumeAttachment, va)).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(volumeAttachment.schema, va, ['metadata.namespace'])).to.deep.equal([]);
  });

  it('accepts an inline CSI volume spec', () => {
    expect(errorsOf((o) => (spec(o).source = { inlineVolumeSpec: inline({ persistentVolumeReclaimPolicy: 'Retain' }) }))).to.deep.equal([]);
  });
});

describe('storage/v1 VolumeAttachment: validation (upstream ValidateVolumeAttachment and ValidateVolumeAttachmentV1)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the attacher is required (reported by both upstream checks) and a CSI driver name', (o) => delete spec(o).attacher, [
      'spec.attacher: Required value',
      'spec.attacher: Required value',
      `spec.attacher: Invalid value: "": ${SUBDOMAIN}`,
    ]],
    ['the attacher is at most 63 characters', (o) => (spec(o).attacher = `${'a'.repeat(64)}`), ['spec.attacher: Too long: may not be more than 63 bytes']],
    ['the node name is required', (o) => delete spec(o).nodeName, ['spec.nodeName: Required value']],
    ['the node name is a DNS subdomain', (o) => (spec(o).nodeName = 'Node_1'), [`spec.nodeName: Invalid value: "Node_1": ${SUBDOMAIN}`]],
    ['the source is required', (o) => delete spec(o).source, ['spec.source: Required value']],
    ['the source names one volume', (o) => (spec(o).source = {}), [`spec.source: Required value: ${EXACTLY_ONE}`]],
    ['the source names only one volume', (o) => (source(o).inlineVolumeSpec = inline()), [`spec.source: Forbidden: ${EXACTLY_ONE}`]],
    ['the PV name is not empty', (o) => (source(o).persistentVolumeName = ''), [
      'spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName',
      `spec.source.persistentVolumeName: Invalid value: "": ${SUBDOMAIN}`,
    ]],
    ['the PV name is a DNS subdomain', (o) => (source(o).persistentVolumeName = 'PV'), [`spec.source.persistentVolumeName: Invalid value: "PV": ${SUBDOMAIN}`]],
    ['an inline volume is a CSI volume without claim, capacity, affinity or class', (o) => (spec(o).source = {
      inlineVolumeSpec: { nfs: { server: 'nfs', path: '/x' }, claimRef: { name: 'c' }, capacity: { storage: '1Gi' }, nodeAffinity: {}, storageClassName: 'fast', accessModes: ['ReadWriteOnce'] },
    }), [
      'spec.source.inlineVolumeSpec.claimRef: Forbidden: may not be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec.nodeAffinity: Forbidden: may not be specified in the context of inline volumes',
      'spec.source.inlineVolumeSpec.storageClassName: Forbidden: may not be specified in the context of inline volumes',
    ]],
    ['an inline volume has access modes, only Retain and Filesystem', (o) => (spec(o).source = {
      inlineVolumeSpec: inline({ accessModes: [], persistentVolumeReclaimPolicy: 'Delete', volumeMode: 'Block' }),
    }), [
      'spec.source.inlineVolumeSpec.accessModes: Required value',
      'spec.source.inlineVolumeSpec.persistentVolumeReclaimPolicy: Forbidden: may only be Retain in the context of inline volumes',
      'spec.source.inlineVolumeSpec.volumeMode: Forbidden: may not specify volumeMode other than Filesystem in the context of inline volumes',
    ]],
    ['an inline volume has one volume source', (o) => (spec(o).source = { inlineVolumeSpec: inline({ hostPath: { path: '/data' } }) }), [
      'spec.source.inlineVolumeSpec.csi: Forbidden: may not specify more than 1 volume type',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('storage/v1 VolumeAttachment: updates and status writes (upstream ValidateVolumeAttachmentUpdate)', () => {
  const stored = (): Obj => defaulted((o) => ((o.metadata as Obj).resourceVersion = '1'));

  it('keeps the spec immutable', () => {
    const old = stored();
    expect(messages(validateUpdate(volumeAttachment, variant(old, (o) => (spec(o).nodeName = 'node-2')), old))).to.deep.equal([
      'spec: Invalid value: {"attacher":"csi.example.com","source":{"persistentVolumeName":"pv-1"},"nodeName":"node-2"}: field is immutable',
    ]);
    expect(messages(validateUpdate(volumeAttachment, variant(old, (o) => ((o.metadata as Obj).labels = { a: 'b' })), old))).to.deep.equal([]);
  });

  const statusCases: [string, Obj, string[]][] = [
    ['an attached status with metadata and errors is accepted', { attached: true, attachmentMetadata: { devicePath: '/dev/xvdf' }, detachError: { message: 'busy' } }, []],
    ['attached is required', { attachmentMetadata: {} }, ['status.attached: Required value']],
    ['the attachment metadata is at most 256 KiB', { attached: true, attachmentMetadata: { big: 'x'.repeat(256 * 1024) } }, ['status.attachmentMetadata: Too long: may not be more than 262144 bytes']],
    ['error messages are at most 1024 characters (upstream reports the metadata limit)', { attached: false, attachError: { message: 'e'.repeat(1025) } }, [
      'status.attachError.message: Too long: may not be more than 262144 bytes',
    ]],
  ];
  const ctx = internalContext({ name: 'attacher', groups: [] });
  for (const [name, status, expected] of statusCases) it(`status write: ${name}`, () => {
    const old = stored();
    const next = variant(old, (o) => (o.status = status));
    volumeAttachmentStatusStrategy.prepareForUpdate(ctx, next, old);
    expect(messages(volumeAttachmentStatusStrategy.validateUpdate(ctx, next, old))).to.deep.equal(expected);
  });

  it('status write: changes only the status', () => {
    const old = stored();
    const next = variant(old, (o) => Object.assign(o, { status: { attached: true }, spec: { ...spec(o), nodeName: 'node-2' }, metadata: { ...(o.metadata as Obj), labels: { a: 'b' } } }));
    volumeAttachmentStatusStrategy.prepareForUpdate(ctx, next, old);
    expect(next).to.deep.equal({ ...old, status: { attached: true } });
  });
});
