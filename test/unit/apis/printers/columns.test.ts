import { expect } from 'chai';
import { tableFor } from '../../../../lib/apimachinery/table/builder.js';
import { deployment } from '../../../../lib/apis/apps/v1/deployment.js';
import { cronJob } from '../../../../lib/apis/batch/v1/cron-job.js';
import { job } from '../../../../lib/apis/batch/v1/job.js';
import { lease } from '../../../../lib/apis/coordination/v1/lease.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { endpoints, event, namespace, node, secret, service, serviceAccount } from '../../../../lib/apis/core/v1/cluster-kinds.js';
import { pod } from '../../../../lib/apis/core/v1/pod.js';
import type { KindDefinition } from '../../../../lib/apis/define.js';
import { clusterRole, clusterRoleBinding, role, roleBinding } from '../../../../lib/apis/rbac/v1/kinds.js';

/** [name, type, format, priority] of each column, as upstream v1.30 defines them. */
type Col = [string, string, string, number];
const name: Col = ['Name', 'string', 'name', 0];
const age: Col = ['Age', 'string', '', 0];
const s = (n: string, priority = 0): Col => [n, 'string', '', priority];
const workloadWide: Col[] = [s('Containers', 1), s('Images', 1), s('Selector', 1)];

const EXPECTED: Array<[KindDefinition, Col[]]> = [
  [pod, [name, s('Ready'), s('Status'), s('Restarts'), age, s('IP', 1), s('Node', 1), s('Nominated Node', 1), s('Readiness Gates', 1)]],
  [deployment, [name, s('Ready'), s('Up-to-date'), s('Available'), age, ...workloadWide]],
  [job, [name, s('Status'), s('Completions'), s('Duration'), age, ...workloadWide]],
  [cronJob, [name, s('Schedule'), s('Timezone'), ['Suspend', 'boolean', '', 0], ['Active', 'integer', '', 0], s('Last Schedule'), age, ...workloadWide]],
  [service, [name, s('Type'), s('Cluster-IP'), s('External-IP'), s('Port(s)'), age, s('Selector', 1)]],
  [namespace, [name, s('Status'), age]],
  [node, [name, s('Status'), s('Roles'), age, s('Version'), s('Internal-IP', 1), s('External-IP', 1), s('OS-Image', 1), s('Kernel-Version', 1), s('Container-Runtime', 1)]],
  [event, [s('Last Seen'), s('Type'), s('Reason'), s('Object'), s('Subobject', 1), s('Source', 1), s('Message'), s('First Seen', 1), s('Count', 1), ['Name', 'string', 'name', 1]]],
  [secret, [name, s('Type'), s('Data'), age]],
  [configMap, [name, s('Data'), age]],
  [serviceAccount, [name, s('Secrets'), age]],
  [endpoints, [name, s('Endpoints'), age]],
  [lease, [name, s('Holder'), age]],
  [roleBinding, [name, s('Role'), age, s('Users', 1), s('Groups', 1), s('ServiceAccounts', 1)]],
  [clusterRoleBinding, [name, s('Role'), age, s('Users', 1), s('Groups', 1), s('ServiceAccounts', 1)]],
  [role, [name, ['Created At', 'date', '', 0]]],
  [clusterRole, [name, ['Created At', 'date', '', 0]]],
];

describe('apis/printers: column definitions per kind', () => {
  for (const [kind, columns] of EXPECTED) {
    it(`${kind.kind}: ${columns.map((c) => c[0]).join(', ')}`, () => {
      const defs = tableFor(kind, [], {}).columnDefinitions!;
      expect(defs.map((c) => [c.name, c.type, c.format, c.priority])).to.deep.equal(columns);
      for (const c of defs) expect(c.description, `${kind.kind}/${c.name}`).to.be.a('string').and.not.equal('');
    });

    it(`${kind.kind}: every row has one cell per column`, () => {
      const obj = { apiVersion: kind.apiVersion, kind: kind.kind, metadata: { name: 'x', creationTimestamp: '2024-05-01T10:00:00Z' } };
      const table = tableFor(kind, obj, { now: Date.UTC(2024, 4, 1, 12) });
      expect(table.rows![0]!.cells).to.have.length(columns.length);
    });
  }

  it('Role and ClusterRole have no columns of their own', () => {
    expect(role.printerColumns).to.equal(undefined);
    expect(clusterRole.printerColumns).to.equal(undefined);
  });
});
