/**
 * A write that creates without being a create needs `create` permission too (spec 000 § Update
 * rules 3; issue #20, with issue #11): an apply of a missing object with `patch` only is 403 with
 * upstream's message (the chain's reason, empty for RBAC), with `patch` and `create` it creates;
 * an apply of an existing object needs `patch` only. A PUT that creates (a kind that creates on
 * update) likewise needs `create` besides `update`.
 */
import { expect } from 'chai';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import type { TestClient, TestResponse } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';

const RBAC = vendorGroup('rbac.authorization');
const NS = 'apply-authz';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const ENDPOINTS = `/api/v1/namespaces/${NS}/endpoints`;
const APPLY = 'application/apply-patch+yaml';

const TOKENS = ['patcher-token,patcher,uid-patcher,', 'creator-token,creator,uid-creator,'].join('\n');

const expectStatus = (res: TestResponse, status: number) => expect(res.status, res.text).to.equal(status);

describe('a write that creates is authorized as create too (spec 000 § Update rules 3)', function () {
  this.timeout(30_000);
  const server = useTestServer({ tokens: TOKENS });
  let patcher: TestClient;
  let creator: TestClient;

  const cm = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
  const apply = (client: TestClient, name: string, data: Record<string, string>, query = '') =>
    client.request('PATCH', `${CMS}/${name}?fieldManager=test${query}`, { raw: JSON.stringify(cm(name, data)), contentType: APPLY });

  before(async () => {
    const admin = server().admin;
    expectStatus(await admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }), 201);
    const role = (name: string, verbs: string[]) => ({
      apiVersion: `${RBAC}/v1`,
      kind: 'Role',
      metadata: { namespace: NS, name },
      rules: [{ verbs, apiGroups: [''], resources: ['configmaps', 'endpoints'] }],
    });
    const binding = (name: string, user: string) => ({
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: { namespace: NS, name },
      roleRef: { apiGroup: RBAC, kind: 'Role', name },
      subjects: [{ kind: 'User', apiGroup: RBAC, name: user }],
    });
    const roles = `/apis/${RBAC}/v1/namespaces/${NS}/roles`;
    const bindings = `/apis/${RBAC}/v1/namespaces/${NS}/rolebindings`;
    expectStatus(await admin.post(roles, role('patch-only', ['get', 'patch', 'update'])), 201);
    expectStatus(await admin.post(roles, role('patch-create', ['get', 'patch', 'update', 'create'])), 201);
    expectStatus(await admin.post(bindings, binding('patch-only', 'patcher')), 201);
    expectStatus(await admin.post(bindings, binding('patch-create', 'creator')), 201);
    patcher = admin.as({ token: 'patcher-token' });
    creator = admin.as({ token: 'creator-token' });
    // RBAC follows the bindings through its informers: wait until both users are in force.
    for (let i = 0; i < 250; i++) {
      const a = await patcher.get(`${CMS}/none`);
      const b = await creator.get(`${CMS}/none`);
      if (a.status === 404 && b.status === 404) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect.fail('the role bindings did not take effect');
  });

  it("refuses an apply that would create to a user with patch but not create: 403 with upstream's Status, nothing created", async () => {
    const res = await apply(patcher, 'new-by-patcher', { a: '1' });
    expectStatus(res, 403);
    expect(res.body).to.deep.equal({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "new-by-patcher" is forbidden: ',
      reason: 'Forbidden',
      details: { name: 'new-by-patcher', kind: 'configmaps' },
      code: 403,
    });
    expectStatus(await server().admin.get(`${CMS}/new-by-patcher`), 404);
  });

  it('refuses it under dryRun too', async () => {
    expectStatus(await apply(patcher, 'dry-by-patcher', { a: '1' }, '&dryRun=All'), 403);
  });

  it('lets a user with patch and create apply a missing object (201)', async () => {
    const res = await apply(creator, 'new-by-creator', { a: '1' });
    expectStatus(res, 201);
    expect(res.body.data).to.deep.equal({ a: '1' });
  });

  it('lets a user with patch only apply an object that exists (200)', async () => {
    expectStatus(await apply(server().admin, 'existing', { a: '1' }), 201);
    const res = await apply(patcher, 'existing', { a: '2' });
    expectStatus(res, 200);
    expect(res.body.data).to.deep.equal({ a: '2' });
  });

  it('refuses a PUT that would create (Endpoints create on update) to a user with update but not create', async () => {
    const ep = (name: string) => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace: NS } });
    const denied = await patcher.put(`${ENDPOINTS}/ep-patcher`, ep('ep-patcher'));
    expectStatus(denied, 403);
    expect(denied.body.message).to.equal('endpoints "ep-patcher" is forbidden: ');
    expectStatus(await creator.put(`${ENDPOINTS}/ep-creator`, ep('ep-creator')), 201);
    const existing = (await creator.get(`${ENDPOINTS}/ep-creator`)).body;
    expectStatus(await patcher.put(`${ENDPOINTS}/ep-creator`, { ...existing, metadata: { ...existing.metadata, labels: { a: 'b' } } }), 200);
  });
});
