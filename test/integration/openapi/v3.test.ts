import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const TOKENS = 'usertoken,bob,uid-2,devs';

describe('/openapi/v3 over HTTPS: index, group-version documents, hash caching, access (issue #6 items 2, 3)', () => {
  const server = useTestServer({ tokens: TOKENS });

  const index = async () => {
    const res = await server().admin.get('/openapi/v3');
    return res.body.paths as Record<string, { serverRelativeURL: string }>;
  };

  it('lists every served group version with its hashed URL', async () => {
    const res = await server().admin.get('/openapi/v3');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/json');
    expect(res.headers.etag).to.match(/^"[0-9A-F]{128}"$/);
    expect(res.headers['cache-control']).to.equal('no-cache, private');
    expect(Object.keys(res.body)).to.deep.equal(['paths']);
    expect(Object.keys(res.body.paths)).to.include.members(['api/v1', 'apis/apps/v1', 'apis/batch/v1', 'apis/coordination.orch.io/v1', 'apis/rbac.authorization.orch.io/v1']);
    for (const [path, entry] of Object.entries(res.body.paths as Record<string, { serverRelativeURL: string }>)) {
      expect(entry.serverRelativeURL).to.match(new RegExp(`^/openapi/v3/${path.replace(/\./g, '\\.')}\\?hash=[0-9A-F]{128}$`));
    }
  });

  it('answers every listed group version; with its hash the answer is immutable', async () => {
    for (const [path, { serverRelativeURL }] of Object.entries(await index())) {
      const res = await server().admin.get(serverRelativeURL);
      expect(res.status, path).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/json');
      expect(res.headers['cache-control']).to.equal('public, immutable');
      const expires = Date.parse(res.headers.expires as string);
      expect(expires - Date.now()).to.be.above(360 * 24 * 3600 * 1000);
      expect(res.headers.etag).to.equal(`"${serverRelativeURL.split('hash=')[1]}"`);
      expect(res.body.openapi).to.equal('3.0.0');
      expect(Object.keys(res.body.paths).every((p) => p.startsWith(`/${path}/`))).to.equal(true);
      const plain = await server().admin.get(`/openapi/v3/${path}`);
      expect(plain.status).to.equal(200);
      expect(plain.headers['cache-control']).to.equal('no-cache, private');
      expect(plain.headers.expires).to.equal(undefined);
      expect(plain.text).to.equal(res.text);
    }
  });

  it('redirects a stale hash to the current one, answers If-None-Match with 304 and an unknown group version with 404', async () => {
    const url = (await index())['apis/apps/v1']!.serverRelativeURL;
    const stale = await server().admin.get('/openapi/v3/apis/apps/v1?hash=0123ABCD');
    expect(stale.status).to.equal(301);
    expect(stale.headers.location).to.equal(url);
    const first = await server().admin.get(url);
    const again = await server().admin.get(url, { headers: { 'If-None-Match': first.headers.etag as string } });
    expect(again.status).to.equal(304);
    expect(again.bytes.length).to.equal(0);
    const idx = await server().admin.get('/openapi/v3');
    expect((await server().admin.get('/openapi/v3', { headers: { 'If-None-Match': idx.headers.etag as string } })).status).to.equal(304);
    expect((await server().admin.get('/openapi/v3/apis/nothing.example/v1')).status).to.equal(404);
    expect((await server().admin.get('/openapi/v3/api/v1', { headers: { Accept: 'application/xml' } })).status).to.equal(406);
  });

  it('carries what kubectl looks for: the group-version-kind and fieldValidation on the PATCH of a resource path', async () => {
    const doc = (await server().admin.get('/openapi/v3/api/v1')).body;
    const patch = doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'].patch;
    expect(patch['x-kubernetes-group-version-kind']).to.deep.equal({ group: '', kind: 'ConfigMap', version: 'v1' });
    expect(patch.parameters.map((p: { name: string }) => p.name)).to.include('fieldValidation');
    expect(doc.components.schemas['io.orch.api.core.v1.ConfigMap']['x-kubernetes-group-version-kind']).to.deep.equal([{ group: '', kind: 'ConfigMap', version: 'v1' }]);
  });

  it('is forbidden to anonymous users and readable by any authenticated user', async () => {
    const url = (await index())['api/v1']!.serverRelativeURL;
    for (const path of ['/openapi/v2', '/openapi/v3', url]) {
      const anonymous = await server().anonymous.get(path);
      expect(anonymous.status, path).to.equal(403);
      expect(anonymous.body.message).to.equal(`forbidden: User "system:anonymous" cannot get path "${path.split('?')[0]}"`);
      expect((await server().admin.as({ token: 'usertoken' }).get(path)).status, path).to.equal(200);
      expect((await server().admin.get(path)).status, path).to.equal(200);
    }
  });
});
