import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { clusterRole, RBAC_GROUP, rbacV1Kinds, role } from '../../../../../lib/apis/rbac/v1/index.js';
import { vendorGroup } from '../../../../../lib/apis/vendor.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, variant } from '../../kind-pipeline.js';

const minimalRole = (): Obj => ({
  apiVersion: role.apiVersion,
  kind: 'Role',
  metadata: { name: 'pod-reader', namespace: 'default' },
  rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
});
const minimalClusterRole = (): Obj => ({
  apiVersion: clusterRole.apiVersion,
  kind: 'ClusterRole',
  metadata: { name: 'system:monitoring' },
  rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
});
const rule = (o: Obj): Obj => (o.rules as Obj[])[0]!;

describe('rbac/v1 Role and ClusterRole (issue #2 item 5; spec 001 § RBAC mode)', () => {
  it('declares the upstream discovery facts in the vendor RBAC group', () => {
    expect(RBAC_GROUP).to.equal(vendorGroup('rbac.authorization'));
    expect(role).to.include({ group: RBAC_GROUP, version: 'v1', resource: 'roles', singular: 'role', namespaced: true, nameRule: 'pathSegment', statusSubresource: false });
    expect(clusterRole).to.include({ group: RBAC_GROUP, resource: 'clusterroles', singular: 'clusterrole', namespaced: false, nameRule: 'pathSegment' });
    expect(role.schema.id).to.equal('api.rbac.v1.Role');
    expect(rbacV1Kinds.map((k) => k.kind)).to.deep.equal(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);
  });

  it('decodes minimal roles with no defaults and validates them clean', () => {
    for (const [kind, obj] of [[role, minimalRole()], [clusterRole, minimalClusterRole()]] as const) {
      const before = structuredClone(obj);
      expect(decodeAndDefault(kind, obj)).to.deep.equal({ unknownFields: [] });
      expect(obj).to.deep.equal(before);
      expect(validateCreate(kind, obj)).to.deep.equal([]);
    }
  });

  it('decodes the complete fixtures with every field and no unknown field', () => {
    const complete = (name: string, apiVersion: string): Obj => ({ apiVersion, ...fixture(name) });
    expect(decodeAndDefault(role, complete('role', role.apiVersion))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(role.schema, complete('role', role.apiVersion))).to.deep.equal([]);
    expect(decodeAndDefault(clusterRole, complete('cluster-role', clusterRole.apiVersion))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(clusterRole.schema, complete('cluster-role', clusterRole.apiVersion), ['metadata.namespace'])).to.deep.equal([]);
  });

  const roleCases: Array<[string, (o: Obj) => void, string[]]> = [
    ['names are path segments', (o) => ((o.metadata as Obj).name = 'a/b'), ["metadata.name: Invalid value: \"a/b\": may not contain '/'"]],
    ['names may contain colons and capitals', (o) => ((o.metadata as Obj).name = 'system:Reader'), []],
    ['rules need verbs', (o) => (rule(o).verbs = []), ['rules[0].verbs: Required value: verbs must contain at least one value']],
    ['verbs are required', (o) => delete rule(o).verbs, ['rules[0].verbs: Required value']],
    ['resource rules need apiGroups and resources', (o) => (o.rules = [{ verbs: ['get'] }]), [
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]],
    ['resourceNames apply to a single resource', (o) => {
      rule(o).resources = ['pods', 'services'];
      rule(o).resourceNames = ['web'];
    }, ['rules[0].resourceNames: Required value: resource names cannot apply to multiple resources']],
    ['namespaced roles cannot use nonResourceURLs', (o) => (o.rules = [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]), [
      'rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
    ]],
  ];
  for (const [name, mutate, expected] of roleCases) {
    it(`Role validation: ${name}`, () => {
      const r = variant(minimalRole(), mutate);
      decodeAndDefault(role, r);
      expect(messages(validateCreate(role, r))).to.deep.equal(expected);
    });
  }

  const clusterRoleCases: Array<[string, (o: Obj) => void, string[]]> = [
    ['rules cannot mix resources and nonResourceURLs', (o) => (rule(o).resources = ['pods']), [
      'rules[0].nonResourceURLs: Invalid value: ["/metrics"]: rules cannot apply to both regular resources and non-resource URLs',
    ]],
    ['an aggregationRule needs selectors', (o) => (o.aggregationRule = {}), [
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ]],
    ['aggregation selectors are valid label selectors', (o) => (o.aggregationRule = { clusterRoleSelectors: [{ matchExpressions: [{ key: 'tier', operator: 'Equals', values: ['a'] }] }] }), [
      'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator',
      'aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.',
    ]],
    ['valid aggregation selectors are accepted', (o) => (o.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { 'example.com/aggregate-to-view': 'true' } }] }), []],
  ];
  for (const [name, mutate, expected] of clusterRoleCases) {
    it(`ClusterRole validation: ${name}`, () => {
      const r = variant(minimalClusterRole(), mutate);
      decodeAndDefault(clusterRole, r);
      expect(messages(validateCreate(clusterRole, r))).to.deep.equal(expected);
    });
  }
});
