import { expect } from 'chai';
import { upstreamAlias, vendorGroup } from '../../../../lib/apis/vendor.js';
import type { AuthorizationAttributes } from '../../../../lib/authorization/interface.js';
import { compileRule, type PolicyRule, policyRuleOf, ruleAllows } from '../../../../lib/authorization/rbac/rules.js';

const RBAC = vendorGroup('rbac.authorization');
const RBAC_UPSTREAM = upstreamAlias(RBAC)!;

const user = { name: 'u', groups: [] };
function res(verb: string, apiGroup: string, resource: string, extra: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  return { user, verb, isResourceRequest: true, path: '', apiGroup, apiVersion: 'v1', namespace: 'ns', resource, subresource: '', name: '', ...extra };
}
function nonRes(verb: string, path: string): AuthorizationAttributes {
  return { user, verb, isResourceRequest: false, path, apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' };
}

const pods: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };

// One row: rule, request, expected decision (upstream RuleAllows, spec 001 § RBAC mode).
const CASES: [string, PolicyRule, AuthorizationAttributes, boolean][] = [
  ['exact verb, group and resource', pods, res('get', '', 'pods'), true],
  ['other verb', pods, res('delete', '', 'pods'), false],
  ['other group', pods, res('get', 'apps', 'pods'), false],
  ['other resource', pods, res('get', '', 'secrets'), false],
  ['verb *', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, res('deletecollection', '', 'pods'), true],
  ['apiGroups *', { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, res('get', 'apps', 'deployments'), true],
  ['resources *', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res('get', '', 'secrets'), true],
  ['resources * covers subresources', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res('get', '', 'pods', { subresource: 'log', name: 'p' }), true],
  ['resource without subresource does not cover it', pods, res('get', '', 'pods', { subresource: 'log', name: 'p' }), false],
  ['resource/subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res('get', '', 'pods', { subresource: 'log', name: 'p' }), true],
  ['resource/subresource is not the resource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res('get', '', 'pods', { name: 'p' }), false],
  ['*/subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }, res('update', 'apps', 'deployments', { subresource: 'status', name: 'd' }), true],
  ['*/subresource is not another subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }, res('update', '', 'pods', { subresource: 'log', name: 'p' }), false],
  ['*/subresource is not the main resource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }, res('update', '', 'pods', { name: 'p' }), false],
  ['resource/* is no wildcard upstream', { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }, res('get', '', 'pods', { subresource: 'log', name: 'p' }), false],
  ['resourceNames with the name', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('get', '', 'configmaps', { name: 'a' }), true],
  ['resourceNames with another name', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('get', '', 'configmaps', { name: 'b' }), false],
  ['resourceNames do not allow list', { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('list', '', 'configmaps'), false],
  ['resourceNames allow list narrowed by a metadata.name field selector', { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('list', '', 'configmaps', { name: 'a' }), true],
  ['resourceNames do not allow create (no name)', { verbs: ['create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('create', '', 'configmaps'), false],
  ['resourceNames do not allow deletecollection', { verbs: ['deletecollection'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('deletecollection', '', 'configmaps'), false],
  ['empty resourceNames: every name', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: [] }, res('get', '', 'configmaps', { name: 'z' }), true],
  ['upstream group spelling in the rule, vendor in the request', { verbs: ['get'], apiGroups: [RBAC_UPSTREAM], resources: ['roles'] }, res('get', RBAC, 'roles'), true],
  ['vendor group spelling in the rule, upstream in the request', { verbs: ['get'], apiGroups: [RBAC], resources: ['roles'] }, res('get', RBAC_UPSTREAM, 'roles'), true],
  ['resource rule does not match a path', pods, nonRes('get', '/api'), false],
  ['nonResourceURL exact', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, nonRes('get', '/healthz'), true],
  ['nonResourceURL exact is not a prefix', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, nonRes('get', '/healthz/etcd'), false],
  ['nonResourceURL trailing *', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, nonRes('get', '/healthz/etcd'), true],
  ['nonResourceURL trailing * is a plain prefix', { verbs: ['get'], nonResourceURLs: ['/api*'] }, nonRes('get', '/apis/apps'), true],
  ['nonResourceURL trailing * needs the prefix', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, nonRes('get', '/healthz'), false],
  ['nonResourceURL *', { verbs: ['get'], nonResourceURLs: ['*'] }, nonRes('get', '/anything'), true],
  ['nonResourceURL with another verb', { verbs: ['get'], nonResourceURLs: ['*'] }, nonRes('post', '/anything'), false],
  ['nonResourceURL rule does not match resources', { verbs: ['*'], nonResourceURLs: ['*'] }, res('get', '', 'pods'), false],
];

describe('RBAC rule matching (spec 001 § RBAC mode; upstream RuleAllows)', () => {
  for (const [name, rule, attrs, want] of CASES) {
    it(`${want ? 'allows' : 'does not allow'}: ${name}`, () => {
      expect(ruleAllows(attrs, compileRule(rule))).to.equal(want);
    });
  }

  it('reads a stored rule, ignoring anything that is not a list of strings', () => {
    expect(policyRuleOf({ verbs: ['get', 3], apiGroups: 'x', resources: ['pods'] })).to.deep.equal({
      verbs: ['get'],
      apiGroups: [],
      resources: ['pods'],
      resourceNames: [],
      nonResourceURLs: [],
    });
  });
});
