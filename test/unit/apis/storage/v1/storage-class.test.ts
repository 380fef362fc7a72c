import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { STORAGE_GROUP, storageClass, storageV1Kinds } from '../../../../../lib/apis/storage/v1/index.js';
import { storageClassWarnings } from '../../../../../lib/apis/storage/v1/warnings.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({ kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'csi.example.com' });
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(storageClass, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(storageClass, defaulted(mutate)));
const SUBDOMAIN_RE = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const QUALIFIED =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('storage/v1 StorageClass: definition (issue #12)', () => {
  it('declares the upstream discovery facts', () => {
    expect(storageClass).to.include({ group: STORAGE_GROUP, version: 'v1', kind: 'StorageClass', resource: 'storageclasses', singular: 'storageclass', namespaced: false, statusSubresource: false });
    expect(storageClass.shortNames).to.deep.equal(['sc']);
    expect(storageClass.categories).to.deep.equal([]);
    expect(STORAGE_GROUP).to.match(/^storage\./);
    expect(storageV1Kinds.map((k) => k.resource)).to.deep.equal(['csidrivers', 'csinodes', 'csistoragecapacities', 'storageclasses', 'volumeattachments']);
  });

  it('defaults the reclaim policy to Delete and the binding mode to Immediate, nothing else', () => {
    const sc = minimal();
    expect(decodeAndDefault(storageClass, sc)).to.deep.equal({ unknownFields: [] });
    expect(sc).to.deep.equal({ ...minimal(), reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    expect(validateCreate(storageClass, sc)).to.deep.equal([]);
  });

  it('keeps set values', () => {
    const sc = defaulted((o) => Object.assign(o, { reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }));
    expect(sc).to.include({ reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' });
  });

  it('decodes the complete fixture with no unknown field, sets every field and validates clean', () => {
    const sc = { apiVersion: storageClass.apiVersion, ...fixture('storage-class') };
    expect(decodeAndDefault(storageClass, sc)).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(storageClass.schema, sc, ['metadata.namespace'])).to.deep.equal([]);
    expect(messages(validateCreate(storageClass, sc))).to.deep.equal([]);
  });
});

describe('storage/v1 StorageClass: validation (upstream ValidateStorageClass)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the provisioner is required', (o) => delete o.provisioner, ['provisioner: Required value']],
    ['the provisioner is a qualified name, shown lower-cased', (o) => (o.provisioner = 'CSI/Example/X'), [`provisioner: Invalid value: "csi/example/x": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`]],
    ['a parameter key is not empty', (o) => (o.parameters = { '': 'x' }), ['parameters: Invalid value: "": field can not be empty.']],
    ['at most 512 parameters', (o) => (o.parameters = Object.fromEntries(Array.from({ length: 513 }, (_, i) => [`k${i}`, 'v']))), ['parameters: Too long: may not be more than 512 bytes']],
    ['parameters total at most 256 KiB', (o) => (o.parameters = { big: 'x'.repeat(256 * 1024) }), ['parameters: Too long: may not be more than 262144 bytes']],
    ['the reclaim policy is Delete or Retain', (o) => (o.reclaimPolicy = 'Recycle'), ['reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"']],
    ['the binding mode is supported', (o) => (o.volumeBindingMode = 'Later'), ['volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"']],
    ['a topology requirement has values and a label key', (o) => (o.allowedTopologies = [{ matchLabelExpressions: [{ key: 'bad key', values: [] }] }]), [
      'allowedTopologies[0].matchLabelExpressions[0].values: Required value',
      `allowedTopologies[0].matchLabelExpressions[0].key: Invalid value: "bad key": ${QUALIFIED}`,
    ]],
    ['topology values and keys are unique', (o) => (o.allowedTopologies = [{ matchLabelExpressions: [{ key: 'zone', values: ['a', 'a'] }, { key: 'zone', values: ['b'] }] }]), [
      'allowedTopologies[0].matchLabelExpressions[0].values[1]: Duplicate value: "a"',
      'allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "zone"',
    ]],
    ['topology terms are unique', (o) => (o.allowedTopologies = [{ matchLabelExpressions: [{ key: 'zone', values: ['a'] }] }, { matchLabelExpressions: [{ key: 'zone', values: ['a'] }] }]), [
      'allowedTopologies[1].matchLabelExpressions: Duplicate value: ""',
    ]],
    ['an empty topology term equals the empty entries upstream starts from', (o) => (o.allowedTopologies = [{}]), ['allowedTopologies[0].matchLabelExpressions: Duplicate value: ""']],
    ['names are DNS subdomains', (o) => ((o.metadata as Obj).name = 'Fast'), [
      `metadata.name: Invalid value: "Fast": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${SUBDOMAIN_RE}')`,
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));

  it('warns about deprecated node labels in allowed topologies', () => {
    const sc = defaulted((o) => (o.allowedTopologies = [{ matchLabelExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', values: ['a'] }] }]));
    expect(storageClassWarnings(sc)).to.deep.equal(['allowedTopologies[0].matchLabelExpressions[0].key: deprecated since v1.17; use "topology.kubernetes.io/zone" instead']);
  });
});

describe('storage/v1 StorageClass: updates (upstream ValidateStorageClassUpdate)', () => {
  const stored = (): Obj => defaulted((o) => Object.assign(o, { parameters: { type: 'ssd' }, metadata: { name: 'fast', resourceVersion: '1' } }));
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['labels, mount options, expansion and topologies may change', (o) => Object.assign(o, { metadata: { name: 'fast', resourceVersion: '1', labels: { a: 'b' } }, mountOptions: ['ro'], allowVolumeExpansion: true }), []],
    ['parameters may not change', (o) => (o.parameters = { type: 'hdd' }), ['parameters: Forbidden: updates to parameters are forbidden.']],
    ['the provisioner may not change', (o) => (o.provisioner = 'other.example.com'), ['provisioner: Forbidden: updates to provisioner are forbidden.']],
    ['the reclaim policy may not change', (o) => (o.reclaimPolicy = 'Retain'), ['reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.']],
    ['the binding mode is immutable', (o) => (o.volumeBindingMode = 'WaitForFirstConsumer'), ['volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable']],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => {
    const old = stored();
    expect(messages(validateUpdate(storageClass, variant(old, mutate), old))).to.deep.equal(expected);
  });
});
