import { expect } from 'chai';
import type { TestResponse } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';

const NO_CACHE = 'no-cache, private';
const CM = '/api/v1/namespaces/default/configmaps';

describe('Cache-Control on every answer (upstream WithCacheControl)', () => {
  const server = useTestServer({ anonymousAuth: false, tokens: 'tok-nobody,nobody,uid-nobody' });

  const expectNoCache = (res: TestResponse, status: number) => {
    expect(res.status, res.text).to.equal(status);
    expect(res.headers['cache-control']).to.equal(NO_CACHE);
  };

  it('marks the answers of the resource verbs no-cache, private', async () => {
    const admin = server().admin;
    expectNoCache(await admin.post(CM, { metadata: { name: 'cc' }, data: { a: 'b' } }), 201);
    expectNoCache(await admin.get(`${CM}/cc`), 200);
    expectNoCache(await admin.get(`${CM}/cc?resourceVersion=0`), 200);
    expectNoCache(await admin.get(CM), 200);
    expectNoCache(await admin.patch(`${CM}/cc`, { data: { a: 'c' } }, 'application/merge-patch+json'), 200);
    expectNoCache(await admin.delete(`${CM}/cc`), 200);
  });

  it('marks errors no-cache, private: 404, 403 and 401', async () => {
    expectNoCache(await server().admin.get(`${CM}/missing`), 404);
    expectNoCache(await server().admin.as({ token: 'tok-nobody' }).get(CM), 403);
    expectNoCache(await server().admin.as({ token: 'not-a-token' }).get(CM), 401);
  });

  it('marks a watch, discovery, /version, /healthz and /metrics no-cache, private', async () => {
    const admin = server().admin;
    const watch = await admin.rawStream(`${CM}?watch=true`);
    try {
      expect(watch.status).to.equal(200);
      expect(watch.headers['cache-control']).to.equal(NO_CACHE);
    } finally {
      watch.close();
    }
    for (const path of ['/api', '/apis', '/api/v1', '/version', '/healthz', '/metrics']) {
      const res = await admin.get(path);
      expect(res.headers['cache-control'], path).to.equal(NO_CACHE);
    }
  });

  it('lets a handler set its own: the OpenAPI v3 document at its current hash is public, immutable', async () => {
    const admin = server().admin;
    const index = await admin.get('/openapi/v3');
    expectNoCache(index, 200);
    const url = (index.body as { paths: Record<string, { serverRelativeURL: string }> }).paths['api/v1']!.serverRelativeURL;
    const doc = await admin.get(url);
    expect(doc.status).to.equal(200);
    expect(doc.headers['cache-control']).to.equal('public, immutable');
  });
});
