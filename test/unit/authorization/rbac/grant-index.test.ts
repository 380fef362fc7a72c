import { expect } from 'chai';
import { vendorGroup } from '../../../../lib/apis/vendor.js';
import type { AuthorizationAttributes } from '../../../../lib/authorization/interface.js';
import { RBACAuthorizer } from '../../../../lib/authorization/rbac/authorizer.js';
import { GrantIndexCache } from '../../../../lib/authorization/rbac/grant-index.js';
import { RbacPolicyCache, type RbacInformers } from '../../../../lib/authorization/rbac/policy-cache.js';
import { ruleRequestOf } from '../../../../lib/authorization/rbac/rules.js';
import type { Informer, InformerHandler } from '../../../../lib/client/informer.js';
import type { UserInfo } from '../../../../lib/request/user.js';

const RBAC = vendorGroup('rbac.authorization');

/** An informer stand-in: the cache only registers handlers; the test delivers events. */
function feed(): { informer: Informer; emit: InformerHandler } {
  const handlers: InformerHandler[] = [];
  const informer = { addHandler: (h: InformerHandler) => handlers.push(h), waitForSync: async () => undefined } as unknown as Informer;
  return { informer, emit: (type, obj) => handlers.forEach((h) => h(type, obj)) };
}

function policy() {
  const f = { roles: feed(), clusterRoles: feed(), roleBindings: feed(), clusterRoleBindings: feed() };
  const informers: RbacInformers = { roles: f.roles.informer, clusterRoles: f.clusterRoles.informer, roleBindings: f.roleBindings.informer, clusterRoleBindings: f.clusterRoleBindings.informer };
  const cache = new RbacPolicyCache(informers);
  const clusterRole = (name: string, rules: object[]) => f.clusterRoles.emit('ADDED', { metadata: { name }, rules } as never);
  const user = (name: string) => [{ kind: 'User', apiGroup: RBAC, name }];
  const crb = (name: string, role: string, subjects: object[], type: 'ADDED' | 'DELETED' = 'ADDED') =>
    f.clusterRoleBindings.emit(type, { metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role }, subjects } as never);
  const rb = (ns: string, name: string, role: string, subjects: object[]) =>
    f.roleBindings.emit('ADDED', { metadata: { namespace: ns, name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role }, subjects } as never);
  const authorizer = new RBACAuthorizer(cache);
  /**
   * Decides `a` three times — by walking (first sight), by building the index, from the index —
   * and expects one answer.
   */
  const authorize = async (a: AuthorizationAttributes) => {
    const answers = [await authorizer.authorize(a), await authorizer.authorize(a), await authorizer.authorize(a)];
    expect(answers[1], 'index built').to.deep.equal(answers[0]);
    expect(answers[2], 'index kept').to.deep.equal(answers[0]);
    return answers[0]!;
  };
  return { cache, clusterRole, crb, rb, user, authorize, authorizer };
}

const alice: UserInfo = { name: 'alice', groups: ['devs', 'system:authenticated'] };
function attrs(verb: string, resource: string, extra: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  return { user: alice, verb, isResourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource, subresource: '', name: '', ...extra };
}

