import { expect } from 'chai';
import { persistentVolumeClaim, persistentVolumeClaimSpec } from '../../../../../lib/apis/core/v1/persistent-volume-claim.js';
import { persistentVolumeClaimSpec as sharedSpec } from '../../../../../lib/apis/core/v1/volume.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from '../../../../../lib/apis/vendor.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'default' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(persistentVolumeClaim, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(persistentVolumeClaim, defaulted(mutate)));
const SUBDOMAIN_ERROR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('core/v1 PersistentVolumeClaim: definition (issue #12 item 1)', () => {
  it('declares the upstream discovery facts: namespaced, short name pvc, status subresource', () => {
    expect(persistentVolumeClaim).to.include({
      group: '',
      version: 'v1',
      kind: 'PersistentVolumeClaim',
      resource: 'persistentvolumeclaims',
      singular: 'persistentvolumeclaim',
      namespaced: true,
      statusSubresource: true,
      nameRule: 'dns1123Subdomain',
    });
    expect(persistentVolumeClaim.shortNames).to.deep.equal(['pvc']);
    expect(persistentVolumeClaim.categories).to.deep.equal([]);
    expect(persistentVolumeClaim.fieldSelectors).to.deep.equal({});
  });

  it('exports the spec struct shared with ephemeral volume templates', () => {
    expect(persistentVolumeClaimSpec).to.equal(sharedSpec);
    expect(persistentVolumeClaimSpec.id).to.equal('api.core.v1.PersistentVolumeClaimSpec');
  });

  it('decodes a minimal claim, defaults volumeMode Filesystem and phase Pending, and validates clean', () => {
    const c = minimal();
    expect(decodeAndDefault(persistentVolumeClaim, c)).to.deep.equal({ unknownFields: [] });
    expect(c.spec).to.deep.equal({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' });
    expect(c.status).to.deep.equal({ phase: 'Pending' });
    expect(validateCreate(persistentVolumeClaim, c)).to.deep.equal([]);
  });

  it('keeps a Block volume mode', () => {
    expect(spec(defaulted((o) => (spec(o).volumeMode = 'Block'))).volumeMode).to.equal('Block');
  });

  it('decodes the complete fixture with no unknown field and sets every field of the structure', () => {
    const complete = (): Obj => ({ apiVersion: 'v1', ...fixture('persistent-volume-claim') });
    expect(decodeAndDefault(persistentVolumeClaim, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(persistentVolumeClaim.schema, complete())).to.deep.equal([]);
  });
});

describe('core/v1 PersistentVolumeClaim: validation (upstream ValidatePersistentVolumeClaimSpec; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['access modes are required', (o) => delete spec(o).accessModes, ['spec.accessModes: Required value: at least 1 access mode is required']],
    ['access modes are supported ones', (o) => (spec(o).accessModes = ['ReadWriteSometimes']), [
      'spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
    ]],
    ['ReadWriteOncePod stands alone', (o) => (spec(o).accessModes = ['ReadWriteOncePod', 'ReadOnlyMany']), ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes']],
    ['a storage request is required', (o) => (spec(o).resources = { limits: { storage: '1Gi' } }), ['spec.resources[storage]: Required value']],
    ['the storage request is positive', (o) => (spec(o).resources = { requests: { storage: '0' } }), ['spec.resources[storage]: Invalid value: "0": must be greater than zero']],
    ['the selector is valid', (o) => (spec(o).selector = { matchExpressions: [{ key: 'tier', operator: 'In' }] }), [
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ]],
    ['the storage class is a DNS subdomain', (o) => (spec(o).storageClassName = 'Fast'), [`spec.storageClassName: Invalid value: "Fast": ${SUBDOMAIN_ERROR}`]],
    ['the volume mode is Block or Filesystem', (o) => (spec(o).volumeMode = 'Raw'), ['spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"']],
    ['a core data source is a claim', (o) => (spec(o).dataSource = { kind: 'Secret', name: 'seed' }), [
      "spec.dataSource: Invalid value: \"Secret\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
    ]],
    ['a data source group is a DNS subdomain', (o) => (spec(o).dataSourceRef = { apiGroup: 'Snap', kind: 'Snapshot', name: 'seed' }), [
      `spec.dataSourceRef.apiGroup: Invalid value: "Snap": ${SUBDOMAIN_ERROR}`,
    ]],
    ['dataSource and dataSourceRef match', (o) => Object.assign(spec(o), { dataSource: { kind: 'PersistentVolumeClaim', name: 'a' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' } }), [
      'spec: Invalid value: {}: must match dataSourceRef',
    ]],
    ['no dataSource with a namespaced dataSourceRef', (o) =>
      Object.assign(spec(o), { dataSource: { kind: 'PersistentVolumeClaim', name: 'a' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'a', namespace: 'other' } }), [
      'spec: Invalid value: {}: may not be specified when dataSourceRef.namespace is specified',
    ]],
    ['names are DNS subdomains', (o) => ((o.metadata as Obj).name = 'Data'), [`metadata.name: Invalid value: "Data": ${SUBDOMAIN_ERROR}`]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('core/v1 PersistentVolumeClaim: updates (upstream ValidatePersistentVolumeClaimUpdate)', () => {
  const stored = (mutate: (o: Obj) => void = () => {}): Obj =>
    defaulted((o) => {
      (o.metadata as Obj).resourceVersion = '1';
      mutate(o);
    });
  const bound = (o: Obj): void => {
    o.status = { phase: 'Bound', capacity: { storage: '1Gi' } };
    spec(o).volumeName = 'pv-1';
  };
  const updateErrors = (old: Obj, mutate: (o: Obj) => void): string[] => messages(validateUpdate(persistentVolumeClaim, variant(old, mutate), old));

  it('lets a bound claim grow its storage request', () => {
    expect(updateErrors(stored(bound), (o) => ((spec(o).resources as Obj).requests = { storage: '2Gi' }))).to.deep.equal([]);
  });

  it('treats equal amounts written differently as no change', () => {
    expect(updateErrors(stored(), (o) => ((spec(o).resources as Obj).requests = { storage: '1024Mi' }))).to.deep.equal([]);
  });

  it('sets volumeName once', () => {
    expect(updateErrors(stored(), (o) => (spec(o).volumeName = 'pv-1'))).to.deep.equal([]);
    expect(updateErrors(stored((o) => (spec(o).volumeName = 'pv-1')), (o) => (spec(o).volumeName = 'pv-2'))[0]).to.match(
      /^spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims\n/,
    );
  });

  it('forbids other spec changes with upstream’s message and a diff', () => {
    expect(updateErrors(stored(), (o) => (spec(o).accessModes = ['ReadOnlyMany']))).to.deep.equal([
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n' +
        '- spec.accessModes[0]: "ReadWriteOnce"\n+ spec.accessModes[0]: "ReadOnlyMany"',
    ]);
  });

  it('forbids resizing a claim that is not bound', () => {
    expect(updateErrors(stored(), (o) => ((spec(o).resources as Obj).requests = { storage: '2Gi' }))).to.have.length(1);
  });

  it('forbids shrinking a bound claim', () => {
    expect(updateErrors(stored(bound), (o) => ((spec(o).resources as Obj).requests = { storage: '500Mi' }))).to.deep.equal([
      'spec.resources.requests.storage: Forbidden: field can not be less than previous value',
    ]);
  });

  it('keeps the volume mode immutable', () => {
    expect(updateErrors(stored(), (o) => (spec(o).volumeMode = 'Block'))).to.include('volumeMode: Invalid value: "Block": field is immutable');
  });

  it('allows moving the storage class from the beta annotation to the field', () => {
    const old = stored((o) => ((o.metadata as Obj).annotations = { [BETA_STORAGE_CLASS_ANNOTATION]: 'fast' }));
    expect(updateErrors(old, (o) => (spec(o).storageClassName = 'fast'))).to.deep.equal([]);
  });

  it('allows setting an unset storage class', () => {
    expect(updateErrors(stored(), (o) => (spec(o).storageClassName = 'fast'))).to.deep.equal([]);
  });

  it('keeps the beta storage class annotation immutable', () => {
    const old = stored((o) => ((o.metadata as Obj).annotations = { [BETA_STORAGE_CLASS_ANNOTATION]: 'fast' }));
    expect(updateErrors(old, (o) => ((o.metadata as Obj).annotations = { [BETA_STORAGE_CLASS_ANNOTATION]: 'slow' }))).to.deep.equal([
      `metadata.annotations.${BETA_STORAGE_CLASS_ANNOTATION}: Invalid value: "slow": field is immutable`,
    ]);
  });
});

describe('core/v1 PersistentVolumeClaim: status writes (upstream ValidatePersistentVolumeClaimStatusUpdate)', () => {
  it('accepts a bound status with capacity and conditions', () => {
    const old = defaulted();
    const next = variant(old, (o) => (o.status = { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, conditions: [{ type: 'Resizing', status: 'True' }] }));
    expect(messages(validateStatus(persistentVolumeClaim, next, old))).to.deep.equal([]);
  });

  it('rejects a negative capacity', () => {
    const old = defaulted();
    const next = variant(old, (o) => (o.status = { capacity: { storage: '-1' } }));
    expect(messages(validateStatus(persistentVolumeClaim, next, old))).to.deep.equal(['status.capacity[storage]: Invalid value: -1: must be a valid resource quantity']);
  });
});
