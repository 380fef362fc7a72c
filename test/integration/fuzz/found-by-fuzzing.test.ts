/**
 * The requests the bad-input property suite (bad-input.property.test.ts, issue #19 item 6) found
 * answered wrongly, kept as plain regression tests: each fails without its fix.
 */
import { expect } from 'chai';
import { MAX_REQUEST_BODY_BYTES } from '../../../lib/endpoints/handlers/body.js';
import { WireSender } from '../../framework/fuzz/http.js';
import { useTestServer } from '../../framework/test-server.js';

const CMS = '/api/v1/namespaces/default/configmaps';

describe('requests found by the bad-input fuzzer (issue #19 item 6)', () => {
  const server = useTestServer();

  it('answers 413 with Connection: close, so a keep-alive connection never stalls behind the unread body', async () => {
    const s = server();
    // One connection: a request after an oversized one must get a fresh connection and an answer.
    const sender = new WireSender({ url: s.url, ca: s.admin.ca, cert: s.admin.creds.cert!, key: s.admin.creds.key!, connections: 1, answerMs: 10_000 });
    try {
      const big = Buffer.from(`{"metadata":{"name":"huge"},"data":{"k":"${'x'.repeat(MAX_REQUEST_BODY_BYTES)}"}}`);
      for (let i = 0; i < 3; i++) {
        const res = await sender.send({ method: 'PATCH', path: `${CMS}/absent`, headers: { 'Content-Type': 'application/merge-patch+json' }, body: big });
        expect(res.status).to.equal(413);
        expect(res.headers.connection).to.equal('close');
        expect(res.json).to.include({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
      }
      const after = await sender.send({ method: 'GET', path: `${CMS}/absent`, headers: {} });
      expect(after.status).to.equal(404);
    } finally {
      sender.close();
    }
  });

  it('creates an object whose keyed list has an item without its key, without managed fields (upstream UpdateNoErrors), instead of 500', async () => {
    const res = await server().admin.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'keyless' }, secrets: [{ name: 'a' }, { uid: 'no-name' }] });
    expect(res.status).to.equal(201);
    expect(res.body.secrets).to.deep.equal([{ name: 'a' }, { uid: 'no-name' }]);
    expect(res.body.metadata.managedFields).to.equal(undefined);
  });

  it('answers 415 for a Content-Type that is not type/subtype, instead of decoding the body as JSON', async () => {
    const res = await server().admin.request('POST', CMS, { raw: '{"metadata":{"name":"ct"}}', contentType: 'a'.repeat(2000) });
    expect(res.status).to.equal(415);
    expect(res.body).to.include({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 });
    expect((await server().admin.get(`${CMS}/ct`)).status).to.equal(404);
  });

  it('answers 400 for a resourceVersion past 2^64-1 at once, instead of waiting 3 s for a revision that can never come', async () => {
    const res = await server().admin.get(`${CMS}/x?resourceVersion=${'9'.repeat(30)}`);
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ kind: 'Status', reason: 'BadRequest', code: 400, message: `invalid resource version: ${'9'.repeat(30)}` });
  });
});
