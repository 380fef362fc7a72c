import { expect } from 'chai';
import { configMap } from '../../../lib/apis/core/v1/config-map.js';
import { STATUS_KIND, decodeProtobuf, decodeWatchEvent, encodeProtobuf } from '../../../lib/apimachinery/serializers/protobuf/index.js';
import { useTestServer } from '../../framework/test-server.js';
import { firstFrame } from '../../framework/protobuf-watch.js';
import { covers } from '../../conformance/covers.js';

const CMS = '/api/v1/namespaces/default/configmaps';
const PB = 'application/vnd.orch.protobuf';
const resolve = (apiVersion: string, kind: string) => {
  if (apiVersion !== 'v1') return undefined;
  if (kind === 'ConfigMap') return configMap.schema;
  if (kind === 'ConfigMapList') return configMap.listSchema;
  return undefined;
};
const cmKind = { apiVersion: 'v1', kind: 'ConfigMap', schema: configMap.schema };

describe('protobuf on the wire (spec 000 § Protobuf envelope; issue #6 item 4)', () => {
  const server = useTestServer();

  it(`answers a get as a protobuf envelope that decodes to the JSON answer${covers('000 § Protobuf envelope › Unknown / typeMeta', '000 § Protobuf envelope › Unknown / raw')}`, async () => {
    await server().admin.post(CMS, { metadata: { name: 'pb1', labels: { a: 'b' } }, data: { k: 'v' } });
    const pb = await server().admin.get(`${CMS}/pb1`, { headers: { Accept: PB } });
    expect(pb.status).to.equal(200);
    expect(pb.headers['content-type']).to.equal(PB);
    expect([...pb.bytes.subarray(0, 4)]).to.deep.equal([0x6b, 0x38, 0x73, 0x00]);
    const decoded = decodeProtobuf(pb.bytes, resolve);
    expect(decoded).to.include({ apiVersion: 'v1', kind: 'ConfigMap' });
    const json = (await server().admin.get(`${CMS}/pb1`)).body;
    expect({ apiVersion: 'v1', kind: 'ConfigMap', ...decoded.object }).to.deep.equal(json);
  });

  it(`answers lists in protobuf and prefers the first acceptable type of the Accept list${covers('000 § Content negotiation and encoding › Accept (GET)')}`, async () => {
    const list = await server().admin.get(CMS, { headers: { Accept: `${PB}, application/json` } });
    expect(list.headers['content-type']).to.equal(PB);
    expect(decodeProtobuf(list.bytes, resolve).kind).to.equal('ConfigMapList');
    const any = await server().admin.get(CMS, { headers: { Accept: '*/*' } });
    expect(any.headers['content-type']).to.equal('application/json');
  });

  it(`accepts a protobuf request body and answers in protobuf when asked${covers('000 § Content negotiation and encoding › Content-Type (POST/PUT/PATCH)')}`, async () => {
    const body = encodeProtobuf({ metadata: { name: 'pb2' }, data: { x: '1' } }, cmKind);
    const res = await server().admin.request('POST', CMS, { raw: body, contentType: PB, headers: { Accept: PB } });
    expect(res.status).to.equal(201);
    expect(decodeProtobuf(res.bytes, resolve).object.data).to.deep.equal({ x: '1' });
    expect((await server().admin.get(`${CMS}/pb2`)).body.data).to.deep.equal({ x: '1' });
  });

  it('answers errors as a protobuf Status to a protobuf client', async () => {
    const res = await server().admin.get(`${CMS}/absent`, { headers: { Accept: PB } });
    expect(res.status).to.equal(404);
    expect(res.headers['content-type']).to.equal(PB);
    const status = decodeProtobuf(res.bytes, () => undefined);
    expect(status.kind).to.equal(STATUS_KIND.kind);
    expect(status.object).to.include({ reason: 'NotFound', code: 404, message: 'configmaps "absent" not found' });
  });

  it('streams watch events as length-prefixed protobuf frames', async () => {
    await server().admin.post(CMS, { metadata: { name: 'pb3' } });
    const { contentType, frame } = await firstFrame(server().admin, `${CMS}?watch=1&fieldSelector=metadata.name%3Dpb3`, `${PB};stream=watch`);
    expect(contentType).to.equal(`${PB};stream=watch`);
    const ev = decodeWatchEvent(frame, resolve);
    expect(ev.type).to.equal('ADDED');
    expect(ev.object.metadata).to.deep.include({ name: 'pb3' });
  });

  it(`rejects a body whose Content-Type does not match its encoding (400)${covers('000 § Content negotiation and encoding › Content-Type (POST/PUT/PATCH)')}`, async () => {
    const pbAsJson = await server().admin.request('POST', CMS, { raw: encodeProtobuf({ metadata: { name: 'x' } }, cmKind), contentType: 'application/json' });
    expect(pbAsJson.status).to.equal(400);
    const jsonAsPb = await server().admin.request('POST', CMS, { raw: JSON.stringify({ metadata: { name: 'x' } }), contentType: PB });
    expect(jsonAsPb.status).to.equal(400);
    expect(jsonAsPb.body.message).to.equal('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  });

  it('accepts the upstream protobuf media type name from stock clients and answers in that spelling', async () => {
    const stock = 'application/vnd.kubernetes.protobuf';
    const body = encodeProtobuf({ metadata: { name: 'pb4' } }, cmKind);
    const res = await server().admin.request('POST', CMS, { raw: body, contentType: stock, headers: { Accept: `${stock},application/json` } });
    expect(res.status).to.equal(201);
    expect(res.headers['content-type']).to.equal(stock);
  });
});
