import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const ORCH_RBAC = 'rbac.authorization.orch.io';
const K8S_RBAC = 'rbac.authorization.k8s.io';
const rbac = (group: string, ns: string, resource: string) => `/apis/${group}/v1/namespaces/${ns}/${resource}`;
const leases = (group: string, ns: string) => `/apis/${group}/v1/namespaces/${ns}/leases`;

const binding = (name: string, group: string) => ({
  apiVersion: `${group}/v1`,
  kind: 'RoleBinding',
  metadata: { name },
  roleRef: { apiGroup: group, kind: 'Role', name: 'reader' },
  subjects: [
    { kind: 'User', apiGroup: group, name: 'alice' },
    { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
  ],
});

describe('upstream aliases: every vendor group served under its upstream name too (issue #9 item 1)', () => {
  const server = useTestServer();

  it('creates through the alias and reads through both spellings, apiVersion converted each way', async () => {
    const created = await server().admin.post(rbac(K8S_RBAC, 'default', 'roles'), {
      apiVersion: `${K8S_RBAC}/v1`,
      kind: 'Role',
      metadata: { name: 'reader' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ apiVersion: `${K8S_RBAC}/v1`, kind: 'Role' });
    const viaOrch = await server().admin.get(`${rbac(ORCH_RBAC, 'default', 'roles')}/reader`);
    expect(viaOrch.body.apiVersion).to.equal(`${ORCH_RBAC}/v1`);
    expect(viaOrch.body.metadata.uid).to.equal(created.body.metadata.uid);
    const list = await server().admin.get(rbac(K8S_RBAC, 'default', 'roles'));
    expect(list.body).to.include({ apiVersion: `${K8S_RBAC}/v1`, kind: 'RoleList' });
    expect(list.body.items.map((i: { apiVersion: string }) => i.apiVersion)).to.deep.equal([`${K8S_RBAC}/v1`]);
    const cached = await server().admin.get(`${rbac(K8S_RBAC, 'default', 'roles')}/reader?resourceVersion=0`);
    expect(cached.body.apiVersion).to.equal(`${K8S_RBAC}/v1`);
    const orchAgain = await server().admin.get(`${rbac(ORCH_RBAC, 'default', 'roles')}/reader?resourceVersion=0`);
    expect(orchAgain.body.apiVersion).to.equal(`${ORCH_RBAC}/v1`);
  });

  it('refuses a body whose apiVersion names the other spelling of the group, as any version mismatch', async () => {
    const res = await server().admin.post(rbac(K8S_RBAC, 'default', 'roles'), { apiVersion: `${ORCH_RBAC}/v1`, kind: 'Role', metadata: { name: 'mixed' } });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal(`the API version in the data (${ORCH_RBAC}/v1) does not match the expected API version (${K8S_RBAC}/v1)`);
  });

  it('stores group references in the vendor spelling and serves them in the spelling of the group read', async () => {
    const created = await server().admin.post(rbac(K8S_RBAC, 'default', 'rolebindings'), binding('rb1', K8S_RBAC));
    expect(created.status).to.equal(201);
    expect(created.body.roleRef.apiGroup).to.equal(K8S_RBAC);
    expect(created.body.subjects[0].apiGroup).to.equal(K8S_RBAC);
    const viaOrch = (await server().admin.get(`${rbac(ORCH_RBAC, 'default', 'rolebindings')}/rb1`)).body;
    expect(viaOrch.roleRef.apiGroup).to.equal(ORCH_RBAC);
    expect(viaOrch.subjects[0].apiGroup).to.equal(ORCH_RBAC);
    const viaAlias = (await server().admin.get(`${rbac(K8S_RBAC, 'default', 'rolebindings')}/rb1?resourceVersion=0`)).body;
    expect(viaAlias.roleRef.apiGroup).to.equal(K8S_RBAC);
    expect(viaAlias.subjects[0].apiGroup).to.equal(K8S_RBAC);
  });

  it('never rewrites data: label and annotation keys and values, rules naming groups', async () => {
    const metadata = {
      name: 'data',
      labels: { 'app.kubernetes.io/name': 'x', group: ORCH_RBAC },
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': `{"apiVersion":"${ORCH_RBAC}/v1"}`, 'orch.io/note': K8S_RBAC },
    };
    const rules = [{ apiGroups: [ORCH_RBAC, K8S_RBAC], resources: ['roles'], verbs: ['get'] }];
    expect((await server().admin.post(rbac(K8S_RBAC, 'default', 'roles'), { metadata, rules })).status).to.equal(201);
    for (const group of [ORCH_RBAC, K8S_RBAC]) {
      const got = (await server().admin.get(`${rbac(group, 'default', 'roles')}/data`)).body;
      expect(got.metadata.labels).to.deep.equal(metadata.labels);
      expect(got.metadata.annotations).to.deep.equal(metadata.annotations);
      expect(got.rules).to.deep.equal(rules);
    }
  });

  it('accepts the upstream spelling of a group reference written through the vendor group', async () => {
    const created = await server().admin.post(rbac(ORCH_RBAC, 'default', 'rolebindings'), { ...binding('rb2', ORCH_RBAC), roleRef: { apiGroup: K8S_RBAC, kind: 'Role', name: 'reader' } });
    expect(created.status).to.equal(201);
    expect(created.body.roleRef.apiGroup).to.equal(ORCH_RBAC);
  });

  it('defaults group references and keeps roleRef immutable across spellings', async () => {
    const created = await server().admin.post(rbac(K8S_RBAC, 'default', 'rolebindings'), {
      metadata: { name: 'rb3' },
      roleRef: { kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'Group', name: 'devs' }],
    });
    expect(created.status).to.equal(201);
    expect(created.body.roleRef.apiGroup).to.equal(K8S_RBAC);
    expect(created.body.subjects[0].apiGroup).to.equal(K8S_RBAC);
    const changed = await server().admin.patch(`${rbac(K8S_RBAC, 'default', 'rolebindings')}/rb3`, { roleRef: { name: 'other' } }, 'application/merge-patch+json');
    expect(changed.status).to.equal(422);
    expect(changed.body.message).to.match(new RegExp(`^RoleBinding\\.${K8S_RBAC.replaceAll('.', '\\.')} "rb3" is invalid: roleRef: Invalid value`));
    expect(changed.body.details.group).to.equal(K8S_RBAC);
  });

  it('patches the object as the client sees it: JSON patch tests match the served spelling', async () => {
    const path = `${rbac(K8S_RBAC, 'default', 'rolebindings')}/rb1`;
    const ok = await server().admin.patch(
      path,
      [
        { op: 'test', path: '/apiVersion', value: `${K8S_RBAC}/v1` },
        { op: 'test', path: '/roleRef/apiGroup', value: K8S_RBAC },
        { op: 'add', path: '/metadata/labels', value: { team: 'a' } },
      ],
      'application/json-patch+json',
    );
    expect(ok.status).to.equal(200);
    expect(ok.body.metadata.labels).to.deep.equal({ team: 'a' });
    const stale = await server().admin.patch(`${rbac(ORCH_RBAC, 'default', 'rolebindings')}/rb1`, [{ op: 'test', path: '/roleRef/apiGroup', value: K8S_RBAC }], 'application/json-patch+json');
    expect(stale.status).to.equal(422);
  });

  it('records managedFields with the apiVersion each writer used', async () => {
    const path = `${leases(K8S_RBAC.replace('rbac.authorization', 'coordination'), 'default')}`;
    const created = await server().admin.post(`${path}?fieldManager=upstream-writer`, { metadata: { name: 'mf' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 10 } });
    expect(created.status).to.equal(201);
    const orchPath = `${leases('coordination.orch.io', 'default')}/mf?fieldManager=vendor-writer`;
    const updated = await server().admin.patch(orchPath, { spec: { holderIdentity: 'b' } }, 'application/merge-patch+json');
    expect(updated.status).to.equal(200);
    const entries = updated.body.metadata.managedFields.map((m: { manager: string; apiVersion: string }) => [m.manager, m.apiVersion]);
    expect(entries).to.deep.equal([
      ['upstream-writer', 'coordination.k8s.io/v1'],
      ['vendor-writer', 'coordination.orch.io/v1'],
    ]);
    const applied = await server().admin.request('PATCH', `${path}/mf?fieldManager=applier&force=true`, {
      raw: 'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: mf\nspec:\n  holderIdentity: c\n',
      contentType: 'application/apply-patch+yaml',
    });
    expect(applied.status).to.equal(200);
    expect(applied.body.apiVersion).to.equal('coordination.k8s.io/v1');
    const apply = applied.body.metadata.managedFields.find((m: { manager: string }) => m.manager === 'applier');
    expect(apply).to.include({ operation: 'Apply', apiVersion: 'coordination.k8s.io/v1' });
  });

  it('a watch opened through one spelling sees writes made through the other, in its own spelling', async () => {
    const aliasWatch = await server().admin.watch(`${rbac(K8S_RBAC, 'default', 'rolebindings')}?watch=true&fieldSelector=metadata.name%3Drb-watch`);
    const orchWatch = await server().admin.watch(`${rbac(ORCH_RBAC, 'default', 'rolebindings')}?watch=true&fieldSelector=metadata.name%3Drb-watch`);
    try {
      expect((await server().admin.post(rbac(ORCH_RBAC, 'default', 'rolebindings'), binding('rb-watch', ORCH_RBAC))).status).to.equal(201);
      const seen = await aliasWatch.until((e) => e.type === 'ADDED');
      expect(seen.object.apiVersion).to.equal(`${K8S_RBAC}/v1`);
      expect(seen.object.roleRef.apiGroup).to.equal(K8S_RBAC);
      const orchSeen = await orchWatch.until((e) => e.type === 'ADDED');
      expect(orchSeen.object.apiVersion).to.equal(`${ORCH_RBAC}/v1`);
      expect(orchSeen.object.roleRef.apiGroup).to.equal(ORCH_RBAC);
      expect((await server().admin.delete(`${rbac(K8S_RBAC, 'default', 'rolebindings')}/rb-watch`)).status).to.equal(200);
      const deleted = await orchWatch.until((e) => e.type === 'DELETED');
      expect(deleted.object.apiVersion).to.equal(`${ORCH_RBAC}/v1`);
      expect((await aliasWatch.until((e) => e.type === 'DELETED')).object.apiVersion).to.equal(`${K8S_RBAC}/v1`);
    } finally {
      aliasWatch.close();
      orchWatch.close();
    }
  });

  it('names the group the client used in errors', async () => {
    const res = await server().admin.get(`${rbac(K8S_RBAC, 'default', 'roles')}/nope`);
    expect(res.status).to.equal(404);
    expect(res.body.message).to.equal(`roles.${K8S_RBAC} "nope" not found`);
    expect(res.body.details).to.deep.include({ name: 'nope', group: K8S_RBAC, kind: 'roles' });
    const exists = await server().admin.post(rbac(K8S_RBAC, 'default', 'roles'), { metadata: { name: 'reader' } });
    expect(exists.status).to.equal(409);
    expect(exists.body.message).to.equal(`roles.${K8S_RBAC} "reader" already exists`);
  });

  it('deletes and deletecollections through the alias, answering in its spelling', async () => {
    await server().admin.post(rbac(ORCH_RBAC, 'default', 'roles'), { metadata: { name: 'gone', labels: { sweep: 'yes' } } });
    await server().admin.post(rbac(ORCH_RBAC, 'default', 'roles'), { metadata: { name: 'gone2', labels: { sweep: 'yes' } } });
    const one = await server().admin.delete(`${rbac(K8S_RBAC, 'default', 'roles')}/gone`);
    expect(one.status).to.equal(200);
    const all = await server().admin.delete(`${rbac(K8S_RBAC, 'default', 'roles')}?labelSelector=sweep%3Dyes`);
    expect(all.status).to.equal(200);
    expect(all.body).to.include({ apiVersion: `${K8S_RBAC}/v1`, kind: 'RoleList' });
    expect(all.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['gone2']);
  });

  it('serves protobuf through the alias with the alias apiVersion in the envelope', async () => {
    await server().admin.post(leases('coordination.orch.io', 'default'), { metadata: { name: 'pb' } });
    const res = await server().admin.get(`${leases('coordination.k8s.io', 'default')}/pb`, { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
    expect(res.status).to.equal(200);
    expect(res.bytes.includes(Buffer.from('coordination.k8s.io/v1'))).to.equal(true);
    expect(res.bytes.includes(Buffer.from('coordination.orch.io/v1'))).to.equal(false);
  });

  it('lists short names and categories under the vendor group only, so kubectl neither warns of an ambiguous short name nor prints a category twice', async () => {
    type Resource = { name?: string; resource?: string; shortNames?: string[]; categories?: string[] };
    const legacy = async (group: string) => ((await server().admin.get(`/apis/${group}/v1`)).body.resources as Resource[]).find((r) => r.name === 'ingresses')!;
    expect(await legacy('networking.orch.io')).to.deep.include({ shortNames: ['ing'] });
    expect(await legacy('networking.k8s.io')).to.not.have.any.keys('shortNames', 'categories');
    const apiServices = async (group: string) => ((await server().admin.get(`/apis/${group}/v1`)).body.resources as Resource[]).find((r) => r.name === 'apiservices')!;
    expect(await apiServices('apiregistration.orch.io')).to.deep.include({ categories: ['api-extensions'] });
    expect(await apiServices('apiregistration.k8s.io')).to.not.have.any.keys('shortNames', 'categories');
    const aggregated = await server().admin.get('/apis', { headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
    const ingresses = (group: string) =>
      (aggregated.body.items as { metadata: { name: string }; versions: { resources: Resource[] }[] }[])
        .find((g) => g.metadata.name === group)!
        .versions[0]!.resources.find((r) => r.resource === 'ingresses')!;
    expect(ingresses('networking.orch.io')).to.deep.include({ shortNames: ['ing'] });
    expect(ingresses('networking.k8s.io')).to.not.have.any.keys('shortNames', 'categories');
  });

  it('leaves groups outside the vendor domain alone: there is no alias of core or apps', async () => {
    expect((await server().admin.get('/apis/apps.k8s.io/v1/deployments')).status).to.equal(404);
  });
});

describe('upstream aliases off: only the vendor spellings exist (issue #9 item 3)', () => {
  const server = useTestServer({ upstreamAliases: false });

  it('answers 404 NotFound for an alias group as for any unknown group', async () => {
    const res = await server().admin.get(rbac(K8S_RBAC, 'default', 'roles'));
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ kind: 'Status', reason: 'NotFound', message: 'the server could not find the requested resource' });
    expect((await server().admin.get(rbac(ORCH_RBAC, 'default', 'roles'))).status).to.equal(200);
  });

  it('refuses the upstream spelling in a group reference', async () => {
    const res = await server().admin.post(rbac(ORCH_RBAC, 'default', 'rolebindings'), { ...binding('rb', ORCH_RBAC), roleRef: { apiGroup: K8S_RBAC, kind: 'Role', name: 'reader' } });
    expect(res.status).to.equal(422);
    expect(res.body.message).to.include(`roleRef.apiGroup: Unsupported value: "${K8S_RBAC}"`);
  });
});
