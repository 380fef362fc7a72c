import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string> = { a: '1' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

describe('create and update (spec 000 § Resource operations, § Update rules)', () => {
  const server = useTestServer();

  it(`creates an object with uid, creationTimestamp and a resourceVersion, answering 201${covers('000 § Terms › Resource / object', '000 § Type and object metadata › uid', '000 § Type and object metadata › creationTimestamp', '000 § Type and object metadata › resourceVersion', '000 § Resource operations › Create', '000 § Resource operations › Get, namespaced', '000 § Verb mapping › POST')}`, async () => {
    const res = await server().admin.post(CMS, cm('c1'));
    expect(res.status).to.equal(201);
    expect(res.body.metadata.uid).to.match(/^[0-9a-f-]{36}$/);
    expect(res.body.metadata.creationTimestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(res.body.metadata.resourceVersion).to.match(/^\d+$/);
    const got = await server().admin.get(`${CMS}/c1`);
    expect(got.body.data).to.deep.equal({ a: '1' });
  });

  it(`rejects a PUT with a stale resourceVersion with 409 Conflict and keeps the newer data${covers('000 § Resource operations › Update', '000 § Verb mapping › PUT', '000 § Type and object metadata › resourceVersion', '001 § Errors › 409 Conflict')}`, async () => {
    const created = (await server().admin.post(CMS, cm('c2'))).body;
    const first = await server().admin.put(`${CMS}/c2`, { ...created, data: { a: '2' } });
    expect(first.status).to.equal(200);
    const stale = await server().admin.put(`${CMS}/c2`, { ...created, data: { a: '3' } });
    expect(stale.status).to.equal(409);
    expect(stale.body).to.include({ kind: 'Status', status: 'Failure', reason: 'Conflict', code: 409 });
    expect(stale.body.message).to.equal(
      'Operation cannot be fulfilled on configmaps "c2": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect((await server().admin.get(`${CMS}/c2`)).body.data).to.deep.equal({ a: '2' });
  });

  it('accepts a PUT without resourceVersion (unconditional update)', async () => {
    await server().admin.post(CMS, cm('c3'));
    const res = await server().admin.put(`${CMS}/c3`, cm('c3', { a: 'x' }));
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ a: 'x' });
  });

  it('keeps a "__proto__" data key through create, update and merge patch', async () => {
    const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"proto"},"data":{"__proto__":"p","k":"v"}}';
    expect((await server().admin.request('POST', CMS, { raw: body, contentType: 'application/json' })).status).to.equal(201);
    const put = await server().admin.request('PUT', `${CMS}/proto`, { raw: body.replace('"v"', '"w"'), contentType: 'application/json' });
    expect(put.status).to.equal(200);
    const patched = await server().admin.request('PATCH', `${CMS}/proto`, { raw: '{"data":{"k":"x"}}', contentType: 'application/merge-patch+json' });
    expect(patched.status).to.equal(200);
    const got = await server().admin.request('GET', `${CMS}/proto`);
    expect(got.text).to.include('"data":{"__proto__":"p","k":"x"}');
  });

  it('answers a patch that merges into "__proto__" as a plain bad field, polluting nothing', async () => {
    await server().admin.post(CMS, cm('proto2'));
    for (const [contentType, raw] of [
      ['application/merge-patch+json', '{"metadata":{"labels":{"__proto__":{"polluted":"yes"}}}}'],
      ['application/strategic-merge-patch+json', '{"metadata":{"labels":{"__proto__":{"polluted":"yes"}}}}'],
      ['application/apply-patch+yaml', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"proto2","labels":{"__proto__":{"polluted":"yes"}}}}'],
    ]) {
      const res = await server().admin.request('PATCH', `${CMS}/proto2?fieldManager=t`, { raw, contentType });
      expect(res.status, `${contentType}: ${res.text}`).to.be.oneOf([400, 422]);
      expect(({} as Record<string, unknown>).polluted, contentType).to.equal(undefined);
    }
    const json = await server().admin.request('PATCH', `${CMS}/proto2`, { raw: '[{"op":"add","path":"/data/__proto__","value":"j"}]', contentType: 'application/json-patch+json' });
    expect(json.status, json.text).to.equal(200);
    expect(json.text).to.include('"__proto__":"j"');
  });

  it(`generates a name from generateName${covers('000 § Type and object metadata › name', '000 § Type and object metadata › generateName')}`, async () => {
    const res = await server().admin.post(CMS, { metadata: { generateName: 'gen-' }, data: {} });
    expect(res.status).to.equal(201);
    expect(res.body.metadata.name).to.match(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('takes apiVersion and kind from the path when the body lacks them', async () => {
    const res = await server().admin.post(CMS, { metadata: { name: 'c4' } });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ apiVersion: 'v1', kind: 'ConfigMap' });
  });

  it('treats a POST without Content-Type as JSON', async () => {
    const res = await server().admin.request('POST', CMS, { raw: JSON.stringify(cm('c5')), headers: {} });
    expect(res.status).to.equal(201);
  });

  it(`accepts a YAML body${covers('000 § Content negotiation and encoding › Content-Type (POST/PUT/PATCH)')}`, async () => {
    const res = await server().admin.request('POST', CMS, {
      raw: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c6\ndata:\n  "on": "yes"\n',
      contentType: 'application/yaml',
    });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.deep.equal({ on: 'yes' });
  });

  it(`creates on PUT for kinds that allow it (Lease) and answers 201${covers('000 § Verb mapping › PUT')}`, async () => {
    const path = '/apis/coordination.orch.io/v1/namespaces/default/leases/l1';
    const res = await server().admin.put(path, { metadata: { name: 'l1' }, spec: { holderIdentity: 'me' } });
    expect(res.status).to.equal(201);
  });

  it('answers 404 for a PUT on a missing object of a kind that does not create on update', async () => {
    const res = await server().admin.put(`${CMS}/nope`, cm('nope'));
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ reason: 'NotFound', message: 'configmaps "nope" not found' });
  });

  it(`answers 409 AlreadyExists for a duplicate name${covers('000 § Type and object metadata › name')}`, async () => {
    await server().admin.post(CMS, cm('dup'));
    const res = await server().admin.post(CMS, cm('dup'));
    expect(res.status).to.equal(409);
    expect(res.body).to.include({ reason: 'AlreadyExists', message: 'configmaps "dup" already exists' });
    expect(res.body.details).to.deep.equal({ name: 'dup', kind: 'configmaps' });
  });
});
