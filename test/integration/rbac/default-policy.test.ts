import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultPolicy } from '../../../lib/apis/rbac/bootstrap-policy/index.js';
import { startTestServer, useTestServer, type TestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';
const CR = `${RBAC}/clusterroles`;
const CRB = `${RBAC}/clusterrolebindings`;
const LABEL = 'orch.io/bootstrapping';
const AUTOUPDATE = 'rbac.authorization.orch.io/autoupdate';

async function names(server: TestServer, path: string): Promise<string[]> {
  const res = await server.admin.get(`${path}?labelSelector=${encodeURIComponent(`${LABEL}=rbac-defaults`)}`);
  expect(res.status).to.equal(200);
  return (res.body.items as { metadata: { name: string; namespace?: string } }[]).map((o) => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name)).sort();
}

/** Polls `fn` until it returns true, at most `ms`. */
async function eventually(fn: () => Promise<boolean>, ms = 1000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await sleep(25);
  }
}

const policy = defaultPolicy();
const key = (o: { metadata: { name: string; namespace?: string } }) => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name);

describe('default RBAC policy and auto-reconciliation (spec 001 § RBAC mode)', () => {
  const server = useTestServer({ controllers: ['*'] });

  it('creates every default object at start, labelled orch.io/bootstrapping=rbac-defaults', async () => {
    expect(await names(server(), CR)).to.deep.equal(policy.clusterRoles.map(key).sort());
    expect(await names(server(), CRB)).to.deep.equal(policy.clusterRoleBindings.map(key).sort());
    expect(await names(server(), `${RBAC}/roles`)).to.deep.equal(policy.roles.map(key).sort());
    expect(await names(server(), `${RBAC}/rolebindings`)).to.deep.equal(policy.roleBindings.map(key).sort());
  });

  it('reports the rbac/bootstrap-roles hook in /readyz', async () => {
    const res = await server().admin.get('/readyz?verbose');
    expect(res.text).to.include('[+]poststarthook/rbac/bootstrap-roles ok');
  });

  it('binds cluster-admin to system:masters with autoupdate "true"', async () => {
    const res = await server().admin.get(`${CRB}/cluster-admin`);
    expect(res.body.subjects).to.deep.equal([{ kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: 'system:masters' }]);
    expect(res.body.metadata.annotations).to.have.property(AUTOUPDATE, 'true');
  });

  it('fills view, edit and admin with the aggregated rules (view can get pods; admin includes edit)', async () => {
    const rules = async (name: string) => (await server().admin.get(`${CR}/${name}`)).body.rules as { verbs: string[]; apiGroups?: string[]; resources?: string[] }[];
    await eventually(async () => (await rules('admin'))?.length > 0, 5000);
    const view = await rules('view');
    expect(view.some((r) => r.verbs.includes('get') && r.apiGroups?.includes('') && r.resources?.includes('pods'))).to.equal(true);
    const edit = await rules('edit');
    for (const r of view) expect(edit).to.deep.include(r);
    const admin = await rules('admin');
    for (const r of edit) expect(admin).to.deep.include(r);
    expect(admin.some((r) => r.resources?.includes('rolebindings'))).to.equal(true);
  });

  it(`aggregation follows add, relabel and delete of a labelled ClusterRole within a second${covers('001 § RBAC mode › ClusterRole')}`, async () => {
    const s = server();
    const rule = { verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] };
    const holds = async (role: string) => ((await s.admin.get(`${CR}/${role}`)).body.rules as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify(rule));
    const viewHas = () => holds('view');
    const res = await s.admin.post(CR, {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'widgets-view', labels: { 'rbac.authorization.orch.io/aggregate-to-view': 'true' } },
      rules: [rule],
    });
    expect(res.status).to.equal(201);
    await eventually(viewHas);
    await eventually(() => holds('admin'));
    const relabel = await s.admin.patch(`${CR}/widgets-view`, { metadata: { labels: { 'rbac.authorization.orch.io/aggregate-to-view': 'false' } } }, 'application/merge-patch+json');
    expect(relabel.status).to.equal(200);
    await eventually(async () => !(await viewHas()));
    await s.admin.patch(`${CR}/widgets-view`, { metadata: { labels: { 'rbac.authorization.orch.io/aggregate-to-view': 'true' } } }, 'application/merge-patch+json');
    await eventually(viewHas);
    expect((await s.admin.delete(`${CR}/widgets-view`)).status).to.equal(200);
    await eventually(async () => !(await viewHas()));
  });
});

