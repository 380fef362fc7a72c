import { expect } from 'chai';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { clusterRole, clusterRoleBinding, role, roleBinding } from '../../../../lib/apis/rbac/v1/kinds.js';
import { RBAC_GROUP } from '../../../../lib/apis/rbac/v1/types.js';
import { cellsOf, meta, NOW } from './helpers.js';

const subjects = [
  { kind: 'User', apiGroup: RBAC_GROUP, name: 'alice' },
  { kind: 'Group', apiGroup: RBAC_GROUP, name: 'devs' },
  { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
  { kind: 'User', apiGroup: RBAC_GROUP, name: 'bob' },
  { kind: 'Robot', name: 'r2' },
];

describe('apis/printers: RBAC', () => {
  it('RoleBinding: Role kind/name, Age; wide: Users, Groups, ServiceAccounts joined with ", "', () => {
    const obj: Obj = { apiVersion: `${RBAC_GROUP}/v1`, kind: 'RoleBinding', metadata: meta('read', 7200), roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'view' }, subjects };
    expect(cellsOf(roleBinding, obj)).to.deep.equal(['read', 'ClusterRole/view', '120m', 'alice, bob', 'devs', 'ci/builder']);
  });

  it('ClusterRoleBinding without subjects: empty wide cells', () => {
    const obj: Obj = { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRoleBinding', metadata: meta('admins', 30), roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'cluster-admin' } };
    expect(cellsOf(clusterRoleBinding, obj)).to.deep.equal(['admins', 'ClusterRole/cluster-admin', '30s', '', '', '']);
  });

  it('Role and ClusterRole print the default table: Name and Created At', () => {
    for (const kind of [role, clusterRole]) {
      const obj: Obj = { apiVersion: `${RBAC_GROUP}/v1`, kind: kind.kind, metadata: { name: 'reader', creationTimestamp: '2024-04-30T08:15:00Z' }, rules: [] };
      const table = tableFor(kind, { apiVersion: `${RBAC_GROUP}/v1`, kind: `${kind.kind}List`, metadata: { resourceVersion: '77' }, items: [obj] }, { now: NOW });
      expect(table.columnDefinitions!.map((c) => c.name)).to.deep.equal(['Name', 'Created At']);
      expect(table.rows!.map((r) => r.cells)).to.deep.equal([['reader', '2024-04-30T08:15:00Z']]);
      expect(table.metadata).to.deep.equal({ resourceVersion: '77' });
    }
  });
});
