import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const SVCS = '/api/v1/namespaces/default/services';
const MERGE = 'application/merge-patch+json';
const JSONPATCH = 'application/json-patch+json';

describe('patch (spec 000 § Patch content types)', () => {
  const server = useTestServer();

  it(`applies a JSON merge patch (null removes a key)${covers('000 § Patch content types (header `Content-Type`) › application/merge-patch+json', '000 § Verb mapping › PATCH', '000 § Resource operations › Patch')}`, async () => {
    await server().admin.post(CMS, { metadata: { name: 'p1' }, data: { a: '1', b: '2' } });
    const res = await server().admin.patch(`${CMS}/p1`, { data: { b: null, c: '3' } }, MERGE);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ a: '1', c: '3' });
  });

  it(`applies a JSON patch${covers('000 § Patch content types (header `Content-Type`) › application/json-patch+json')}`, async () => {
    await server().admin.post(CMS, { metadata: { name: 'p2' }, data: { a: '1' } });
    const res = await server().admin.patch(`${CMS}/p2`, [{ op: 'replace', path: '/data/a', value: '9' }, { op: 'add', path: '/metadata/labels', value: { x: 'y' } }], JSONPATCH);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ a: '9' });
    expect(res.body.metadata.labels).to.deep.equal({ x: 'y' });
  });

  it(`answers 422 and changes nothing when a JSON patch test fails${covers('000 § Patch content types (header `Content-Type`) › application/json-patch+json')}`, async () => {
    const before = (await server().admin.post(CMS, { metadata: { name: 'p3' }, data: { a: '1' } })).body;
    const res = await server().admin.patch(`${CMS}/p3`, [{ op: 'test', path: '/data/a', value: '2' }, { op: 'replace', path: '/data/a', value: '3' }], JSONPATCH);
    expect(res.status).to.equal(422);
    expect(res.body).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422 });
    const after = (await server().admin.get(`${CMS}/p3`)).body;
    expect(after.metadata.resourceVersion).to.equal(before.metadata.resourceVersion);
  });

  it('answers 400 for a malformed patch document, 422 for a malformed operation (as upstream, which checks operations as they apply)', async () => {
    await server().admin.post(CMS, { metadata: { name: 'p4' } });
    expect((await server().admin.request('PATCH', `${CMS}/p4`, { raw: '{', contentType: MERGE })).status).to.equal(400);
    const notAPatch = await server().admin.patch(`${CMS}/p4`, { op: 'add' }, JSONPATCH);
    expect([notAPatch.status, notAPatch.body.message]).to.deep.equal([400, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch']);
    const notAnOperation = await server().admin.patch(`${CMS}/p4`, [{ op: 'add', path: '/data/a', value: 'x' }, 7], JSONPATCH);
    expect([notAnOperation.status, notAnOperation.body.message]).to.deep.equal([400, 'json: cannot unmarshal number into Go value of type jsonpatch.Operation']);
    for (const op of [{ op: 'nope', path: '/data/a' }, { op: 'add', value: 'x' }, null]) {
      const res = await server().admin.patch(`${CMS}/p4`, [op], JSONPATCH);
      expect([res.status, res.body.reason], JSON.stringify(op)).to.deep.equal([422, 'Invalid']);
    }
    expect((await server().admin.patch(`${CMS}/p4`, null, JSONPATCH)).status).to.equal(200);
  });

  it(`answers 409 for a patch carrying a stale resourceVersion${covers('001 § Errors › 409 Conflict')}`, async () => {
    const created = (await server().admin.post(CMS, { metadata: { name: 'p5' } })).body;
    await server().admin.patch(`${CMS}/p5`, { data: { a: '1' } }, MERGE);
    const res = await server().admin.patch(`${CMS}/p5`, { metadata: { resourceVersion: created.metadata.resourceVersion }, data: { a: '2' } }, MERGE);
    expect(res.status).to.equal(409);
  });

  it('answers 404 for a patch of a missing object and 415 for an unsupported patch type', async () => {
    expect((await server().admin.patch(`${CMS}/absent`, { data: {} }, MERGE)).status).to.equal(404);
    await server().admin.post(CMS, { metadata: { name: 'p6' } });
    expect((await server().admin.patch(`${CMS}/p6`, { data: {} }, 'application/x-custom-patch')).status).to.equal(415);
  });

  it('validates the patched object (422 for an invalid label)', async () => {
    await server().admin.post(CMS, { metadata: { name: 'p7' } });
    const res = await server().admin.patch(`${CMS}/p7`, { metadata: { labels: { 'bad key!': 'x' } } }, MERGE);
    expect(res.status).to.equal(422);
    expect(res.body.details.causes[0].field).to.equal('metadata.labels');
  });
});

describe('status subresource (issue #2 item 6)', () => {
  const server = useTestServer();
  const svc = (name: string) => ({ metadata: { name }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });

  it('drops status on create and ignores status in main-resource writes', async () => {
    const created = (await server().admin.post(SVCS, svc('st1'))).body;
    expect(created.status?.loadBalancer?.ingress).to.equal(undefined);
    const updated = (await server().admin.put(`${SVCS}/st1`, { ...created, status: { loadBalancer: { ingress: [{ ip: '5.6.7.8' }] } } })).body;
    expect(updated.status?.loadBalancer?.ingress).to.equal(undefined);
  });

  it(`changes only status through /status${covers('000 § Terms › Subresource')}`, async () => {
    const created = (await server().admin.post(SVCS, svc('st2'))).body;
    const res = await server().admin.put(`${SVCS}/st2/status`, {
      ...created,
      metadata: { ...created.metadata, labels: { ignored: 'yes' } },
      spec: { ...created.spec, ports: [{ port: 81 }] },
      status: { loadBalancer: { ingress: [{ ip: '9.9.9.9' }] } },
    });
    expect(res.status).to.equal(200);
    expect(res.body.status.loadBalancer.ingress[0].ip).to.equal('9.9.9.9');
    expect(res.body.spec.ports[0].port).to.equal(80);
    expect(res.body.metadata.labels).to.equal(undefined);
  });

  it(`patches and reads status through /status${covers('000 § Terms › Subresource', '000 § Resource operations › Subresource read')}`, async () => {
    await server().admin.post(SVCS, svc('st3'));
    const res = await server().admin.patch(`${SVCS}/st3/status`, { status: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] } } }, MERGE);
    expect(res.status).to.equal(200);
    const got = await server().admin.get(`${SVCS}/st3/status`);
    expect(got.body.status.loadBalancer.ingress[0].hostname).to.equal('lb.example.com');
  });

  it('answers 404 for /status of a kind without a status subresource', async () => {
    await server().admin.post(CMS, { metadata: { name: 'nostatus' } });
    expect((await server().admin.get(`${CMS}/nostatus/status`)).status).to.equal(404);
  });
});