describe('RBAC grant indexes (spec 001 § RBAC mode; issue #11 decision latency)', () => {
  it('names the grant upstream\'s walk stops at: the earliest allowing rule over every bucket', async () => {
    const p = policy();
    p.clusterRole('any-verb-any-resource', [{ verbs: ['*'], apiGroups: [''], resources: ['*'] }]);
    p.clusterRole('get-pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    p.rb('ns', 'a-exact', 'get-pods', p.user('alice'));
    p.crb('z-wildcard', 'any-verb-any-resource', [{ kind: 'Group', apiGroup: RBAC, name: 'devs' }]);
    // Cluster bindings are visited before RoleBindings, so the wildcard grant decides.
    const got = await p.authorize(attrs('get', 'pods'));
    expect(got).to.deep.equal({ decision: 'Allow', reason: 'RBAC: allowed by ClusterRoleBinding "z-wildcard" of ClusterRole "any-verb-any-resource" to Group "devs"' });
  });

  it('finds rules by verb for all resources, by resource for all verbs, subresource wildcards and non-resource URLs', async () => {
    const p = policy();
    p.clusterRole('r', [
      { verbs: ['list'], apiGroups: ['apps'], resources: ['*'] },
      { verbs: ['*'], apiGroups: [''], resources: ['configmaps'] },
      { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] },
      { verbs: ['get'], nonResourceURLs: ['/healthz', '/logs/*'] },
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1', 's2'] },
      { verbs: ['*'], apiGroups: [''], resources: ['pods'], resourceNames: ['p1'] },
    ]);
    p.crb('b', 'r', p.user('alice'));
    const allowed = async (a: AuthorizationAttributes) => (await p.authorize(a)).decision;
    expect(await allowed(attrs('list', 'deployments', { apiGroup: 'apps' }))).to.equal('Allow');
    expect(await allowed(attrs('list', 'deployments'))).to.equal('NoOpinion');
    expect(await allowed(attrs('deletecollection', 'configmaps'))).to.equal('Allow');
    expect(await allowed(attrs('update', 'deployments', { apiGroup: 'apps', subresource: 'scale', name: 'd' }))).to.equal('Allow');
    expect(await allowed(attrs('update', 'deployments', { apiGroup: 'apps', name: 'd' }))).to.equal('NoOpinion');
    expect(await allowed(attrs('get', 'secrets', { name: 's2' }))).to.equal('Allow');
    expect(await allowed(attrs('get', 'secrets', { name: 's3' }))).to.equal('NoOpinion');
    expect(await allowed(attrs('list', 'secrets'))).to.equal('NoOpinion');
    expect(await allowed(attrs('delete', 'pods', { name: 'p1' }))).to.equal('Allow');
    expect(await allowed(attrs('delete', 'pods', { name: 'p2' }))).to.equal('NoOpinion');
    const nonRes = (path: string) => attrs('get', '', { isResourceRequest: false, path, namespace: '' });
    expect(await allowed(nonRes('/logs/a/b'))).to.equal('Allow');
    expect(await allowed(nonRes('/healthz'))).to.equal('Allow');
    expect(await allowed(nonRes('/metrics'))).to.equal('NoOpinion');
  });

  it('applies a grant and a revocation with the event that carries it', async () => {
    const p = policy();
    p.clusterRole('get-pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    expect((await p.authorize(attrs('get', 'pods'))).decision).to.equal('NoOpinion');
    p.crb('b', 'get-pods', p.user('alice'));
    expect((await p.authorize(attrs('get', 'pods'))).decision).to.equal('Allow');
    p.clusterRole('get-pods', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
    expect((await p.authorize(attrs('get', 'pods'))).decision).to.equal('NoOpinion');
    expect((await p.authorize(attrs('list', 'pods'))).decision).to.equal('Allow');
    p.crb('b', 'get-pods', p.user('alice'), 'DELETED');
    expect((await p.authorize(attrs('list', 'pods'))).decision).to.equal('NoOpinion');
  });

  it('reports bindings to missing roles only when nothing allows', async () => {
    const p = policy();
    p.clusterRole('get-pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    p.crb('a-missing', 'nope', p.user('alice'));
    p.crb('b-ok', 'get-pods', p.user('alice'));
    expect(await p.authorize(attrs('get', 'pods'))).to.deep.equal({ decision: 'Allow', reason: 'RBAC: allowed by ClusterRoleBinding "b-ok" of ClusterRole "get-pods" to User "alice"' });
    const denied = await p.authorize(attrs('delete', 'pods'));
    expect(denied.decision).to.equal('NoOpinion');
    expect(denied.reason).to.equal(`RBAC: clusterrole.${RBAC} "nope" not found`);
  });

  it('indexes a subject on its second decision, keeps it per namespace, evicts the least recently used', () => {
    const p = policy();
    p.clusterRole('r', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'secrets'] }]);
    for (const u of ['a', 'b', 'c']) p.crb(u, 'r', p.user(u));
    const grants = new GrantIndexCache(p.cache, { maxEntries: 2 });
    const decide = (name: string, ns = 'ns') => grants.decide({ name, groups: [] }, ns, ruleRequestOf(attrs('get', 'pods', { namespace: ns })));
    expect(decide('a').grant?.binding.name).to.equal('a');
    expect(grants.stats()).to.deep.equal({ entries: 1, rules: 0 });
    expect(decide('a').grant?.binding.name).to.equal('a');
    expect(grants.stats()).to.deep.equal({ entries: 1, rules: 4 });
    decide('a', 'other');
    decide('a', 'other');
    expect(grants.stats()).to.deep.equal({ entries: 2, rules: 8 });
    decide('a');
    decide('b');
    expect(grants.stats(), 'a in ns kept, a in other evicted').to.deep.equal({ entries: 2, rules: 4 });
    p.clusterRole('unrelated', []);
    decide('c');
    expect(grants.stats(), 'a policy change drops every entry').to.deep.equal({ entries: 1, rules: 0 });
    const small = new GrantIndexCache(p.cache, { maxRules: 5 });
    const decideSmall = (name: string) => small.decide({ name, groups: [] }, 'ns', ruleRequestOf(attrs('get', 'pods')));
    for (const u of ['a', 'a', 'b', 'b']) decideSmall(u);
    expect(small.stats()).to.deep.equal({ entries: 1, rules: 4 });
  });
});

describe('RBAC rule resolution (SelfSubjectRulesReview; upstream RBACAuthorizer.RulesFor)', () => {
  it('lists the rules held and reports unresolvable roles as the evaluation error, not as incomplete', async () => {
    const p = policy();
    p.clusterRole('get-pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }]);
    p.crb('a', 'get-pods', p.user('alice'));
    p.crb('b', 'nope', p.user('alice'));
    expect(await p.authorizer.rulesFor(alice, 'ns')).to.deep.equal({
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      incomplete: false,
      evaluationError: `clusterrole.${RBAC} "nope" not found`,
    });
  });
});
