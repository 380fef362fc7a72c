import { expect } from 'chai';
import { fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import { API_APPROVED_ANNOTATION, UPSTREAM_API_APPROVED_ANNOTATION, VENDOR_DOMAIN } from '../../../../lib/apis/vendor.js';
import type { CustomResourceDefinition } from '../../../../lib/apiextensions/types.js';
import { isProtectedGroup, validateAPIApproval } from '../../../../lib/apiextensions/validation/api-approval.js';

const crd = (group: string, annotations?: Record<string, string>): CustomResourceDefinition => ({
  metadata: { name: `things.${group}`, ...(annotations ? { annotations } : {}) },
  spec: { group, scope: 'Namespaced', names: { plural: 'things', kind: 'Thing' }, versions: [{ name: 'v1', served: true, storage: true }] },
});

const messages = (c: CustomResourceDefinition, old?: CustomResourceDefinition) => validateAPIApproval(c, old).map(fieldErrorString);
const PATH = `metadata.annotations[${API_APPROVED_ANNOTATION}]`;
const MISSING = `${PATH}: Required value: protected groups must have approval annotation "${API_APPROVED_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`;

describe('API approval of CRDs in protected groups (upstream validateAPIApproval; issue #14)', () => {
  it('protects the vendor domain and the upstream ones, and the groups below them', () => {
    for (const g of [VENDOR_DOMAIN, `networking.${VENDOR_DOMAIN}`, 'k8s.io', 'gateway.networking.k8s.io', 'kubernetes.io', 'x.kubernetes.io']) expect(isProtectedGroup(g), g).to.equal(true);
    for (const g of ['example.com', `x${VENDOR_DOMAIN}`, 'k8s.io.example.com', 'notk8s.io']) expect(isProtectedGroup(g), g).to.equal(false);
  });

  it('requires the annotation on create in a protected group, and nothing elsewhere', () => {
    expect(messages(crd(`widgets.${VENDOR_DOMAIN}`))).to.deep.equal([MISSING]);
    expect(messages(crd('stable.example.com'))).to.deep.equal([]);
  });

  it('accepts a URL or a reason starting with "unapproved", in the vendor or the upstream spelling', () => {
    expect(messages(crd('gateway.networking.k8s.io', { [UPSTREAM_API_APPROVED_ANNOTATION]: 'https://github.com/kubernetes/enhancements/pull/1111' }))).to.deep.equal([]);
    expect(messages(crd(`a.${VENDOR_DOMAIN}`, { [API_APPROVED_ANNOTATION]: 'unapproved, experimental' }))).to.deep.equal([]);
  });

  it('refuses another value as invalid', () => {
    expect(messages(crd(`a.${VENDOR_DOMAIN}`, { [API_APPROVED_ANNOTATION]: 'bad value' }))).to.deep.equal([
      `${PATH}: Invalid value: "bad value": protected groups must have approval annotation "${API_APPROVED_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
    ]);
  });

  it('never refuses an update that keeps the approval state; refuses one that loses a valid approval', () => {
    const bad = crd(`a.${VENDOR_DOMAIN}`, { [API_APPROVED_ANNOTATION]: 'bad value' });
    expect(messages(bad, crd(`a.${VENDOR_DOMAIN}`, { [API_APPROVED_ANNOTATION]: 'other bad value' }))).to.deep.equal([]);
    expect(messages(crd(`a.${VENDOR_DOMAIN}`), crd(`a.${VENDOR_DOMAIN}`))).to.deep.equal([]);
    expect(messages(crd(`a.${VENDOR_DOMAIN}`), crd(`a.${VENDOR_DOMAIN}`, { [API_APPROVED_ANNOTATION]: 'https://example.com/approval' }))).to.deep.equal([MISSING]);
  });
});
