import { expect } from 'chai';
import { COORDINATION_GROUP, coordinationV1Kinds, lease } from '../../../../../lib/apis/coordination/v1/index.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { vendorGroup } from '../../../../../lib/apis/vendor.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: lease.apiVersion,
  kind: 'Lease',
  metadata: { name: 'node-1', namespace: 'node-lease' },
  spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2024-05-01T10:00:30.500000Z' },
});

describe('coordination/v1 Lease (issue #2 item 5)', () => {
  it('declares the upstream discovery facts in the vendor coordination group', () => {
    expect(COORDINATION_GROUP).to.equal(vendorGroup('coordination'));
    expect(lease).to.include({ group: COORDINATION_GROUP, version: 'v1', resource: 'leases', singular: 'lease', namespaced: true, statusSubresource: false });
    expect(lease.schema.id).to.equal('api.coordination.v1.Lease');
    expect(coordinationV1Kinds).to.deep.equal([lease]);
  });

  it('decodes a minimal lease with no defaults and validates clean', () => {
    const l = minimal();
    expect(decodeAndDefault(lease, l)).to.deep.equal({ unknownFields: [] });
    expect(l).to.deep.equal(minimal());
    expect(validateCreate(lease, l)).to.deep.equal([]);
  });

  it('decodes the complete fixture with every field and no unknown field', () => {
    const complete = (): Obj => ({ apiVersion: lease.apiVersion, ...fixture('lease') });
    expect(decodeAndDefault(lease, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(lease.schema, complete())).to.deep.equal([]);
  });

  const cases: Array<[string, (o: Obj) => void, string[]]> = [
    ['leaseDurationSeconds is positive', (o) => ((o.spec as Obj).leaseDurationSeconds = 0), ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0']],
    ['leaseTransitions is not negative', (o) => ((o.spec as Obj).leaseTransitions = -1), ['spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0']],
  ];
  for (const [name, mutate, expected] of cases) {
    it(`validation: ${name}`, () => {
      const l = variant(minimal(), mutate);
      decodeAndDefault(lease, l);
      expect(messages(validateCreate(lease, l))).to.deep.equal(expected);
    });
  }

  it('renewTime must be a timestamp (a decode error)', () => {
    expect(decodeAndDefault(lease, variant(minimal(), (o) => ((o.spec as Obj).renewTime = 'soon'))).typeError).to.match(/^parsing time "soon"/);
  });

  it('validation applies to updates too', () => {
    const old = minimal();
    decodeAndDefault(lease, old);
    const updated = variant(old, (o) => ((o.spec as Obj).leaseDurationSeconds = -5));
    expect(messages(validateUpdate(lease, updated, old))).to.deep.equal(['spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0']);
  });
});
