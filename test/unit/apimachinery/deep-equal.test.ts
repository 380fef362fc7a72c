import { expect } from 'chai';
import { deepCopy, deepCopySharingFrozen, deepEqual } from '../../../lib/apimachinery/deep-equal.js';

describe('apimachinery/deep-equal: deepCopy and deepEqual of JSON values', () => {
  it('copies nested objects and arrays without sharing them', () => {
    const v = { a: [{ b: 1 }, 'x', null], c: { d: true } };
    const copy = deepCopy(v);
    expect(copy).to.deep.equal(v);
    expect(copy.a).to.not.equal(v.a);
    expect(copy.a[0]).to.not.equal(v.a[0]);
    expect(copy.c).to.not.equal(v.c);
  });

  it('deepCopy copies frozen objects too; deepCopySharingFrozen shares them and copies the rest', () => {
    const tree = Object.freeze({ 'f:a': Object.freeze({}) });
    const v = { meta: { entries: [{ manager: 'm', fieldsV1: tree }] }, spec: { x: [1] } };
    const full = deepCopy(v);
    expect(full.meta.entries[0]!.fieldsV1).to.not.equal(tree);
    expect(Object.isFrozen(full.meta.entries[0]!.fieldsV1)).to.equal(false);
    const sharing = deepCopySharingFrozen(v);
    expect(sharing).to.deep.equal(v);
    expect(sharing.meta.entries[0]!.fieldsV1).to.equal(tree);
    expect(sharing.meta.entries).to.not.equal(v.meta.entries);
    expect(sharing.meta.entries[0]).to.not.equal(v.meta.entries[0]);
    expect(sharing.spec.x).to.not.equal(v.spec.x);
  });

  it('compares objects by keys regardless of order and arrays by position', () => {
    expect(deepEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).to.equal(true);
    expect(deepEqual([1, 2], [2, 1])).to.equal(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).to.equal(false);
  });
});
