import { expect } from 'chai';
import { defaultPolicy, type DefaultBinding, type DefaultRole, type PolicyRule } from '../../../../../lib/apis/rbac/bootstrap-policy/index.js';
import {
  AGGREGATION,
  CLUSTER_ROLE_BINDINGS,
  CLUSTER_ROLES,
  CONTROLLER_ROLES,
  NAMESPACE_ROLE_BINDINGS,
  NAMESPACE_ROLES,
} from '../../../../fixtures/rbac-default-policy/upstream-v1.30.js';

/** A rule in the fixture's notation. */
function ruleString(r: PolicyRule): string {
  return [r.verbs, r.apiGroups, r.resources, r.resourceNames, r.nonResourceURLs].map((l) => (l ?? []).join(',')).join('|');
}

function subjectString(s: NonNullable<DefaultBinding['subjects']>[number]): string {
  return s.kind === 'ServiceAccount' ? `ServiceAccount:${s.namespace}/${s.name}` : `${s.kind}:${s.name}`;
}

const policy = defaultPolicy();
const keyOf = (o: { metadata: { name: string; namespace?: string } }) => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name);
const byKey = <T extends { metadata: { name: string; namespace?: string } }>(list: T[]) => new Map(list.map((o) => [keyOf(o), o]));

const expectedClusterRoles: Record<string, string[]> = {
  ...CLUSTER_ROLES,
  ...Object.fromEntries(Object.entries(CONTROLLER_ROLES).map(([n, rules]) => [`system:controller:${n}`, rules])),
};
const expectedClusterRoleBindings: Record<string, string[]> = {
  ...CLUSTER_ROLE_BINDINGS,
  ...Object.fromEntries(Object.keys(CONTROLLER_ROLES).map((n) => [`system:controller:${n}`, [`ServiceAccount:orch-system/${n}`]])),
};

function expectDefaultMeta(o: DefaultRole | DefaultBinding): void {
  expect(o.metadata.labels).to.have.property('orch.io/bootstrapping', 'rbac-defaults');
  expect(o.metadata.annotations).to.deep.equal({ 'rbac.authorization.orch.io/autoupdate': 'true' });
}

describe('default RBAC policy = upstream v1.30 (spec 001 § RBAC mode)', () => {
  describe('ClusterRoles', () => {
    const ours = byKey(policy.clusterRoles);
    it('has exactly upstream\'s set of names', () => {
      expect([...ours.keys()].sort()).to.deep.equal(Object.keys(expectedClusterRoles).sort());
    });
    for (const [name, rules] of Object.entries(expectedClusterRoles)) {
      it(`${name}: rule by rule, with the default label and annotation`, () => {
        const role = ours.get(name);
        expect(role, name).to.not.equal(undefined);
        expect(role!.rules.map(ruleString)).to.deep.equal(rules);
        expectDefaultMeta(role!);
      });
    }
    for (const [name, { from, into }] of Object.entries(AGGREGATION)) {
      it(`${name}: aggregation rule and aggregation labels`, () => {
        const role = ours.get(name)!;
        const selectors = role.aggregationRule?.clusterRoleSelectors ?? [];
        expect(selectors).to.deep.equal(from ? [{ matchLabels: { [`rbac.authorization.orch.io/aggregate-to-${from}`]: 'true' } }] : []);
        const labels = Object.keys(role.metadata.labels).filter((k) => k.startsWith('rbac.authorization.orch.io/aggregate-to-'));
        expect(labels).to.deep.equal(into.map((t) => `rbac.authorization.orch.io/aggregate-to-${t}`));
      });
    }
    it('edit and admin grant no write on endpoints or endpointslices (since v1.22)', () => {
      const writes = ['create', 'update', 'patch', 'delete', 'deletecollection'];
      for (const name of ['system:aggregate-to-edit', 'system:aggregate-to-admin']) {
        for (const r of ours.get(name)!.rules) {
          if (!r.verbs.some((v) => writes.includes(v))) continue;
          expect(r.resources ?? [], name).to.not.include.members(['endpoints']);
          expect(r.resources ?? [], name).to.not.include.members(['endpointslices']);
        }
      }
    });
  });

  describe('ClusterRoleBindings', () => {
    const ours = byKey(policy.clusterRoleBindings);
    it('has exactly upstream\'s set of names', () => {
      expect([...ours.keys()].sort()).to.deep.equal(Object.keys(expectedClusterRoleBindings).sort());
    });
    for (const [name, subjects] of Object.entries(expectedClusterRoleBindings)) {
      it(`${name}: roleRef and subjects`, () => {
        const b = ours.get(name)!;
        expect(b.roleRef).to.deep.equal({ apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name });
        expect((b.subjects ?? []).map(subjectString)).to.deep.equal(subjects);
        expectDefaultMeta(b);
      });
    }
    it('User and Group subjects carry the RBAC group, ServiceAccounts none', () => {
      for (const b of policy.clusterRoleBindings) {
        for (const s of b.subjects ?? []) expect(s.apiGroup).to.equal(s.kind === 'ServiceAccount' ? undefined : 'rbac.authorization.orch.io');
      }
    });
  });

  describe('Roles and RoleBindings of orch-system and orch-public', () => {
    const roles = byKey(policy.roles);
    const bindings = byKey(policy.roleBindings);
    it('has exactly upstream\'s roles and bindings', () => {
      expect([...roles.keys()].sort()).to.deep.equal(Object.keys(NAMESPACE_ROLES).sort());
      expect([...bindings.keys()].sort()).to.deep.equal(Object.keys(NAMESPACE_ROLE_BINDINGS).sort());
    });
    for (const [key, rules] of Object.entries(NAMESPACE_ROLES)) {
      it(`Role ${key}`, () => {
        expect(roles.get(key)!.rules.map(ruleString)).to.deep.equal(rules);
        expectDefaultMeta(roles.get(key)!);
      });
    }
    for (const [key, [role, ...subjects]] of Object.entries(NAMESPACE_ROLE_BINDINGS)) {
      it(`RoleBinding ${key}`, () => {
        const b = bindings.get(key)!;
        expect(b.roleRef).to.deep.equal({ apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: role });
        expect((b.subjects ?? []).map(subjectString)).to.deep.equal(subjects);
        expectDefaultMeta(b);
      });
    }
  });
});
