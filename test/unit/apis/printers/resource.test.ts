/**
 * The printers of the `resource.<vendor>/v1alpha2` and `internal.apiserver.<vendor>/v1alpha1`
 * kinds (upstream v1.30 pkg/printers/internalversion): a claim's State summary in every case,
 * GeneratedFrom with and without a namespace, a StorageVersion's server list.
 */
import { expect } from 'chai';
import { storageVersion } from '../../../../lib/apis/apiserverinternal/v1alpha1/index.js';
import { resourceClaim, resourceClassParameters } from '../../../../lib/apis/resource/v1alpha2/index.js';
import { ago, cellsOf, meta } from './helpers.js';

const allocated = { allocation: {} };

describe('printers: resource.<vendor>/v1alpha2 and StorageVersion', () => {
  const states: Array<[string, Record<string, unknown>, Record<string, unknown>, string]> = [
    ['pending', {}, {}, 'pending'],
    ['allocated', {}, allocated, 'allocated'],
    ['allocated and reserved', {}, { ...allocated, reservedFor: [{ resource: 'pods', name: 'p', uid: 'u' }] }, 'allocated,reserved'],
    ['deallocation requested', {}, { ...allocated, deallocationRequested: true }, 'allocated,deallocating'],
    ['deleted, not allocated', { deletionTimestamp: ago(1) }, {}, 'deleted'],
    ['deleted while allocated', { deletionTimestamp: ago(1) }, allocated, 'deleted,allocated,deallocating'],
    ['deleted while reserved', { deletionTimestamp: ago(1) }, { ...allocated, reservedFor: [{ uid: 'u' }] }, 'deleted,allocated,reserved'],
  ];
  for (const [label, extraMeta, status, state] of states) {
    it(`ResourceClaim state: ${label} → ${state}`, () => {
      const claim = { metadata: meta('c', 60, extraMeta), spec: { resourceClassName: 'gpu', allocationMode: 'Immediate' }, status };
      expect(cellsOf(resourceClaim, claim)).to.deep.equal(['c', 'gpu', 'Immediate', state, '60s']);
    });
  }

  it('GeneratedFrom: <kind>.<group> [<namespace>/]<name>, empty without a source', () => {
    expect(cellsOf(resourceClassParameters, { metadata: meta('p'), generatedFrom: { apiGroup: 'example.com', kind: 'K', name: 'n', namespace: 'ns' } })[1]).to.equal('K.example.com ns/n');
    expect(cellsOf(resourceClassParameters, { metadata: meta('p'), generatedFrom: { kind: 'ConfigMap', name: 'n' } })[1]).to.equal('ConfigMap. n');
    expect(cellsOf(resourceClassParameters, { metadata: meta('p') })[1]).to.equal('');
  });

  it('StorageVersion: up to three servers, then the count of the rest', () => {
    const sv = (n: number) => ({
      metadata: meta('apps.deployments'),
      status: { storageVersions: Array.from({ length: n }, (_, i) => ({ apiServerID: `s${i}`, encodingVersion: 'apps/v1' })) },
    });
    expect(cellsOf(storageVersion, sv(0)).slice(1, 3)).to.deep.equal(['<unset>', '<unset>']);
    expect(cellsOf(storageVersion, sv(3))[2]).to.equal('s0=apps/v1,s1=apps/v1,s2=apps/v1');
    expect(cellsOf(storageVersion, sv(5))[2]).to.equal('s0=apps/v1,s1=apps/v1,s2=apps/v1 + 2 more...');
  });
});
