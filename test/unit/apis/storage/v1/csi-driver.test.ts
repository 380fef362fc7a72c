import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { csiDriver, STORAGE_GROUP } from '../../../../../lib/apis/storage/v1/index.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({ kind: 'CSIDriver', metadata: { name: 'csi.example.com' }, spec: {} });
const spec = (o: Obj): Obj => o.spec as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(csiDriver, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(csiDriver, defaulted(mutate)));

describe('storage/v1 CSIDriver: definition (issue #12)', () => {
  it('declares the upstream discovery facts', () => {
    expect(csiDriver).to.include({ group: STORAGE_GROUP, version: 'v1', kind: 'CSIDriver', resource: 'csidrivers', singular: 'csidriver', namespaced: false, statusSubresource: false });
    expect(csiDriver.shortNames).to.deep.equal([]);
    expect(csiDriver.schema.id).to.equal('api.storage.v1.CSIDriver');
  });

  it('applies exactly the upstream defaults (SELinuxMountReadWriteOncePod on)', () => {
    const d = minimal();
    expect(decodeAndDefault(csiDriver, d)).to.deep.equal({ unknownFields: [] });
    expect(d.spec).to.deep.equal({
      attachRequired: true,
      podInfoOnMount: false,
      volumeLifecycleModes: ['Persistent'],
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      requiresRepublish: false,
      seLinuxMount: false,
    });
    expect(validateCreate(csiDriver, d)).to.deep.equal([]);
  });

  it('keeps set values and defaults an empty mode list to Persistent', () => {
    const d = defaulted((o) => Object.assign(spec(o), { attachRequired: false, volumeLifecycleModes: ['Ephemeral'], fsGroupPolicy: 'None' }));
    expect(spec(d)).to.include({ attachRequired: false, fsGroupPolicy: 'None' });
    expect(spec(d).volumeLifecycleModes).to.deep.equal(['Ephemeral']);
    expect(spec(defaulted((o) => (spec(o).volumeLifecycleModes = []))).volumeLifecycleModes).to.deep.equal(['Persistent']);
  });

  it('decodes the complete fixture with no unknown field, sets every field and validates clean', () => {
    const d = { apiVersion: csiDriver.apiVersion, ...fixture('csi-driver') };
    expect(decodeAndDefault(csiDriver, d)).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(csiDriver.schema, d, ['metadata.namespace'])).to.deep.equal([]);
    expect(messages(validateCreate(csiDriver, d))).to.deep.equal([]);
  });
});

describe('storage/v1 CSIDriver: validation (upstream validateCSIDriverSpec)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['the spec is required', (o) => delete o.spec, ['spec: Required value']],
    ['the fsGroup policy is supported', (o) => (spec(o).fsGroupPolicy = 'Always'), ['spec.fsGroupPolicy: Unsupported value: "Always": supported values: "File", "None", "ReadWriteOnceWithFSType"']],
    ['lifecycle modes are Persistent or Ephemeral', (o) => (spec(o).volumeLifecycleModes = ['Persistent', 'Forever']), [
      'spec.volumeLifecycleModes: Unsupported value: "Forever": supported values: "Persistent", "Ephemeral"',
    ]],
    ['token audiences are distinct', (o) => (spec(o).tokenRequests = [{ audience: 'a' }, { audience: 'a', expirationSeconds: 1 }]), ['spec.tokenRequests[1].audience: Duplicate value: "a"']],
    ['tokens last at least 10 minutes', (o) => (spec(o).tokenRequests = [{ audience: 'a', expirationSeconds: 599 }]), [
      'spec.tokenRequests[0].expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    ]],
    ['tokens last at most 2^32 seconds', (o) => (spec(o).tokenRequests = [{ audience: '', expirationSeconds: 2 ** 32 + 1 }]), [
      'spec.tokenRequests[0].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('storage/v1 CSIDriver: updates (upstream ValidateCSIDriverUpdate)', () => {
  const stored = (): Obj => defaulted((o) => ((o.metadata as Obj).resourceVersion = '1'));
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['podInfoOnMount, fsGroupPolicy, storageCapacity, tokens, republish and SELinux mount may change', (o) =>
      Object.assign(spec(o), { podInfoOnMount: true, fsGroupPolicy: 'File', storageCapacity: true, tokenRequests: [{ audience: 'x' }], requiresRepublish: true, seLinuxMount: true }), []],
    ['attachRequired is immutable (reported as attachedRequired)', (o) => (spec(o).attachRequired = false), ['spec.attachedRequired: Invalid value: false: field is immutable']],
    ['volumeLifecycleModes are immutable', (o) => (spec(o).volumeLifecycleModes = ['Persistent', 'Ephemeral']), [
      'spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"Persistent", "Ephemeral"}: field is immutable',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => {
    const old = stored();
    expect(messages(validateUpdate(csiDriver, variant(old, mutate), old))).to.deep.equal(expected);
  });
});
