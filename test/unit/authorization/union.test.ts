import { expect } from 'chai';
import { newForbidden, newForbiddenPath } from '../../../lib/apimachinery/errors.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, Decision, RuleResolver, RulesResult } from '../../../lib/authorization/interface.js';
import { UnionAuthorizer, UnionRuleResolver, aggregateErrors, forbiddenMessage } from '../../../lib/authorization/union.js';

/** Resource attributes for user `u`. */
function resource(over: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  return {
    user: { name: 'u', groups: [] },
    verb: 'list',
    isResourceRequest: true,
    path: '/api/v1/namespaces/ns/pods',
    apiGroup: '',
    apiVersion: 'v1',
    namespace: 'ns',
    resource: 'pods',
    subresource: '',
    name: '',
    ...over,
  };
}

/** An authorizer answering `decision` with `reason`, counting calls. */
function mode(decision: Decision, reason = ''): Authorizer & { calls: number } {
  const m = { calls: 0, authorize: async (): Promise<AuthorizationResult> => (m.calls++, { decision, reason }) };
  return m;
}

describe('authorization/union: modes in order (spec 001 § Authorization)', () => {
  it('the first Allow decides; later modes are not asked', async () => {
    const [a, b, c] = [mode('NoOpinion'), mode('Allow'), mode('Deny')];
    expect(await new UnionAuthorizer([a, b, c]).authorize(resource())).to.deep.equal({ decision: 'Allow', reason: '' });
    expect([a.calls, b.calls, c.calls]).to.deep.equal([1, 1, 0]);
  });

  it('the first Deny decides, with its reason', async () => {
    const [a, b] = [mode('Deny', 'blocked'), mode('Allow')];
    expect(await new UnionAuthorizer([a, b]).authorize(resource())).to.deep.equal({ decision: 'Deny', reason: 'blocked' });
    expect(b.calls).to.equal(0);
  });

  it('all NoOpinion: NoOpinion with the reasons joined by newlines', async () => {
    const res = await new UnionAuthorizer([mode('NoOpinion', 'r1'), mode('NoOpinion'), mode('NoOpinion', 'r2')]).authorize(resource());
    expect(res).to.deep.equal({ decision: 'NoOpinion', reason: 'r1\nr2' });
  });

  it('no modes: NoOpinion (denied by the filter)', async () => {
    expect(await new UnionAuthorizer([]).authorize(resource())).to.deep.equal({ decision: 'NoOpinion', reason: '' });
  });
});

describe('authorization/union: forbidden messages as upstream (spec 001 § Errors 403)', () => {
  const rows: Array<[string, AuthorizationAttributes, string, string]> = [
    ['a namespaced collection', resource(), '', 'User "u" cannot list resource "pods" in API group "" in the namespace "ns"'],
    ['a cluster-scoped collection', resource({ verb: 'list', resource: 'nodes', namespace: '' }), '', 'User "u" cannot list resource "nodes" in API group "" at the cluster scope'],
    ['a named object in a group', resource({ verb: 'get', apiGroup: 'apps', resource: 'deployments', name: 'd' }), '', 'User "u" cannot get resource "deployments" in API group "apps" in the namespace "ns"'],
    ['a subresource', resource({ verb: 'update', resource: 'pods', subresource: 'status', name: 'p' }), '', 'User "u" cannot update resource "pods/status" in API group "" in the namespace "ns"'],
    ['a non-resource path', { ...resource(), isResourceRequest: false, verb: 'get', path: '/x', resource: '', namespace: '' }, '', 'User "u" cannot get path "/x"'],
    ['with a reason', resource(), 'no RBAC policy matched', 'User "u" cannot list resource "pods" in API group "" in the namespace "ns": no RBAC policy matched'],
    ['anonymous', resource({ user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } }), '', 'User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "ns"'],
    ['a user name with quotes', resource({ user: { name: 'a"b', groups: [] } }), '', 'User "a\\"b" cannot list resource "pods" in API group "" in the namespace "ns"'],
  ];
  for (const [what, attrs, reason, message] of rows) {
    it(`${what}: ${message}`, () => {
      expect(forbiddenMessage(attrs, reason)).to.equal(message);
    });
  }

  it('the full 403 of a resource request', () => {
    const a = resource({ verb: 'get', name: 'p' });
    expect(newForbidden({ group: a.apiGroup, resource: a.resource }, a.name, forbiddenMessage(a, '')).status.message).to.equal(
      'pods "p" is forbidden: User "u" cannot get resource "pods" in API group "" in the namespace "ns"',
    );
  });

  it('the full 403 of a collection in a group', () => {
    const a = resource({ verb: 'list', apiGroup: 'apps', resource: 'deployments', namespace: '' });
    expect(newForbidden({ group: a.apiGroup, resource: a.resource }, a.name, forbiddenMessage(a, '')).status.message).to.equal(
      'deployments.apps is forbidden: User "u" cannot list resource "deployments" in API group "apps" at the cluster scope',
    );
  });

  it('the full 403 of a path', () => {
    const a = { ...resource(), isResourceRequest: false, verb: 'get', path: '/metrics' };
    expect(newForbiddenPath(forbiddenMessage(a, '')).status.message).to.equal('forbidden: User "u" cannot get path "/metrics"');
  });
});

