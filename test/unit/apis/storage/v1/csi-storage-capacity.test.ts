import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { csiStorageCapacity, STORAGE_GROUP } from '../../../../../lib/apis/storage/v1/index.js';
import { csiStorageCapacityWarnings } from '../../../../../lib/apis/storage/v1/warnings.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({ kind: 'CSIStorageCapacity', metadata: { name: 'csisc-1', namespace: 'default' }, storageClassName: 'fast', capacity: '10Gi' });
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(csiStorageCapacity, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(csiStorageCapacity, defaulted(mutate)));

describe('storage/v1 CSIStorageCapacity: definition (issue #12)', () => {
  it('declares the upstream discovery facts (namespaced)', () => {
    expect(csiStorageCapacity).to.include({ group: STORAGE_GROUP, version: 'v1', kind: 'CSIStorageCapacity', resource: 'csistoragecapacities', singular: 'csistoragecapacity', namespaced: true });
    expect(csiStorageCapacity.shortNames).to.deep.equal([]);
  });

  it('applies no defaults and validates clean', () => {
    const c = minimal();
    expect(decodeAndDefault(csiStorageCapacity, c)).to.deep.equal({ unknownFields: [] });
    expect(c).to.deep.equal(minimal());
    expect(validateCreate(csiStorageCapacity, c)).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field, sets every field and validates clean', () => {
    const c = { apiVersion: csiStorageCapacity.apiVersion, ...fixture('csi-storage-capacity') };
    expect(decodeAndDefault(csiStorageCapacity, c)).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(csiStorageCapacity.schema, c)).to.deep.equal([]);
    expect(messages(validateCreate(csiStorageCapacity, c))).to.deep.equal([]);
  });
});

describe('storage/v1 CSIStorageCapacity: validation (upstream ValidateCSIStorageCapacity)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the storage class name is required', (o) => delete o.storageClassName, ['storageClassName: Required value']],
    ['the storage class name is a DNS subdomain', (o) => (o.storageClassName = 'Fast!'), [
      "storageClassName: Invalid value: \"Fast!\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
    ['the capacity is not negative', (o) => (o.capacity = '-1Gi'), ['capacity: Invalid value: "-1Gi": must be greater than or equal to 0']],
    ['the node topology is a valid selector', (o) => (o.nodeTopology = { matchExpressions: [{ key: 'zone', operator: 'In' }] }), [
      "nodeTopology.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ]],
    ['the namespace is required', (o) => delete (o.metadata as Obj).namespace, ['metadata.namespace: Required value']],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));

  it('warns about deprecated node labels in the topology', () => {
    const c = defaulted((o) => (o.nodeTopology = { matchLabels: { 'beta.kubernetes.io/os': 'linux' }, matchExpressions: [{ key: 'beta.kubernetes.io/arch', operator: 'Exists' }] }));
    expect(csiStorageCapacityWarnings(c)).to.deep.equal([
      'nodeTopology.matchExpressions[0].key: beta.kubernetes.io/arch is deprecated since v1.14; use "kubernetes.io/arch" instead',
      'nodeTopology.matchLabels.beta.kubernetes.io/os: deprecated since v1.14; use "kubernetes.io/os" instead',
    ]);
  });
});

describe('storage/v1 CSIStorageCapacity: updates (upstream ValidateCSIStorageCapacityUpdate)', () => {
  const stored = (): Obj => defaulted((o) => Object.assign(o, { nodeTopology: { matchLabels: { zone: 'a' } }, metadata: { name: 'csisc-1', namespace: 'default', resourceVersion: '1' } }));
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the capacities may change', (o) => Object.assign(o, { capacity: '5Gi', maximumVolumeSize: '1Gi' }), []],
    ['the node topology is immutable', (o) => (o.nodeTopology = { matchLabels: { zone: 'b' } }), ['nodeTopology: Invalid value: {"matchLabels":{"zone":"b"}}: field is immutable']],
    ['the storage class name is immutable', (o) => (o.storageClassName = 'slow'), ['storageClassName: Invalid value: "slow": field is immutable']],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => {
    const old = stored();
    expect(messages(validateUpdate(csiStorageCapacity, variant(old, mutate), old))).to.deep.equal(expected);
  });
});
