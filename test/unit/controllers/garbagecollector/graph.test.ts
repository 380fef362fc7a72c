import { expect } from 'chai';
import { DependencyGraph, nodeOf } from '../../../../lib/controllers/garbagecollector/graph.js';
import type { StoredObject } from '../../../../lib/storage/interface.js';

function obj(uid: string, meta: Record<string, unknown> = {}): StoredObject {
  return { metadata: { name: `n-${uid}`, namespace: 'ns', uid, ...meta } } as StoredObject;
}
const ref = (uid: string, block = false) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: `n-${uid}`, uid, ...(block ? { blockOwnerDeletion: true } : {}) });

describe('garbage collector dependency graph (upstream GraphBuilder)', () => {
  it('reads owner references and the deletion state of an object', () => {
    const n = nodeOf(obj('a', { ownerReferences: [ref('o', true), { name: 'no-uid' }], deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }), 3);
    expect(n).to.deep.include({ uid: 'a', resource: 3, namespace: 'ns', name: 'n-a', beingDeleted: true, deletingDependents: true, orphaning: false });
    expect(n.owners).to.deep.equal([{ apiVersion: 'v1', kind: 'ConfigMap', name: 'n-o', uid: 'o', blockOwnerDeletion: true }]);
  });

  it('asks to check an object whose owner is unknown, and nothing for one whose owner is known', () => {
    const g = new DependencyGraph();
    expect(g.upsert(nodeOf(obj('dep', { ownerReferences: [ref('owner')] }), 0))).to.deep.equal(['delete:dep']);
    expect(g.upsert(nodeOf(obj('owner'), 0))).to.deep.equal([]);
    expect(g.upsert(nodeOf(obj('dep2', { ownerReferences: [ref('owner')] }), 0))).to.deep.equal([]);
    expect(g.dependents('owner').map((n) => n.uid)).to.deep.equal(['dep', 'dep2']);
  });

  it('asks to check the dependents of a deleted owner, and owners waiting for a deleted dependent', () => {
    const g = new DependencyGraph();
    g.upsert(nodeOf(obj('owner'), 0));
    g.upsert(nodeOf(obj('dep', { ownerReferences: [ref('owner', true)] }), 0));
    expect(g.upsert(nodeOf(obj('owner', { deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }), 0))).to.deep.equal(['delete:dep', 'delete:owner']);
    expect(g.remove('dep')).to.deep.equal(['delete:owner']);
    g.upsert(nodeOf(obj('dep3', { ownerReferences: [ref('owner')] }), 0));
    expect(g.remove('owner')).to.deep.equal(['delete:dep3']);
    expect(g.node('owner')).to.equal(undefined);
    expect(g.remove('unknown')).to.deep.equal([]);
  });

  it('asks to orphan an owner deleted with the orphan finalizer', () => {
    const g = new DependencyGraph();
    expect(g.upsert(nodeOf(obj('o', { deletionTimestamp: 't', finalizers: ['orphan'] }), 0))).to.deep.equal(['orphan:o']);
  });

  it('re-checks a waiting owner when a dependent stops blocking it, and moves a dependent between owners', () => {
    const g = new DependencyGraph();
    g.upsert(nodeOf(obj('o1', { deletionTimestamp: 't', finalizers: ['foregroundDeletion'] }), 0));
    g.upsert(nodeOf(obj('o2'), 0));
    g.upsert(nodeOf(obj('d', { ownerReferences: [ref('o1', true)] }), 0));
    expect(g.upsert(nodeOf(obj('d', { ownerReferences: [ref('o2')] }), 0))).to.deep.equal(['delete:o1']);
    expect(g.dependents('o1')).to.deep.equal([]);
    expect(g.dependents('o2').map((n) => n.uid)).to.deep.equal(['d']);
  });
});