describe('reconciliation across restarts (spec 001 § RBAC mode)', function () {
  this.timeout(120_000);

  it('restores a deleted role, a removed rule and a removed subject; respects autoupdate "false"', async () => {
    let s = await startTestServer({ controllers: ['*'] });
    const prefix = s.prefix;
    try {
      expect((await s.admin.delete(`${CR}/system:node-proxier`)).status).to.equal(200);
      const basic = (await s.admin.get(`${CR}/system:basic-user`)).body;
      const put1 = await s.admin.put(`${CR}/system:basic-user`, { ...basic, rules: basic.rules.slice(1) });
      expect(put1.status).to.equal(200);
      const disc = (await s.admin.get(`${CRB}/system:discovery`)).body;
      expect((await s.admin.put(`${CRB}/system:discovery`, { ...disc, subjects: [] })).status).to.equal(200);
      const mon = (await s.admin.get(`${CR}/system:monitoring`)).body;
      const kept = { ...mon, metadata: { ...mon.metadata, annotations: { [AUTOUPDATE]: 'false' } }, rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] };
      expect((await s.admin.put(`${CR}/system:monitoring`, kept)).status).to.equal(200);
      const extra = { verbs: ['get'], apiGroups: ['example.com'], resources: ['gadgets'] };
      const heap = (await s.admin.get(`${CR}/system:heapster`)).body;
      expect((await s.admin.put(`${CR}/system:heapster`, { ...heap, rules: [...heap.rules, extra] })).status).to.equal(200);
      await s.stop();

      s = await startTestServer({ controllers: ['*'], prefix });
      expect((await s.admin.get(`${CR}/system:node-proxier`)).status).to.equal(200);
      // upstream appends the missing permissions broken down to one verb on one resource
      const restored = (await s.admin.get(`${CR}/system:basic-user`)).body.rules;
      for (const resource of ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']) {
        expect(restored).to.deep.include({ verbs: ['create'], apiGroups: ['authorization.orch.io'], resources: [resource] });
      }
      expect((await s.admin.get(`${CRB}/system:discovery`)).body.subjects).to.deep.equal([
        { kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: 'system:authenticated' },
      ]);
      expect((await s.admin.get(`${CR}/system:monitoring`)).body.rules).to.deep.equal(kept.rules);
      expect((await s.admin.get(`${CR}/system:heapster`)).body.rules).to.deep.include(extra);
    } finally {
      await s.stop();
    }
  });

  it('two servers starting at once over the same data end with exactly the default set', async () => {
    const first = await startTestServer();
    const prefix = first.prefix;
    await first.stop();
    const [a, b] = await Promise.all([startTestServer({ prefix }), startTestServer({ prefix })]);
    try {
      expect(await names(a, CR)).to.deep.equal(policy.clusterRoles.map(key).sort());
      expect(await names(b, CRB)).to.deep.equal(policy.clusterRoleBindings.map(key).sort());
      const crb = (await a.admin.get(`${CRB}/system:public-info-viewer`)).body.subjects;
      expect(crb).to.have.length(2);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('two fresh servers starting at once create each default object once', async () => {
    const prefix = `/${crypto.randomUUID()}/registry`;
    const [a, b] = await Promise.all([startTestServer({ prefix }), startTestServer({ prefix })]);
    try {
      expect(await names(a, CR)).to.deep.equal(policy.clusterRoles.map(key).sort());
      expect(await names(b, `${RBAC}/rolebindings`)).to.deep.equal(policy.roleBindings.map(key).sort());
      const node = (await a.admin.get(`${CR}/system:node`)).body.rules;
      expect(node).to.deep.equal(policy.clusterRoles.find((r) => r.metadata.name === 'system:node')!.rules);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
