/**
 * What one JSON patch may cost (upstream's bounds): at most 10,000 operations (413), and copies
 * adding at most 3 MiB (422, as any patch that does not apply). Before the copy bound, a 1.5 KB patch copying a part of a ConfigMap
 * into itself twenty times kept the event loop for 17 s and answered "Invalid string length".
 */
import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const JSON_PATCH = 'application/json-patch+json';

describe('JSON patch bounds', function () {
  this.timeout(60_000);
  const server = useTestServer();
  const admin = () => server().admin;
  let created: { metadata: { resourceVersion: string } };

  before(async () => {
    const res = await admin().post(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'patched' }, data: { a: 'x'.repeat(1024) } });
    expect(res.status).to.equal(201);
    created = res.body;
  });

  const unchanged = async () => {
    const got = await admin().get(`${CONFIGMAPS}/patched`);
    expect(got.body.metadata.resourceVersion).to.equal(created.metadata.resourceVersion);
    expect(got.body.data).to.deep.equal({ a: 'x'.repeat(1024) });
  };

  it('answers 422 for copies adding more than 3 MiB, and changes nothing', async () => {
    const ops: unknown[] = [{ op: 'copy', from: '/data', path: '/x' }];
    for (let i = 0; i < 24; i++) ops.push({ op: 'copy', from: '/x', path: `/x/y${i}` });
    const res = await admin().patch(`${CONFIGMAPS}/patched`, ops, JSON_PATCH);
    expect(res.status, res.text.slice(0, 300)).to.equal(422);
    // Upstream's answer to any JSON patch that does not apply: the reason is not told.
    expect(res.text).to.equal('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server rejected our request due to an error in our request","reason":"Invalid","details":{},"code":422}\n');
    await unchanged();
  });

  it('applies copies within the bound', async () => {
    const res = await admin().patch(`${CONFIGMAPS}/patched`, [{ op: 'copy', from: '/data/a', path: '/data/b' }, { op: 'test', path: '/data/b', value: 'x'.repeat(1024) }], JSON_PATCH);
    expect(res.status, res.text.slice(0, 300)).to.equal(200);
    expect(res.body.data.b).to.equal(res.body.data.a);
    const back = await admin().patch(`${CONFIGMAPS}/patched`, [{ op: 'remove', path: '/data/b' }], JSON_PATCH);
    expect(back.status).to.equal(200);
    created = back.body;
  });

  it('answers 413 for more than 10,000 operations, and changes nothing', async () => {
    const ops = Array.from({ length: 10_001 }, (_, i) => ({ op: 'add', path: `/data/k${i}`, value: 'y' }));
    const res = await admin().patch(`${CONFIGMAPS}/patched`, ops, JSON_PATCH);
    expect(res.status, res.text.slice(0, 300)).to.equal(413);
    expect(res.body.reason).to.equal('RequestEntityTooLarge');
    expect(res.body.message).to.equal('Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    await unchanged();
  });
});
