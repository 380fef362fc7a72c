import { expect } from 'chai';
import type { KindDefinition } from '../../../lib/apis/define.js';
import { componentStatus } from '../../../lib/apis/core/v1/component-status.js';
import { configMap } from '../../../lib/apis/core/v1/config-map.js';
import { DEPRECATED_API_AUDIT_ANNOTATION, REMOVED_RELEASE_AUDIT_ANNOTATION, vendorKey } from '../../../lib/apis/vendor.js';
import { type DeprecatedAPIRequest, markDeprecatedRequest } from '../../../lib/endpoints/deprecated-api.js';
import { type RequestContext, internalContext } from '../../../lib/request/context.js';

/** A request context addressing `group/version/resource[/subresource]`. */
function request(group: string, version: string, resource: string, subresource = ''): RequestContext {
  return internalContext({ name: 'alice', groups: [] }, { apiGroup: group, apiVersion: version, resource, subresource, verb: 'get' });
}

/** Records every call. */
function recorder(): { calls: DeprecatedAPIRequest[]; requestedDeprecatedAPI(r: DeprecatedAPIRequest): void } {
  const calls: DeprecatedAPIRequest[] = [];
  return { calls, requestedDeprecatedAPI: (r) => calls.push(r) };
}

const crdVersion = { ...configMap, group: 'stable.example.com', version: 'v1beta1', deprecationWarning: 'stable.example.com/v1beta1 Widget is deprecated' } as KindDefinition;
const removedKind = { ...componentStatus, removedIn: '1.32' } as KindDefinition;

describe('endpoints/deprecated-api', () => {
  it('the audit annotation keys are the vendor spellings of upstream k8s.io/deprecated and k8s.io/removed-release', () => {
    expect(DEPRECATED_API_AUDIT_ANNOTATION).to.equal(vendorKey('deprecated'));
    expect(REMOVED_RELEASE_AUDIT_ANNOTATION).to.equal(vendorKey('removed-release'));
  });

  it('without a removal release: deprecated annotation only, removed_release ""', () => {
    const req = request('', 'v1', 'componentstatuses');
    const r = recorder();
    markDeprecatedRequest(req, componentStatus, r);
    expect(req.auditAnnotations).to.deep.equal({ [DEPRECATED_API_AUDIT_ANNOTATION]: 'true' });
    expect(r.calls).to.deep.equal([{ group: '', version: 'v1', resource: 'componentstatuses', subresource: '', removedRelease: '' }]);
  });

  it('with a removal release: both annotations, labels as the client addressed the API', () => {
    const req = request('flowcontrol.apiserver.k8s.io', 'v1beta3', 'flowschemas', 'status');
    const r = recorder();
    markDeprecatedRequest(req, removedKind, r);
    expect(req.auditAnnotations).to.deep.equal({ [DEPRECATED_API_AUDIT_ANNOTATION]: 'true', [REMOVED_RELEASE_AUDIT_ANNOTATION]: '1.32' });
    expect(r.calls).to.deep.equal([{ group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'flowschemas', subresource: 'status', removedRelease: '1.32' }]);
  });

  it('without a recorder the annotations are still set', () => {
    const req = request('stable.example.com', 'v1beta1', 'widgets');
    markDeprecatedRequest(req, crdVersion, undefined);
    expect(req.auditAnnotations).to.deep.equal({ [DEPRECATED_API_AUDIT_ANNOTATION]: 'true' });
  });
});
