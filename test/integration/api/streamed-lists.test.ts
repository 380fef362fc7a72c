/**
 * Lists streamed item by item (issue #17 item 5; spec 000 § Content negotiation and encoding):
 * a large list arrives chunked (no Content-Length, as upstream's streamed collections), its bytes
 * are the compact encoding of the whole list, gzip still applies, protobuf streams too, and a
 * client that goes away mid-list leaves the server serving.
 */
import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { configMap } from '../../../lib/apis/core/v1/config-map.js';
import { decodeProtobuf } from '../../../lib/apimachinery/serializers/protobuf/index.js';
import { PROTOBUF_MEDIA_TYPE as PB } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const NS = '/api/v1/namespaces';
const COUNT = 300;
const resolve = (apiVersion: string, kind: string) => (apiVersion === 'v1' && kind === 'ConfigMapList' ? configMap.listSchema : undefined);

/** The list's text with its own resourceVersion (the first one: kind, apiVersion, metadata come first) blanked. */
const withoutListRV = (text: string) => text.replace(/"resourceVersion":"\d+"/, '"resourceVersion":""');

describe('lists streamed item by item (issue #17 item 5)', () => {
  const server = useTestServer();
  const cms = `${NS}/streamed/configmaps`;

  before(async () => {
    await server().admin.post(NS, { metadata: { name: 'streamed' } });
    for (let i = 0; i < COUNT; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, j) => server().admin.post(cms, { metadata: { name: `cm-${String(i + j).padStart(3, '0')}` }, data: { v: 'x'.repeat(1024), u: 'grüße ✓ 日本語 🎉' } })));
    }
  });

  it('answers a large JSON list chunked, in the compact encoding of the whole list, and gzipped to the same bytes', async () => {
    const plain = await server().admin.get(cms);
    expect(plain.status).to.equal(200);
    expect(plain.headers['content-length']).to.equal(undefined);
    expect(plain.headers['transfer-encoding']).to.equal('chunked');
    expect(plain.body.items).to.have.length(COUNT);
    expect(plain.text).to.equal(`${JSON.stringify(plain.body)}\n`);
    expect(plain.body.items[1].data.u).to.equal('grüße ✓ 日本語 🎉');
    const gz = await server().admin.get(cms, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(withoutListRV(gunzipSync(gz.bytes).toString('utf8'))).to.equal(withoutListRV(plain.text));
  });

  it('answers a large protobuf list chunked, decoding to the JSON list', async () => {
    const pb = await server().admin.get(cms, { headers: { Accept: PB } });
    expect(pb.status).to.equal(200);
    expect(pb.headers['content-type']).to.equal(PB);
    expect(pb.headers['content-length']).to.equal(undefined);
    const decoded = decodeProtobuf(pb.bytes, resolve);
    expect(decoded.kind).to.equal('ConfigMapList');
    const items = decoded.object.items as { metadata: { name: string }; data: Record<string, string> }[];
    expect(items.map((i) => i.metadata.name)).to.deep.equal(Array.from({ length: COUNT }, (_, i) => `cm-${String(i).padStart(3, '0')}`));
    expect(items[299]!.data).to.deep.equal({ v: 'x'.repeat(1024), u: 'grüße ✓ 日本語 🎉' });
  });

  it('keeps small lists one buffer with their Content-Length', async () => {
    const small = await server().admin.get(`${cms}?limit=2`);
    expect(small.headers['content-length']).to.equal(String(small.bytes.length));
    expect(small.body.items).to.have.length(2);
    expect(small.body.metadata.remainingItemCount).to.equal(COUNT - 2);
  });

  for (const accept of ['application/json', PB]) {
    it(`stays healthy when a client goes away in the middle of a list (${accept})`, async () => {
      for (let i = 0; i < 5; i++) {
        const res = await server().admin.rawStream(cms, { headers: { Accept: accept, 'Accept-Encoding': i % 2 ? 'gzip' : 'identity' } });
        expect(res.status).to.equal(200);
        await new Promise((done) => res.body.once('data', done));
        res.close();
      }
      expect((await server().admin.get('/readyz')).status).to.equal(200);
      const after = await server().admin.get(cms);
      expect(after.body.items).to.have.length(COUNT);
    });
  }
});
