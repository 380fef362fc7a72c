import { expect } from 'chai';
import {
  accessQuery,
  type BindingObject,
  type PolicyRule,
  type RbacObjects,
  reviewSpec,
  ruleMatches,
  whoCan,
} from '../../../console/src/views/access/who-can.js';

const getCM = accessQuery('get', '', 'configmaps', 'cm1', 'team-a');

describe('console/who-can: rule matching (issue #22 § Who may; RBAC wildcards)', () => {
  const rows: Array<[string, PolicyRule, boolean]> = [
    ['exact verb, group, resource', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }, true],
    ['wildcard verb', { verbs: ['*'], apiGroups: [''], resources: ['configmaps'] }, true],
    ['wildcard group', { verbs: ['get'], apiGroups: ['*'], resources: ['configmaps'] }, true],
    ['wildcard resource', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, true],
    ['other verb', { verbs: ['list'], apiGroups: [''], resources: ['configmaps'] }, false],
    ['other group', { verbs: ['get'], apiGroups: ['apps'], resources: ['configmaps'] }, false],
    ['other resource', { verbs: ['get'], apiGroups: [''], resources: ['secrets'] }, false],
    ['a subresource only', { verbs: ['get'], apiGroups: [''], resources: ['configmaps/status'] }, false],
    ['resourceNames naming it', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cm1'] }, true],
    ['resourceNames naming another', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cm2'] }, false],
    ['no verbs', { apiGroups: [''], resources: ['configmaps'] }, false],
    ['a non-resource rule', { verbs: ['get'], nonResourceURLs: ['*'] }, false],
  ];
  for (const [name, rule, want] of rows) {
    it(`get configmaps/cm1: ${name} → ${want}`, () => expect(ruleMatches(rule, getCM)).to.equal(want));
  }

  it('resourceNames never match a verb on the collection (list has no name)', () => {
    const q = accessQuery('list', '', 'configmaps', 'cm1', 'team-a');
    expect(q.name).to.equal(undefined);
    expect(ruleMatches({ verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cm1'] }, q)).to.equal(false);
    expect(ruleMatches({ verbs: ['list'], apiGroups: [''], resources: ['configmaps'] }, q)).to.equal(true);
  });

  it('matches a subresource by its full name and by */sub', () => {
    const q = { ...getCM, resource: 'pods', subresource: 'log' };
    expect(ruleMatches({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, q)).to.equal(true);
    expect(ruleMatches({ verbs: ['get'], apiGroups: [''], resources: ['*/log'] }, q)).to.equal(true);
    expect(ruleMatches({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, q)).to.equal(false);
  });
});

describe('console/who-can: subjects from bindings (issue #22 § Who may)', () => {
  const reader: PolicyRule[] = [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }];
  const rb = (ns: string, name: string, roleKind: string, role: string, subjects: BindingObject['subjects']): BindingObject => ({
    metadata: { name, namespace: ns },
    roleRef: { kind: roleKind, name: role },
    subjects,
  });
  const rbac: RbacObjects = {
    clusterRoles: [
      { metadata: { name: 'cm-reader' }, rules: reader },
      { metadata: { name: 'nothing' }, rules: null },
      { metadata: { name: 'admin-all' }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] },
    ],
    roles: [
      { metadata: { name: 'reader', namespace: 'team-a' }, rules: reader },
      { metadata: { name: 'reader', namespace: 'team-b' }, rules: [] },
    ],
    clusterRoleBindings: [
      { metadata: { name: 'admins' }, roleRef: { kind: 'ClusterRole', name: 'admin-all' }, subjects: [{ kind: 'Group', name: 'admins' }] },
      { metadata: { name: 'nobody' }, roleRef: { kind: 'ClusterRole', name: 'nothing' }, subjects: [{ kind: 'User', name: 'mallory' }] },
    ],
    roleBindings: [
      rb('team-a', 'alice-reads', 'Role', 'reader', [{ kind: 'User', name: 'alice' }]),
      rb('team-a', 'sa-reads', 'ClusterRole', 'cm-reader', [{ kind: 'ServiceAccount', name: 'bot' }, { kind: 'User', name: 'alice' }]),
      rb('team-b', 'bob-reads', 'ClusterRole', 'cm-reader', [{ kind: 'User', name: 'bob' }]),
      rb('team-a', 'dangling', 'Role', 'missing', [{ kind: 'User', name: 'carol' }]),
    ],
  };

  it('lists users, groups and service accounts bound to a matching role, once each, with every binding', () => {
    const got = whoCan(rbac, getCM);
    expect(got.map((c) => `${c.kind}:${c.namespace ?? ''}:${c.name}`)).to.deep.equal(['User::alice', 'Group::admins', 'ServiceAccount:team-a:bot']);
    expect(got[0]!.via).to.deep.equal(['RoleBinding team-a/alice-reads → Role reader', 'RoleBinding team-a/sa-reads → ClusterRole cm-reader']);
    expect(got[1]!.via).to.deep.equal(['ClusterRoleBinding admins → ClusterRole admin-all']);
  });

  it('leaves out bindings of other namespaces, roles without a matching rule and missing roles', () => {
    const names = whoCan(rbac, getCM).map((c) => c.name);
    expect(names).to.not.include.members(['bob', 'mallory', 'carol']);
  });

  it('uses only ClusterRoleBindings for a cluster-scoped object', () => {
    const got = whoCan(rbac, accessQuery('get', '', 'configmaps', 'cm1'));
    expect(got.map((c) => c.name)).to.deep.equal(['admins']);
  });

  it('finds nobody when no rule matches the verb', () => {
    const onlyBindings = { ...rbac, clusterRoleBindings: [] };
    expect(whoCan(onlyBindings, accessQuery('delete', '', 'configmaps', 'cm1', 'team-a'))).to.deep.equal([]);
  });
});

describe('console/who-can: the SubjectAccessReview of a candidate (issue #22 § Who may)', () => {
  it('asks for a user by name, a group by groups, a service account by its user name', () => {
    const attrs = { verb: 'get', group: '', resource: 'configmaps', name: 'cm1', namespace: 'team-a' };
    expect(reviewSpec({ kind: 'User', name: 'alice', via: [] }, getCM)).to.deep.equal({ user: 'alice', resourceAttributes: attrs });
    expect(reviewSpec({ kind: 'Group', name: 'devs', via: [] }, getCM)).to.deep.equal({ groups: ['devs'], resourceAttributes: attrs });
    expect(reviewSpec({ kind: 'ServiceAccount', name: 'bot', namespace: 'team-a', via: [] }, getCM)).to.deep.equal({
      user: 'system:serviceaccount:team-a:bot',
      resourceAttributes: attrs,
    });
  });

  it('leaves out the name for a verb on the collection and the namespace for a cluster-scoped object', () => {
    expect(reviewSpec({ kind: 'User', name: 'alice', via: [] }, accessQuery('list', '', 'nodes', 'n1'))).to.deep.equal({
      user: 'alice',
      resourceAttributes: { verb: 'list', group: '', resource: 'nodes' },
    });
  });
});
