import { expect } from 'chai';
import { compareKubeAwareVersions } from '../../../lib/apimachinery/kube-version.js';

describe('compareKubeAwareVersions (discovery order of custom resource versions)', () => {
  it('orders GA, then beta, then alpha, then other names alphabetically', () => {
    const versions = ['foo1', 'v1alpha1', 'v10', 'v1', 'v2beta1', 'v11alpha2', 'v1beta2', 'v12alpha1', 'foo10', 'v1beta1', 'v2', 'v12'];
    expect([...versions].sort(compareKubeAwareVersions)).to.deep.equal(['v12', 'v10', 'v2', 'v1', 'v2beta1', 'v1beta2', 'v1beta1', 'v12alpha1', 'v11alpha2', 'v1alpha1', 'foo1', 'foo10']);
  });

  it('treats names not of the kube form (v0, leading zeros) as other names', () => {
    expect(compareKubeAwareVersions('v0', 'v1')).to.be.greaterThan(0);
    expect(compareKubeAwareVersions('v01', 'v1alpha1')).to.be.greaterThan(0);
    expect(compareKubeAwareVersions('v1', 'v1')).to.equal(0);
  });
});
