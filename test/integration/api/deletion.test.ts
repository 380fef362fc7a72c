import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const CMS = '/api/v1/namespaces/default/configmaps';

describe('deletion (spec 000 § Object deletion lifecycle)', () => {
  const server = useTestServer();

  it(`removes an object without finalizers at once and answers a Success Status${covers('000 § Verb mapping › DELETE', '000 § Resource operations › Delete')}`, async () => {
    const created = (await server().admin.post(CMS, { metadata: { name: 'd1' } })).body;
    const res = await server().admin.delete(`${CMS}/d1`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ kind: 'Status', apiVersion: 'v1', status: 'Success' });
    expect(res.body.details).to.deep.equal({ name: 'd1', kind: 'configmaps', uid: created.metadata.uid });
    expect((await server().admin.get(`${CMS}/d1`)).status).to.equal(404);
  });

  it('answers the deleted object for kinds that do so upstream (Service)', async () => {
    const svc = { metadata: { name: 's1' }, spec: { ports: [{ port: 80 }] } };
    expect((await server().admin.post('/api/v1/namespaces/default/services', svc)).status).to.equal(201);
    const res = await server().admin.delete('/api/v1/namespaces/default/services/s1');
    expect(res.status).to.equal(200);
    expect(res.body.kind).to.equal('Service');
  });

  it(`keeps an object with finalizers as terminating, then removes it when the last finalizer goes${covers('000 § Object deletion lifecycle › live', '000 § Object deletion lifecycle › terminating / external controllers acting on', '000 § Object deletion lifecycle › terminating / removal of the last finalizer', '000 § Type and object metadata › deletionTimestamp')}`, async () => {
    await server().admin.post(CMS, { metadata: { name: 'd2', finalizers: ['example.com/a', 'example.com/b'] } });
    const del = await server().admin.delete(`${CMS}/d2`);
    expect(del.status).to.equal(200);
    expect(del.body.kind).to.equal('ConfigMap');
    expect(del.body.metadata.deletionTimestamp).to.be.a('string');
    let cur = (await server().admin.get(`${CMS}/d2`)).body;
    expect(cur.metadata.deletionTimestamp).to.equal(del.body.metadata.deletionTimestamp);
    const one = await server().admin.put(`${CMS}/d2`, { ...cur, metadata: { ...cur.metadata, finalizers: ['example.com/b'] } });
    expect(one.status).to.equal(200);
    cur = (await server().admin.get(`${CMS}/d2`)).body;
    expect(cur.metadata.finalizers).to.deep.equal(['example.com/b']);
    const last = await server().admin.put(`${CMS}/d2`, { ...cur, metadata: { ...cur.metadata, finalizers: [] } });
    expect(last.status).to.equal(200);
    expect((await server().admin.get(`${CMS}/d2`)).status).to.equal(404);
  });

  it('refuses to add a finalizer to a terminating object', async () => {
    await server().admin.post(CMS, { metadata: { name: 'd3', finalizers: ['example.com/a'] } });
    await server().admin.delete(`${CMS}/d3`);
    const cur = (await server().admin.get(`${CMS}/d3`)).body;
    const res = await server().admin.put(`${CMS}/d3`, { ...cur, metadata: { ...cur.metadata, finalizers: ['example.com/a', 'example.com/new'] } });
    expect(res.status).to.equal(422);
    expect(res.body.details.causes[0].field).to.equal('metadata.finalizers');
  });

  it('answers 409 when DeleteOptions preconditions do not match', async () => {
    await server().admin.post(CMS, { metadata: { name: 'd4' } });
    const res = await server().admin.request('DELETE', `${CMS}/d4`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } } });
    expect(res.status).to.equal(409);
    expect(res.body.reason).to.equal('Conflict');
    expect(res.body.message).to.match(/^Operation cannot be fulfilled on configmaps "d4": Precondition failed: UID in precondition: not-the-uid, UID in object meta: /);
    expect((await server().admin.get(`${CMS}/d4`)).status).to.equal(200);
  });

  it('does nothing with dryRun=All', async () => {
    await server().admin.post(CMS, { metadata: { name: 'd5' } });
    const res = await server().admin.delete(`${CMS}/d5?dryRun=All`);
    expect(res.status).to.equal(200);
    expect((await server().admin.get(`${CMS}/d5`)).status).to.equal(200);
  });

  it(`deletes a collection by label selector${covers('000 § Resource operations › Delete collection', '000 § Verb mapping › DELETE')}`, async () => {
    for (const [name, tier] of [['dc1', 'a'], ['dc2', 'a'], ['dc3', 'b']]) {
      await server().admin.post(CMS, { metadata: { name, labels: { tier: tier! } } });
    }
    const res = await server().admin.delete(`${CMS}?labelSelector=tier%3Da`);
    expect(res.status).to.equal(200);
    expect(res.body.kind).to.equal('ConfigMapList');
    expect(res.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort()).to.deep.equal(['dc1', 'dc2']);
    const left = (await server().admin.get(`${CMS}?labelSelector=tier`)).body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(left).to.deep.equal(['dc3']);
  });

  it('answers 404 when deleting a missing object', async () => {
    const res = await server().admin.delete(`${CMS}/never`);
    expect(res.status).to.equal(404);
    expect(res.body.message).to.equal('configmaps "never" not found');
  });
});

