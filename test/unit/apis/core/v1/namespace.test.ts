import { expect } from 'chai';
import { prepareNamespaceForCreate, prepareNamespaceForUpdate } from '../../../../../lib/apis/core/v1/namespace-defaults.js';
import { validateNamespaceFinalizeUpdate } from '../../../../../lib/apis/core/v1/namespace-validation.js';
import { namespace } from '../../../../../lib/apis/core/v1/namespace.js';
import { VENDOR, vendorKey } from '../../../../../lib/apis/vendor.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });

describe('core/v1 Namespace (issue #2 item 5; spec 000 § Object deletion lifecycle)', () => {
  it('declares the upstream discovery facts', () => {
    expect(namespace).to.include({ group: '', version: 'v1', resource: 'namespaces', singular: 'namespace', namespaced: false, nameRule: 'dns1123Label', statusSubresource: true });
    expect(namespace.shortNames).to.deep.equal(['ns']);
  });

  it('decodes a minimal namespace and defaults the name label and phase Active', () => {
    const ns = minimal();
    const result = decodeAndDefault(namespace, ns);
    expect(result).to.deep.equal({ unknownFields: [] });
    expect(ns).to.deep.equal({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a', labels: { [vendorKey('metadata.name')]: 'team-a' } },
      status: { phase: 'Active' },
    });
    expect(validateCreate(namespace, ns)).to.deep.equal([]);
  });

  it('decodes the complete fixture with every field and no unknown field', () => {
    const ns = fixture('namespace');
    expect(decodeAndDefault(namespace, ns)).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(namespace.schema, fixture('namespace'), ['metadata.namespace'])).to.deep.equal([]);
  });

  it('prepareForCreate adds the vendor finalizer once and resets status', () => {
    const ns = variant(minimal(), (o) => {
      o.spec = { finalizers: ['example.com/x'] };
      o.status = { phase: 'Terminating' };
    });
    prepareNamespaceForCreate(ns);
    expect(ns.spec).to.deep.equal({ finalizers: ['example.com/x', VENDOR] });
    expect(ns.status).to.deep.equal({ phase: 'Active' });
    prepareNamespaceForCreate(ns);
    expect(ns.spec).to.deep.equal({ finalizers: ['example.com/x', VENDOR] });
  });

  it('prepareForUpdate keeps the stored finalizers and status', () => {
    const old = variant(minimal(), (o) => {
      o.spec = { finalizers: [VENDOR] };
      o.status = { phase: 'Active' };
    });
    const ns = variant(old, (o) => {
      o.spec = {};
      o.status = { phase: 'Terminating' };
      (o.metadata as Obj).labels = { a: 'b' };
    });
    prepareNamespaceForUpdate(ns, old);
    expect(ns).to.deep.equal({ ...old, metadata: { name: 'team-a', labels: { a: 'b' } } });
  });

  const rules: Array<[string, (o: Obj) => void, string[]]> = [
    ['name must be a DNS-1123 label', (o) => ((o.metadata as Obj).name = 'a.b'), [
      "metadata.name: Invalid value: \"a.b\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]],
    ['unprefixed finalizers must be standard', (o) => (o.spec = { finalizers: ['custom'] }), [
      'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    ]],
    ['finalizers must be qualified names', (o) => (o.spec = { finalizers: ['example.com/bad name'] }), [
      "spec.finalizers: Invalid value: \"example.com/bad name\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]],
    ['the vendor finalizer and the standard ones are accepted', (o) => (o.spec = { finalizers: [VENDOR, 'orphan', 'foregroundDeletion'] }), []],
  ];
  for (const [name, mutate, expected] of rules) {
    it(`validation: ${name}`, () => {
      const ns = variant(minimal(), mutate);
      decodeAndDefault(namespace, ns);
      expect(messages(validateCreate(namespace, ns))).to.deep.equal(expected);
    });
  }

  describe('status writes', () => {
    const stored = (): Obj => {
      const ns = minimal();
      decodeAndDefault(namespace, ns);
      return ns;
    };
    it('phase must be Active while not being deleted', () => {
      const ns = variant(stored(), (o) => ((o.status as Obj).phase = 'Terminating'));
      expect(messages(validateStatus(namespace, ns, stored()))).to.deep.equal([
        "status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty",
      ]);
    });
    it('phase must be Terminating once deletionTimestamp is set', () => {
      const old = variant(stored(), (o) => ((o.metadata as Obj).deletionTimestamp = '2024-05-01T10:00:00Z'));
      const ns = structuredClone(old);
      expect(messages(validateStatus(namespace, ns, old))).to.deep.equal([
        "status.Phase: Invalid value: \"Active\": may only be 'Terminating' if `deletionTimestamp` is not empty",
      ]);
      (ns.status as Obj).phase = 'Terminating';
      expect(validateStatus(namespace, ns, old)).to.deep.equal([]);
    });
    it('the finalize subresource checks each finalizer with indexed paths', () => {
      const ns = variant(stored(), (o) => (o.spec = { finalizers: [VENDOR, 'custom'] }));
      expect(messages(validateNamespaceFinalizeUpdate(ns))).to.deep.equal([
        'spec.finalizers[1]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ]);
    });
  });
});
