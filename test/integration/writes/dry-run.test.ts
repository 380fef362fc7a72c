import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const CMS = '/api/v1/namespaces/default/configmaps';

describe('dryRun (spec 000 § Modifying-request query parameters)', () => {
  const server = useTestServer();

  it(`POST: the full pipeline runs and the normal 201 answer comes back, nothing is stored${covers('000 § Modifying-request query parameters › dryRun')}`, async () => {
    const res = await server().admin.post(`${CMS}?dryRun=All`, { metadata: { name: 'dry1' }, data: { a: '1' } });
    expect(res.status).to.equal(201);
    expect(res.body.metadata.uid).to.be.a('string');
    expect(res.body.metadata.creationTimestamp).to.be.a('string');
    // Nothing was written, so there is no revision: upstream leaves the empty resourceVersion out.
    expect(res.text).to.not.include('resourceVersion');
    expect((await server().admin.get(`${CMS}/dry1`)).status).to.equal(404);
  });

  it(`a valueless dryRun means All${covers('000 § Modifying-request query parameters › dryRun')}`, async () => {
    expect((await server().admin.post(`${CMS}?dryRun`, { metadata: { name: 'dry2' } })).status).to.equal(201);
    expect((await server().admin.get(`${CMS}/dry2`)).status).to.equal(404);
  });

  it('generateName: a name is generated but not reserved', async () => {
    const res = await server().admin.post(`${CMS}?dryRun=All`, { metadata: { generateName: 'dry-' } });
    expect(res.status).to.equal(201);
    const name = res.body.metadata.name as string;
    expect(name).to.match(/^dry-[a-z0-9]{5}$/);
    expect((await server().admin.post(CMS, { metadata: { name } })).status).to.equal(201);
  });

  it('validation and admission run: 422 for an invalid object, 404 for a missing namespace', async () => {
    expect((await server().admin.post(`${CMS}?dryRun=All`, { metadata: { name: 'Bad!' } })).status).to.equal(422);
    expect((await server().admin.post('/api/v1/namespaces/nowhere/configmaps?dryRun=All', { metadata: { name: 'x' } })).status).to.equal(404);
  });

  it(`PUT and PATCH answer the new object, the stored one is unchanged${covers('000 § Modifying-request query parameters › dryRun')}`, async () => {
    const created = (await server().admin.post(CMS, { metadata: { name: 'dry3' }, data: { a: '1' } })).body;
    const put = await server().admin.put(`${CMS}/dry3?dryRun=All`, { ...created, data: { a: '2' } });
    expect(put.status).to.equal(200);
    expect(put.body.data).to.deep.equal({ a: '2' });
    const patch = await server().admin.patch(`${CMS}/dry3?dryRun=All`, { data: { b: '3' } }, 'application/merge-patch+json');
    expect(patch.status).to.equal(200);
    expect(patch.body.data).to.deep.equal({ a: '1', b: '3' });
    const stored = (await server().admin.get(`${CMS}/dry3`)).body;
    expect(stored.data).to.deep.equal({ a: '1' });
    expect(stored.metadata.resourceVersion).to.equal(created.metadata.resourceVersion);
  });

  it('DELETE with finalizers: the terminating object is answered, nothing changes', async () => {
    await server().admin.post(CMS, { metadata: { name: 'dry4', finalizers: ['example.com/f'] } });
    const res = await server().admin.delete(`${CMS}/dry4?dryRun=All`);
    expect(res.status).to.equal(200);
    expect(res.body.metadata.deletionTimestamp).to.be.a('string');
    expect((await server().admin.get(`${CMS}/dry4`)).body.metadata.deletionTimestamp).to.equal(undefined);
  });

  it('an unknown dryRun value is 422 Invalid of the verb\'s options kind, as upstream (issue #9 item 2)', async () => {
    const del = await server().admin.delete(`${CMS}/whatever?dryRun=Partial`);
    expect(del.status).to.equal(422);
    expect(del.body.reason).to.equal('Invalid');
    expect(del.body.message).to.equal('DeleteOptions.meta.orch.io "" is invalid: dryRun: Unsupported value: []string{"Partial"}: supported values: "All"');
    expect(del.body.details).to.deep.include({ group: 'meta.orch.io', kind: 'DeleteOptions' });
    expect(del.body.details.causes).to.deep.equal([{ reason: 'FieldValueNotSupported', message: 'Unsupported value: []string{"Partial"}: supported values: "All"', field: 'dryRun' }]);
    const create = await server().admin.post(`${CMS}?dryRun=Partial`, { metadata: { name: 'dry-bad' } });
    expect(create.status).to.equal(422);
    expect(create.body.message).to.equal('CreateOptions.meta.orch.io "" is invalid: dryRun: Unsupported value: []string{"Partial"}: supported values: "All"');
    expect((await server().admin.put(`${CMS}/dry-bad?dryRun=x`, { metadata: { name: 'dry-bad' } })).body.details.kind).to.equal('UpdateOptions');
    const patch = await server().admin.patch(`${CMS}/dry-bad?dryRun=x`, {}, 'application/merge-patch+json');
    expect([patch.status, patch.body.details.kind]).to.deep.equal([422, 'PatchOptions']);
    expect((await server().admin.get(`${CMS}/dry-bad`)).status).to.equal(404);
  });
});
