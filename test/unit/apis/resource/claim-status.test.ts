/**
 * ResourceClaim status writes (upstream v1.30 `ValidateClaimStatusUpdate`): reservations of a
 * non-shareable claim, no new consumers while deallocating or deleting, deallocation requested
 * only without consumers and never withdrawn while allocated; handle limits.
 */
import { expect } from 'chai';
import { fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import { validateResourceClaimStatusUpdate } from '../../../../lib/apis/resource/v1alpha2/validation.js';

const consumer = (uid: string) => ({ resource: 'pods', name: `p-${uid}`, uid });
const claim = (status: object, metadata: object = {}) => ({ metadata: { name: 'c', ...metadata }, spec: {}, status });
const allocated = { driverName: 'gpu.example.com', allocation: {} };
const check = (now: object, old: object) => validateResourceClaimStatusUpdate(now as never, old as never).map(fieldErrorString);

describe('ResourceClaim status validation (upstream v1.30 ValidateClaimStatusUpdate)', () => {
  it('accepts an allocation with one reservation', () => {
    expect(check(claim({ ...allocated, reservedFor: [consumer('a')] }), claim({}))).to.deep.equal([]);
  });

  it('reserves a non-shareable claim once', () => {
    expect(check(claim({ ...allocated, reservedFor: [consumer('a'), consumer('b')] }), claim(allocated))).to.deep.equal(['status.reservedFor: Forbidden: may not be reserved more than once']);
    expect(check(claim({ ...allocated, allocation: { shareable: true }, reservedFor: [consumer('a'), consumer('b')] }), claim({ ...allocated, allocation: { shareable: true } }))).to.deep.equal([]);
  });

  it('adds no consumer while deallocation is requested or the claim is deleted', () => {
    const old = claim({ ...allocated, allocation: { shareable: true }, reservedFor: [consumer('a')] });
    const added = { ...allocated, allocation: { shareable: true }, reservedFor: [consumer('a'), consumer('b')] };
    const message = 'status.reservedFor: Forbidden: new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set';
    expect(check(claim(added, { deletionTimestamp: '2024-05-01T10:00:00Z' }), old)).to.deep.equal([message]);
    expect(check(claim({ ...added, deallocationRequested: true }), old)).to.include(message);
  });

  it('keeps a requested deallocation while allocated', () => {
    expect(check(claim(allocated), claim({ ...allocated, deallocationRequested: true }))).to.deep.equal(['status.deallocationRequested: Forbidden: may not be cleared when `allocation` is set']);
    expect(check(claim({}), claim({ ...allocated, deallocationRequested: true }))).to.deep.equal([]);
  });

  it('limits resource handles: driver names, data size, count, data or structured data', () => {
    const handles = [
      { driverName: 'gpu.example.com', data: 'x'.repeat(16 * 1024 + 1) },
      { driverName: 'gpu.example.com', data: 'x', structuredData: { results: [] } },
      ...Array.from({ length: 31 }, () => ({ driverName: 'gpu.example.com' })),
    ];
    expect(check(claim({ ...allocated, allocation: { resourceHandles: handles } }), claim({}))).to.deep.equal([
      'status.allocation.resourceHandles[0].data: Too long: may not be longer than 16384',
      'status.allocation.resourceHandles[1]: Invalid value: "null": data and structuredData are mutually exclusive',
      'status.allocation.resourceHandles: Too long: may not be longer than 32',
    ]);
  });
});