describe('namespaces (issue #2 item 7; spec 000 § Object deletion lifecycle)', () => {
  const server = useTestServer();

  async function waitGone(path: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await server().admin.get(path)).status === 404) return;
      await sleep(100);
    }
    throw new Error(`${path} still exists after ${timeoutMs}ms`);
  }

  it('creates the system namespaces at start', async () => {
    const names = (await server().admin.get('/api/v1/namespaces')).body.items.map((n: { metadata: { name: string } }) => n.metadata.name);
    expect(names).to.include.members(['default', 'orch-system', 'orch-public', 'orch-node-lease']);
  });

  it('creates them like any namespace: defaulted, Active, managed by the server', async () => {
    const ns = (await server().admin.get('/api/v1/namespaces/orch-system')).body;
    expect(ns.metadata.labels).to.deep.equal({ 'orch.io/metadata.name': 'orch-system' });
    expect(ns.status.phase).to.equal('Active');
    expect(ns.metadata.managedFields.map((e: { manager: string; operation: string }) => [e.manager, e.operation])).to.deep.equal([['orch-apiserver', 'Update']]);
  });

  it('gives a new namespace the finalizer and phase Active', async () => {
    const ns = (await server().admin.post('/api/v1/namespaces', { metadata: { name: 'fresh' } })).body;
    expect(ns.spec.finalizers).to.deep.equal(['orch']);
    expect(ns.status.phase).to.equal('Active');
  });

  it('answers 404 for a create in a namespace that does not exist', async () => {
    const res = await server().admin.post('/api/v1/namespaces/missing/configmaps', { metadata: { name: 'x' } });
    expect(res.status).to.equal(404);
    expect(res.body.message).to.equal('namespaces "missing" not found');
  });

  it(`deletes every object of a deleted namespace, then the namespace${covers('000 § Terms › Namespace-scoped type')}`, async () => {
    await server().admin.post('/api/v1/namespaces', { metadata: { name: 'doomed' } });
    await server().admin.post('/api/v1/namespaces/doomed/configmaps', { metadata: { name: 'a' } });
    await server().admin.post('/api/v1/namespaces/doomed/secrets', { metadata: { name: 'b' } });
    const del = await server().admin.delete('/api/v1/namespaces/doomed');
    expect(del.status).to.equal(200);
    expect(del.body.status.phase).to.equal('Terminating');
    await waitGone('/api/v1/namespaces/doomed');
    expect((await server().admin.get('/api/v1/namespaces/doomed/configmaps/a')).status).to.equal(404);
  });

  it('answers 403 for a create in a terminating namespace and waits for finalizers of its objects', async () => {
    await server().admin.post('/api/v1/namespaces', { metadata: { name: 'held' } });
    await server().admin.post('/api/v1/namespaces/held/configmaps', { metadata: { name: 'pinned', finalizers: ['example.com/hold'] } });
    await server().admin.delete('/api/v1/namespaces/held');
    // Admission reads namespaces from an informer, which sees the deletion one watch event later
    // (as upstream's NamespaceLifecycle does): creates are refused from then on.
    let res = await server().admin.post('/api/v1/namespaces/held/configmaps', { metadata: { name: 'late' } });
    for (let i = 0; res.status === 201 && i < 50; i++) {
      await sleep(20);
      res = await server().admin.post('/api/v1/namespaces/held/configmaps', { metadata: { name: `late${i}` } });
    }
    expect(res.status).to.equal(403);
    expect(res.body.message).to.match(/^configmaps "late\d*" is forbidden: unable to create new content in namespace held because it is being terminated$/);
    expect(res.body.details.causes).to.deep.equal([{ reason: 'NamespaceTerminating', message: 'namespace held is being terminated', field: 'metadata.namespace' }]);
    await sleep(1500);
    const held = await server().admin.get('/api/v1/namespaces/held');
    expect(held.status).to.equal(200);
    // What kubectl describe shows: upstream's five deletion conditions, in order.
    const conditions = (held.body.status.conditions as { type: string; status: string; reason: string; message: string }[]).map(({ type, status, reason, message }) => ({ type, status, reason, message }));
    expect(conditions).to.deep.equal([
      { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
      { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
      { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
      { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances' },
      { type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizersRemain', message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances' },
    ]);
    const pinned = (await server().admin.get('/api/v1/namespaces/held/configmaps/pinned')).body;
    expect(pinned.metadata.deletionTimestamp).to.be.a('string');
    await server().admin.put('/api/v1/namespaces/held/configmaps/pinned', { ...pinned, metadata: { ...pinned.metadata, finalizers: [] } });
    await waitGone('/api/v1/namespaces/held');
  });

  it('refuses to delete the default namespace', async () => {
    const res = await server().admin.delete('/api/v1/namespaces/default');
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal('namespaces "default" is forbidden: this namespace may not be deleted');
  });
});
