import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const NS = '/api/v1/namespaces';

async function fill(server: ReturnType<ReturnType<typeof useTestServer>>, ns: string, count: number): Promise<string> {
  await server.admin.post(NS, { metadata: { name: ns } });
  const cms = `${NS}/${ns}/configmaps`;
  await Promise.all(Array.from({ length: count }, (_, i) => server.admin.post(cms, { metadata: { name: `cm-${i}` }, data: { v: 'x'.repeat(1024) } })));
  return cms;
}

describe('gzip responses (spec 000 § Content negotiation and encoding; issue #6 item 9)', () => {
  const server = useTestServer();

  it(`gzips a list above 128 KiB when the client accepts gzip${covers('000 § Content negotiation and encoding › Accept-Encoding')}`, async () => {
    const cms = await fill(server(), 'gz-big', 200);
    const res = await server().admin.get(cms, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.status).to.equal(200);
    expect(res.headers['content-encoding']).to.equal('gzip');
    const list = JSON.parse(gunzipSync(res.bytes).toString());
    expect(list.items).to.have.length(200);
  });

  it(`sends small responses and clients without gzip uncompressed${covers('000 § Content negotiation and encoding › Accept-Encoding')}`, async () => {
    const cms = await fill(server(), 'gz-small', 3);
    const small = await server().admin.get(cms, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(small.headers['content-encoding']).to.equal(undefined);
    expect(small.body.items).to.have.length(3);
    const big = await server().admin.get(`${NS}/gz-big/configmaps`);
    expect(big.headers['content-encoding']).to.equal(undefined);
    expect(big.body.items).to.have.length(200);
  });
});

describe('gzip turned off (--feature-gates APIResponseCompression=false)', () => {
  const server = useTestServer({ responseCompression: false });

  it(`never compresses${covers('000 § Content negotiation and encoding › Accept-Encoding')}`, async () => {
    const cms = await fill(server(), 'gz-off', 200);
    const res = await server().admin.get(cms, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers['content-encoding']).to.equal(undefined);
    expect(res.body.items).to.have.length(200);
  });
});