describe('authorization/union: evaluation errors (upstream union Authorize)', () => {
  const failing = (decision: Decision, reason: string, evaluationError: string): Authorizer => ({ authorize: async () => ({ decision, reason, evaluationError }) });

  it('all NoOpinion: the errors aggregated as upstream (one as is, several in brackets, duplicates once)', async () => {
    expect(await new UnionAuthorizer([failing('NoOpinion', '', 'e1')]).authorize(resource())).to.deep.equal({ decision: 'NoOpinion', reason: '', evaluationError: 'e1' });
    const several = await new UnionAuthorizer([failing('NoOpinion', 'r1', 'e1'), failing('NoOpinion', '', 'e2'), failing('NoOpinion', '', 'e1')]).authorize(resource());
    expect(several).to.deep.equal({ decision: 'NoOpinion', reason: 'r1', evaluationError: '[e1, e2]' });
  });

  it('a deciding mode answers with its own error only', async () => {
    const res = await new UnionAuthorizer([failing('NoOpinion', '', 'e1'), failing('Allow', 'ok', 'e2')]).authorize(resource());
    expect(res).to.deep.equal({ decision: 'Allow', reason: 'ok', evaluationError: 'e2' });
  });

  it('aggregateErrors: none is undefined', () => {
    expect(aggregateErrors([])).to.equal(undefined);
  });
});

describe('authorization/union: UnionRuleResolver (upstream union RulesFor)', () => {
  const resolver = (r: RulesResult): RuleResolver => ({ rulesFor: async () => r });

  it('concatenates the rules, incomplete when any mode is, errors aggregated', async () => {
    const a = resolver({ resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }], nonResourceRules: [], incomplete: false });
    const b = resolver({ resourceRules: [], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }], incomplete: true, evaluationError: 'cannot list' });
    expect(await new UnionRuleResolver([a, b]).rulesFor({ name: 'u', groups: [] }, 'ns')).to.deep.equal({
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
      incomplete: true,
      evaluationError: 'cannot list',
    });
  });

  it('no modes: nothing, complete', async () => {
    expect(await new UnionRuleResolver([]).rulesFor({ name: 'u', groups: [] }, 'ns')).to.deep.equal({ resourceRules: [], nonResourceRules: [], incomplete: false });
  });
});

describe('authorization/union: forbidden message details as upstream responsewriters.Forbidden', () => {
  it('quotes as Go %q (control characters escaped)', () => {
    expect(forbiddenMessage(resource({ user: { name: 'a\tb', groups: [] } }), '')).to.equal('User "a\\tb" cannot list resource "pods" in API group "" in the namespace "ns"');
  });

  it('escapes &, < and > of the message, not of the reason', () => {
    const a = { ...resource(), isResourceRequest: false, verb: 'get', path: '/<a>&' };
    expect(forbiddenMessage(a, 'r<1>')).to.equal('User "u" cannot get path "/&lt;a&gt;&amp;": r<1>');
  });

  it('names the group as the client spelled it when given', () => {
    const a = resource({ apiGroup: 'rbac.authorization.orch.io', resource: 'roles' });
    expect(forbiddenMessage(a, '', 'rbac.authorization.k8s.io')).to.equal('User "u" cannot list resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "ns"');
  });

  it('joins the reasons of several modes with newlines after the colon', () => {
    expect(forbiddenMessage(resource(), 'r1\nr2')).to.equal('User "u" cannot list resource "pods" in API group "" in the namespace "ns": r1\nr2');
  });
});
