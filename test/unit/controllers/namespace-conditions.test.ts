import { expect } from 'chai';
import { newTally, nextConditions, tallyRemaining } from '../../../lib/controllers/namespace/conditions.js';

describe('namespace deletion conditions (upstream namespaced-resources deleter)', () => {
  it('counts what remains by resource and finalizer, sorted, in upstream\'s words', () => {
    const t = newTally();
    tallyRemaining(t, 'pods', '', [{ metadata: { finalizers: ['b/x', 'a/y'] } }, { metadata: {} }]);
    tallyRemaining(t, 'deployments', 'apps', [{ metadata: { finalizers: ['b/x'] } }]);
    tallyRemaining(t, 'secrets', '', []);
    const c = nextConditions(undefined, t, 'T1')!;
    expect(c.map((x) => x.type)).to.deep.equal([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
    expect(c[3]).to.deep.equal({ type: 'NamespaceContentRemaining', status: 'True', lastTransitionTime: 'T1', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: deployments.apps has 1 resource instances, pods. has 2 resource instances' });
    expect(c[4]!.message).to.equal('Some content in the namespace has finalizers remaining: a/y in 1 resource instances, b/x in 2 resource instances');
  });

  it('keeps transition times of unchanged statuses, reports nothing when nothing changed, keeps other conditions', () => {
    const t = newTally();
    tallyRemaining(t, 'pods', '', [{ metadata: {} }]);
    const other = { type: 'Custom', status: 'True' };
    const first = nextConditions([other], t, 'T1')!;
    expect(first[0]).to.equal(other);
    expect(nextConditions(first, t, 'T2')).to.equal(undefined);
    const gone = nextConditions(first, newTally(), 'T3')!;
    expect(gone.find((x) => x.type === 'NamespaceContentRemaining')).to.deep.include({ status: 'False', reason: 'ContentRemoved', lastTransitionTime: 'T3' });
    expect(gone.find((x) => x.type === 'NamespaceDeletionDiscoveryFailure')).to.deep.include({ lastTransitionTime: 'T1' });
  });

  it('reports resources whose content could not be deleted', () => {
    const t = newTally();
    t.failures.push('etcd is down');
    expect(nextConditions(undefined, t, 'T')![2]).to.deep.include({ status: 'True', reason: 'ContentDeletionFailed', message: 'Failed to delete all resource types, 1 remaining: etcd is down' });
  });
});
