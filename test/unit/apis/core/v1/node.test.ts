import { expect } from 'chai';
import { node } from '../../../../../lib/apis/core/v1/node.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
const spec = (o: Obj): Obj => (o.spec ??= {}) as Obj;
const status = (o: Obj): Obj => (o.status ??= {}) as Obj;
const ready = (o: Obj): Obj => {
  decodeAndDefault(node, o);
  return o;
};

describe('core/v1 Node (issue #2 item 5)', () => {
  it('declares the upstream discovery facts', () => {
    expect(node).to.include({ group: '', version: 'v1', resource: 'nodes', singular: 'node', namespaced: false, nameRule: 'dns1123Subdomain', statusSubresource: true });
    expect(node.shortNames).to.deep.equal(['no']);
  });

  it('decodes a minimal node with no defaults and validates clean', () => {
    const n = minimal();
    expect(decodeAndDefault(node, n)).to.deep.equal({ unknownFields: [] });
    expect(n).to.deep.equal(minimal());
    expect(validateCreate(node, n)).to.deep.equal([]);
  });

  it('decodes the complete fixture with every field and no unknown field', () => {
    expect(decodeAndDefault(node, fixture('node'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(node.schema, fixture('node'), ['metadata.namespace'])).to.deep.equal([]);
  });

  it('defaults allocatable to capacity', () => {
    const n = ready(variant(minimal(), (o) => (status(o).capacity = { cpu: '4', pods: '110' })));
    expect(n.status).to.deep.equal({ capacity: { cpu: '4', pods: '110' }, allocatable: { cpu: '4', pods: '110' } });
  });

  it('keeps podCIDR and podCIDRs in step, as the v1 conversion does', () => {
    expect(ready(variant(minimal(), (o) => (spec(o).podCIDR = '10.244.0.0/24'))).spec).to.deep.equal({ podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'] });
    expect(ready(variant(minimal(), (o) => (spec(o).podCIDRs = ['10.244.1.0/24']))).spec).to.deep.equal({ podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] });
  });

  const cases: Array<[string, (o: Obj) => void, string[]]> = [
    ['podCIDR must be a CIDR', (o) => (spec(o).podCIDR = '10.244.0.0'), ['spec.podCIDRs[0]: Invalid value: "10.244.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']],
    ['at most one pod CIDR per family', (o) => (spec(o).podCIDRs = ['10.244.0.0/24', '10.245.0.0/24']), [
      'spec.podCIDRs: Invalid value: ["10.244.0.0/24","10.245.0.0/24"]: may specify no more than one CIDR for each IP family',
    ]],
    ['dual-stack pod CIDRs are accepted', (o) => (spec(o).podCIDRs = ['10.244.0.0/24', 'fd00:10:244::/64']), []],
    ['taint effects are NoSchedule, PreferNoSchedule or NoExecute (upstream path metadata.taints)', (o) => (spec(o).taints = [{ key: 'k', effect: 'Sometimes' }]), [
      'metadata.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ]],
    ['taint key is a qualified name', (o) => (spec(o).taints = [{ key: 'a/b/c', effect: 'NoSchedule' }]), [
      "metadata.taints[0].key: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]],
    ['taint key and effect are required', (o) => (spec(o).taints = [{ value: 'v' }]), ['spec.taints[0].key: Required value', 'spec.taints[0].effect: Required value']],
    ['taint value is a label value', (o) => (spec(o).taints = [{ key: 'k', value: 'a b', effect: 'NoSchedule' }]), [
      "metadata.taints[0].value: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]],
    ['taints are unique by key and effect', (o) => (spec(o).taints = [{ key: 'k', effect: 'NoSchedule' }, { key: 'k', value: 'x', effect: 'NoSchedule' }]), [
      'metadata.taints[1]: Duplicate value: {"key":"k","value":"x","effect":"NoSchedule"}: taints must be unique by key and effect pair',
    ]],
    ['resource quantities are not negative', (o) => (status(o).capacity = { memory: '-1Gi' }), [
      'status.capacity.memory: Invalid value: "-1Gi": must be greater than or equal to 0',
      'status.allocatable.memory: Invalid value: "-1Gi": must be greater than or equal to 0',
    ]],
    ['integer resources are whole numbers', (o) => (status(o).allocatable = { pods: '1500m', 'example.com/gpu': '0.5' }), [
      'status.allocatable.pods: Invalid value: "1500m": must be an integer',
      'status.allocatable.example.com/gpu: Invalid value: "500m": must be an integer',
    ]],
  ];
  for (const [name, mutate, expected] of cases) {
    it(`validation: ${name}`, () => {
      expect(messages(validateCreate(node, ready(variant(minimal(), mutate))))).to.deep.equal(expected);
    });
  }

  describe('update rules', () => {
    const stored = (): Obj => ready(variant(minimal(), (o) => {
      spec(o).podCIDRs = ['10.244.0.0/24'];
      spec(o).providerID = 'example://node-1';
      spec(o).externalID = 'node-1';
    }));
    const update = (mutate: (o: Obj) => void): string[] => {
      const old = stored();
      return messages(validateUpdate(node, ready(variant(old, mutate)), old));
    };
    it('podCIDRs may not change once set', () => {
      expect(update((o) => {
        spec(o).podCIDRs = ['10.245.0.0/24'];
        delete spec(o).podCIDR;
      })).to.deep.equal(['spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid']);
    });
    it('providerID may not change once set', () => {
      expect(update((o) => (spec(o).providerID = 'example://other'))).to.deep.equal(['spec.providerID: Forbidden: node updates may not change providerID except from "" to valid']);
    });
    it('externalID may not change', () => {
      expect(update((o) => (spec(o).externalID = 'other'))).to.deep.equal(['spec.externalID: Forbidden: may not be updated']);
    });
    it('a config source needs a ConfigMap reference without uid', () => {
      expect(update((o) => (spec(o).configSource = { configMap: { namespace: 'default', name: 'cfg', kubeletConfigKey: 'k', uid: 'u' } }))).to.deep.equal([
        'spec.configSource.configMap.uid: Forbidden: uid must not be set in spec',
      ]);
      expect(update((o) => (spec(o).configSource = {}))).to.deep.equal(['spec.configSource: Invalid value: {}: exactly one reference subfield must be non-nil']);
    });
    it('podCIDRs may be assigned once when empty', () => {
      const old = ready(minimal());
      const updated = ready(variant(old, (o) => (spec(o).podCIDRs = ['10.244.0.0/24'])));
      expect(validateUpdate(node, updated, old)).to.deep.equal([]);
    });
  });

  describe('status writes', () => {
    it('addresses may not repeat', () => {
      const old = ready(minimal());
      const updated = variant(old, (o) => (status(o).addresses = [{ type: 'InternalIP', address: '192.0.2.5' }, { type: 'InternalIP', address: '192.0.2.5' }]));
      expect(messages(validateStatus(node, updated, old))).to.deep.equal(['status.addresses[1]: Duplicate value: {"type":"InternalIP","address":"192.0.2.5"}']);
    });
    it('config status references carry uid and resourceVersion', () => {
      const old = ready(minimal());
      const updated = variant(old, (o) => (status(o).config = { active: { configMap: { namespace: 'default', name: 'cfg', kubeletConfigKey: 'k' } } }));
      expect(messages(validateStatus(node, updated, old))).to.deep.equal([
        'status.config.active.configMap.uid: Required value: uid must be set in status',
        'status.config.active.configMap.resourceVersion: Required value: resourceVersion must be set in status',
      ]);
    });
  });
});
