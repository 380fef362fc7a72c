import { expect } from 'chai';
import { aggregateRules } from '../../../../lib/controllers/clusterrole-aggregation/controller.js';
import { uncoveredRules } from '../../../../lib/controllers/rbac-bootstrap/covers.js';
import { reconcileBinding, reconcileRole } from '../../../../lib/controllers/rbac-bootstrap/reconcile.js';
import { defaultPolicy } from '../../../../lib/apis/rbac/bootstrap-policy/index.js';

const policy = defaultPolicy();
const role = (name: string) => policy.clusterRoles.find((r) => r.metadata.name === name)!;
const binding = (name: string) => policy.clusterRoleBindings.find((r) => r.metadata.name === name)!;

describe('controllers/rbac: reconciliation and aggregation (upstream reconciliation, clusterroleaggregation)', () => {
  it('a wildcard rule covers everything; a missing permission is appended broken down', () => {
    expect(uncoveredRules([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], role('system:node').rules)).to.deep.equal([]);
    expect(uncoveredRules([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }])).to.deep.equal([
      { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
    ]);
    expect(uncoveredRules([{ verbs: ['get'], nonResourceURLs: ['/api/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/api/v1', '/apis'] }])).to.deep.equal([
      { verbs: ['get'], nonResourceURLs: ['/apis'] },
    ]);
  });

  it('a role holding the policy\'s rules unchanged lacks nothing; a rule changed in place is still broken down', () => {
    for (const r of policy.clusterRoles) expect(uncoveredRules(structuredClone(r.rules), r.rules), r.metadata.name).to.deep.equal([]);
    const wanted = [{ verbs: ['get', 'watch'], apiGroups: [''], resources: ['pods', 'nodes'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }];
    // The same position holds a narrower rule (one verb fewer); the second rule is unchanged.
    const owner = [{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'nodes'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }];
    expect(uncoveredRules(owner, wanted)).to.deep.equal([
      { verbs: ['watch'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['watch'], apiGroups: [''], resources: ['nodes'] },
    ]);
    // Absent and empty lists are the same rule; a different order of verbs is not, and is checked piece by piece.
    expect(uncoveredRules([{ verbs: ['list', 'get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }], [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }])).to.deep.equal([]);
    expect(uncoveredRules([{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])).to.deep.equal([
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    ]);
  });

  it('reconcileRole keeps extra rules and labels, adds the missing ones', () => {
    const obj = { metadata: { name: 'system:basic-user', labels: { mine: 'x' } }, rules: [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['a'] }] };
    expect(reconcileRole(obj, role('system:basic-user'))).to.equal(true);
    expect(obj.rules[0]).to.deep.equal({ verbs: ['get'], apiGroups: ['example.com'], resources: ['a'] });
    expect(obj.rules).to.have.length(4);
    expect(obj.metadata.labels).to.include({ mine: 'x', 'orch.io/bootstrapping': 'rbac-defaults' });
    expect(reconcileRole(obj, role('system:basic-user'))).to.equal(false);
  });

  it('reconcileRole restores the aggregation rule and leaves aggregated rules alone', () => {
    const obj: Record<string, unknown> = { metadata: { name: 'view' }, rules: [] };
    expect(reconcileRole(obj, role('view'))).to.equal(true);
    expect(obj.aggregationRule).to.deep.equal(role('view').aggregationRule);
    expect(obj.rules).to.deep.equal([]);
  });

  it('reconcileBinding appends missing subjects only', () => {
    const obj = { metadata: { name: 'system:public-info-viewer' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'alice' }] };
    expect(reconcileBinding(obj, binding('system:public-info-viewer'))).to.equal(true);
    expect(obj.subjects.map((s) => s.name)).to.deep.equal(['alice', 'system:authenticated', 'system:unauthenticated']);
  });

  it('aggregateRules: selectors in order, matching roles by name, each rule once, never itself', () => {
    const sel = (to: string) => ({ matchLabels: { [`agg-${to}`]: 'true' } });
    const agg = { metadata: { name: 'agg', labels: { 'agg-a': 'true' } }, aggregationRule: { clusterRoleSelectors: [sel('a'), sel('b')] }, rules: [{ verbs: ['x'] }] };
    const r = (name: string, labels: Record<string, string>, verbs: string[]) => ({ metadata: { name, labels }, rules: verbs.map((v) => ({ verbs: [v] })) });
    const all = [agg, r('z', { 'agg-a': 'true' }, ['1', '2']), r('b', { 'agg-b': 'true' }, ['2', '3']), r('m', { 'agg-a': 'true' }, ['4']), r('n', {}, ['5'])];
    expect(aggregateRules(agg, all)).to.deep.equal([{ verbs: ['4'] }, { verbs: ['1'] }, { verbs: ['2'] }, { verbs: ['3'] }]);
  });
});
