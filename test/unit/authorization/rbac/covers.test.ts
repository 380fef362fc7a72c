import { expect } from 'chai';
import { upstreamAlias, vendorGroup } from '../../../../lib/apis/vendor.js';
import { describeGrant } from '../../../../lib/authorization/rbac/authorizer.js';
import { breakdownRule, compactRules, compactString, covers, escalationMessage } from '../../../../lib/authorization/rbac/covers.js';
import { onlyGCFieldsChanged } from '../../../../lib/authorization/rbac/escalation.js';
import type { PolicyRule } from '../../../../lib/authorization/rbac/rules.js';

const RBAC = vendorGroup('rbac.authorization');

// One row: owner rules, servant rules, covered? (upstream Covers, validation/policy_comparator_test.go cases).
const COVERS: [string, PolicyRule[], PolicyRule[], boolean][] = [
  ['exact', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], true],
  ['more verbs wanted', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }], false],
  ['split over two owner rules', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['delete'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }], true],
  ['star verbs', [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['escalate'], apiGroups: [''], resources: ['pods'] }], true],
  ['star resources cover subresources', [{ verbs: ['get'], apiGroups: [''], resources: ['*'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }], true],
  ['*/sub covers res/sub', [{ verbs: ['get'], apiGroups: [''], resources: ['*/log'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }], true],
  ['res does not cover res/sub', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }], false],
  ['star group', [{ verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }], [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }], true],
  ['both group spellings', [{ verbs: ['get'], apiGroups: [upstreamAlias(RBAC)!], resources: ['roles'] }], [{ verbs: ['get'], apiGroups: [RBAC], resources: ['roles'] }], true],
  ['names held cover names wanted', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a', 'b'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }], true],
  ['names held do not cover all names', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }], false],
  ['all names cover a name', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['x'] }], true],
  ['URL prefix', [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/apis/apps'] }], true],
  ['URL outside the prefix', [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/api'] }], false],
  ['URL star covers a star', [{ verbs: ['*'], nonResourceURLs: ['*'] }], [{ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }], true],
  ['nothing held', [], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], false],
  ['nothing wanted', [], [], true],
];

describe('RBAC rule coverage for escalation prevention (upstream Covers, BreakdownRule, CompactRules)', () => {
  for (const [name, owner, servant, want] of COVERS) {
    it(`${want ? 'covers' : 'does not cover'}: ${name}`, () => {
      expect(covers(owner, servant).covered).to.equal(want);
    });
  }

  it('breaks a rule into one group, resource, verb and name each, then URLs', () => {
    expect(breakdownRule({ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods'], resourceNames: ['a'] })).to.deep.equal([
      { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
    ]);
    expect(breakdownRule({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] })).to.deep.equal([
      { nonResourceURLs: ['/a'], verbs: ['get'] },
      { nonResourceURLs: ['/b'], verbs: ['get'] },
    ]);
  });

  it('compacts simple missing rules of one group and resource into one rule with their verbs', () => {
    const missing = covers([], [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'secrets'] }]).missing;
    expect(compactRules(missing)).to.deep.equal([
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
    ]);
  });

  it('prints rules as upstream CompactString', () => {
    expect(compactString({ verbs: ['get'], apiGroups: [''], resources: ['pods'] })).to.equal('{APIGroups:[""], Resources:["pods"], Verbs:["get"]}');
    expect(compactString({ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] })).to.equal(
      '{APIGroups:[""], Resources:["secrets"], ResourceNames:["a"], Verbs:["get" "list"]}',
    );
    expect(compactString({ verbs: ['get'], nonResourceURLs: ['/x'] })).to.equal('{NonResourceURLs:["/x"], Verbs:["get"]}');
  });

  it('words the escalation refusal as upstream ConfirmNoEscalation: sorted, compacted, one rule a line', () => {
    const missing = covers([], [
      { verbs: ['list', 'get'], apiGroups: [''], resources: ['secrets'] },
      { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] },
    ]).missing;
    expect(escalationMessage({ name: 'bob', groups: ['devs', 'system:authenticated'] }, missing, [])).to.equal(
      'user "bob" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["list" "get"]}\n' +
        '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}',
    );
    expect(escalationMessage({ name: 'bob', groups: [] }, missing.slice(0, 1), ['e1', 'e2'])).to.match(/; resolution errors: \[\[e1, e2\]\]$/);
  });

  it('describes grants as upstream binding describers', () => {
    const ref = { kind: 'ClusterRole', name: 'view' };
    expect(describeGrant({ kind: 'ClusterRoleBinding', name: 'b', namespace: '', roleRef: ref, subjects: [], visit: 0 }, { kind: 'User', name: 'bob' })).to.equal(
      'ClusterRoleBinding "b" of ClusterRole "view" to User "bob"',
    );
    expect(describeGrant({ kind: 'RoleBinding', name: 'rb', namespace: 'ns', roleRef: ref, subjects: [], visit: 0 }, { kind: 'ServiceAccount', name: 'sa' })).to.equal(
      'RoleBinding "rb/ns" of ClusterRole "view" to ServiceAccount "sa/ns"',
    );
    expect(describeGrant({ kind: 'RoleBinding', name: 'rb', namespace: 'ns', roleRef: ref, subjects: [], visit: 0 }, { kind: 'Group', name: 'devs' })).to.equal(
      'RoleBinding "rb/ns" of ClusterRole "view" to Group "devs"',
    );
  });

  it('lets updates that only touch owner references, finalizers or managed fields through (upstream IsOnlyMutatingGCFields)', () => {
    const old = { metadata: { name: 'r', resourceVersion: '5' }, rules: [] };
    expect(onlyGCFieldsChanged({ metadata: { name: 'r', resourceVersion: '5', finalizers: ['x'], ownerReferences: [{ uid: 'u' }] }, rules: [] }, old)).to.equal(true);
    expect(onlyGCFieldsChanged({ metadata: { name: 'r', resourceVersion: '5' }, rules: [{ verbs: ['*'] }] }, old)).to.equal(false);
    expect(onlyGCFieldsChanged({ metadata: { name: 'r' }, rules: [] }, null)).to.equal(false);
  });
});
