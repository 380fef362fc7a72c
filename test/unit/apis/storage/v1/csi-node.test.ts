import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { csiNode, STORAGE_GROUP } from '../../../../../lib/apis/storage/v1/index.js';
import { effectiveListType, structFields, type ListSchema, type StructSchema } from '../../../../../lib/apimachinery/schema/types.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const driver = (extra: Obj = {}): Obj => ({ name: 'csi.example.com', nodeID: 'i-1', topologyKeys: ['topology.example.com/zone'], ...extra });
const minimal = (): Obj => ({ kind: 'CSINode', metadata: { name: 'node-1' }, spec: { drivers: [driver()] } });
const drivers = (o: Obj): Obj[] => (o.spec as Obj).drivers as Obj[];
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(csiNode, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(csiNode, defaulted(mutate)));
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('storage/v1 CSINode: definition (issue #12)', () => {
  it('declares the upstream discovery facts and merges drivers by name', () => {
    expect(csiNode).to.include({ group: STORAGE_GROUP, version: 'v1', kind: 'CSINode', resource: 'csinodes', singular: 'csinode', namespaced: false, statusSubresource: false });
    const spec = structFields(csiNode.schema).spec!.schema as StructSchema;
    const list = structFields(spec).drivers!.schema as ListSchema;
    expect(effectiveListType(list)).to.deep.equal({ listType: 'map', keys: ['name'] });
    expect(list).to.include({ patchStrategy: 'merge', patchMergeKey: 'name' });
  });

  it('applies no defaults and validates clean', () => {
    const n = minimal();
    expect(decodeAndDefault(csiNode, n)).to.deep.equal({ unknownFields: [] });
    expect(n).to.deep.equal(minimal());
    expect(validateCreate(csiNode, n)).to.deep.equal([]);
  });

  it('accepts a node without drivers (kubelet registers it before any driver)', () => {
    expect(errorsOf((o) => (o.spec = {}))).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field, sets every field and validates clean', () => {
    const n = { apiVersion: csiNode.apiVersion, ...fixture('csi-node') };
    expect(decodeAndDefault(csiNode, n)).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(csiNode.schema, n, ['metadata.namespace'])).to.deep.equal([]);
    expect(messages(validateCreate(csiNode, n))).to.deep.equal([]);
  });
});

describe('storage/v1 CSINode: validation (upstream ValidateCSINode)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['a driver has a name and a node ID', (o) => ((o.spec as Obj).drivers = [{}]), [
      'spec.drivers[0].name: Required value',
      'spec.drivers[0].nodeID: Required value',
      `spec.drivers[0].name: Invalid value: "": ${SUBDOMAIN}`,
    ]],
    ['the driver name is a CSI driver name', (o) => (drivers(o)[0]!.name = 'CSI_Driver'), [`spec.drivers[0].name: Invalid value: "CSI_Driver": ${SUBDOMAIN}`]],
    ['node IDs are at most 256 characters', (o) => (drivers(o)[0]!.nodeID = 'n'.repeat(257)), [`spec.drivers[0].nodeID: Invalid value: "${'n'.repeat(257)}": must be 256 characters or less`]],
    ['the allocatable count is not negative', (o) => (drivers(o)[0]!.allocatable = { count: -1 }), ['spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0']],
    ['driver names are unique', (o) => drivers(o).push(driver({ nodeID: 'i-2' })), ['spec.drivers[1].name: Duplicate value: "csi.example.com"']],
    ['topology keys are unique, non-empty qualified names (errors at the driver)', (o) => (drivers(o)[0]!.topologyKeys = ['zone', 'zone', '']), [
      'spec.drivers[0]: Duplicate value: "zone"',
      'spec.drivers[0]: Required value',
      "spec.drivers[0]: Invalid value: \"\": name part must be non-empty",
      "spec.drivers[0]: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('storage/v1 CSINode: updates (upstream ValidateCSINodeUpdate)', () => {
  const stored = (): Obj => defaulted((o) => ((o.metadata as Obj).resourceVersion = '1'));
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['drivers may be added and removed', (o) => ((o.spec as Obj).drivers = [driver({ name: 'other.example.com' })]), []],
    ['a registered driver is immutable', (o) => (drivers(o)[0]!.nodeID = 'i-9'), [
      'spec.drivers: Invalid value: {"name":"csi.example.com","nodeID":"i-9","topologyKeys":["topology.example.com/zone"]}: field is immutable',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => {
    const old = stored();
    expect(messages(validateUpdate(csiNode, variant(old, mutate), old))).to.deep.equal(expected);
  });
});
