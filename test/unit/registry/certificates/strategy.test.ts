import { expect } from 'chai';
import type { Obj } from '../../../../lib/apis/define.js';
import { csrApprovalStrategy, csrStatusStrategy, csrStrategy } from '../../../../lib/registry/certificates/strategy.js';
import { internalContext } from '../../../../lib/request/context.js';
import { b64, csrPem } from '../../apis/certificates/v1/csr-builder.js';

const user = { name: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } };
const ctx = internalContext(user);
const csr = (): Obj => ({
  apiVersion: csrStrategy.kind.apiVersion,
  kind: 'CertificateSigningRequest',
  metadata: { name: 'c1' },
  spec: { request: b64(csrPem('ec')), signerName: 'example.com/signer', usages: ['client auth'], username: 'mallory', groups: ['system:masters'] },
  status: { conditions: [{ type: 'Approved', status: 'True' }] },
});
const stored = (status: Obj = {}): Obj => {
  const o = csr();
  csrStrategy.prepareForCreate(ctx, o);
  Object.assign(o.metadata as Obj, { uid: 'x', resourceVersion: '5' });
  o.status = status;
  return o;
};
const approved = { type: 'Approved', status: 'True', reason: 'OK', lastUpdateTime: '2024-05-01T10:00:00Z', lastTransitionTime: '2024-05-01T10:00:00Z' };

describe('CertificateSigningRequest strategies (upstream certificates registry; issue #12)', () => {
  it('create: the requester is the request\'s user, whatever the client sent, and the status starts empty', () => {
    const o = csr();
    csrStrategy.prepareForCreate(ctx, o);
    expect(o.spec).to.deep.include({ username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } });
    expect(o.status).to.deep.equal({});
    expect(csrStrategy.validate(ctx, o)).to.deep.equal([]);
  });

  it('create: a user without uid, groups or extra leaves those fields unset', () => {
    const o = csr();
    csrStrategy.prepareForCreate(internalContext({ name: 'bob', groups: [] }), o);
    expect(o.spec).to.not.have.any.keys('uid', 'groups', 'extra');
    expect((o.spec as Obj).username).to.equal('bob');
  });

  it('main update: spec and status are carried over, metadata changes', () => {
    const old = stored({ conditions: [approved] });
    const next = { ...structuredClone(old), spec: { ...(old.spec as Obj), signerName: 'example.com/other' }, status: {}, metadata: { ...(old.metadata as Obj), labels: { a: 'b' } } };
    csrStrategy.prepareForUpdate(ctx, next, old);
    expect(next.spec).to.deep.equal(old.spec);
    expect(next.status).to.deep.equal(old.status);
    expect((next.metadata as Obj).labels).to.deep.equal({ a: 'b' });
    expect(csrStrategy.validateUpdate(ctx, next, old)).to.deep.equal([]);
  });

  it('status write: keeps the stored Approved condition, stamps new conditions, changes nothing else', () => {
    const old = stored({ conditions: [approved] });
    const next = structuredClone(old);
    Object.assign(next, { spec: { ...(next.spec as Obj), usages: ['server auth'] }, metadata: { ...(next.metadata as Obj), labels: { a: 'b' } } });
    next.status = { conditions: [{ ...approved, reason: 'Changed' }, { type: 'Failed', status: 'True' }] };
    csrStatusStrategy.prepareForUpdate(ctx, next, old);
    expect(next.spec).to.deep.equal(old.spec);
    expect((next.metadata as Obj).labels).to.equal(undefined);
    const [kept, failed] = (next.status as Obj).conditions as Obj[];
    expect(kept).to.deep.equal(approved);
    expect(failed!.lastUpdateTime).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(failed!.lastTransitionTime).to.equal(failed!.lastUpdateTime);
    expect(csrStatusStrategy.validateUpdate(ctx, next, old)).to.deep.equal([]);
  });

  it('status write: may not approve', () => {
    const old = stored();
    const next = { ...structuredClone(old), status: { conditions: [{ type: 'Approved', status: 'True' }] } };
    csrStatusStrategy.prepareForUpdate(ctx, next, old);
    expect(csrStatusStrategy.validateUpdate(ctx, next, old).map((e) => e.detail)).to.deep.equal(['updates may not add a condition of type "Approved"']);
  });

  it('approval write: changes only the conditions (the certificate is kept) and keeps a transition time of the same type and status', () => {
    const old = stored({ conditions: [{ ...approved, type: 'Custom' }] });
    const next = { ...structuredClone(old), status: { conditions: [{ type: 'Custom', status: 'True' }, { type: 'Denied', status: 'True' }], certificate: b64('x') } };
    csrApprovalStrategy.prepareForUpdate(ctx, next, old);
    const [custom, denied] = (next.status as Obj).conditions as Obj[];
    expect(custom!.lastTransitionTime).to.equal(approved.lastTransitionTime);
    expect(denied).to.include({ type: 'Denied', status: 'True' });
    expect(next.status).to.not.have.property('certificate');
    expect(csrApprovalStrategy.validateUpdate(ctx, next, old)).to.deep.equal([]);
  });

  it('selects by spec.signerName', () => {
    expect(csrStrategy.fieldLabels()).to.deep.equal(['metadata.name', 'spec.signerName']);
    expect(csrStrategy.selectableFields(stored())).to.deep.equal({ 'metadata.name': 'c1', 'spec.signerName': 'example.com/signer' });
  });
});
