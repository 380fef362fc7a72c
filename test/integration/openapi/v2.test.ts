import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { useTestServer } from '../../framework/test-server.js';
import { gnosticToJSON } from '../../unit/endpoints/openapi/gnostic-json.js';

const PROTO_REQUEST = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const PROTO_ANSWER = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const ETAG = /^"[0-9A-F]{128}"$/;

describe('/openapi/v2 over HTTPS: JSON, gnostic protobuf, ETags (issue #6 items 1, 2)', () => {
  const server = useTestServer();

  it('serves the Swagger 2.0 document as JSON by default', async () => {
    const res = await server().admin.get('/openapi/v2');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/json');
    expect(res.headers.etag).to.match(ETAG);
    expect(res.headers.vary).to.include('Accept');
    expect(res.body.swagger).to.equal('2.0');
    expect(res.body.info).to.deep.equal({ title: 'Orch', version: 'v1.30.0+orch-apiserver' });
    expect(res.body.definitions['io.orch.api.core.v1.Pod']['x-orch-group-version-kind']).to.deep.equal([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(res.body.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch.operationId).to.equal('patchAppsV1NamespacedDeployment');
    expect((await server().admin.get('/openapi/v2', { headers: { Accept: 'application/json' } })).text).to.equal(res.text);
  });

  it('serves the gnostic protobuf form with the dot content type, decoding to the same document', async () => {
    const json = await server().admin.get('/openapi/v2', { headers: { Accept: 'application/json' } });
    for (const accept of [PROTO_REQUEST, PROTO_ANSWER, `${PROTO_REQUEST}, application/json`]) {
      const res = await server().admin.get('/openapi/v2', { headers: { Accept: accept } });
      expect(res.status, accept).to.equal(200);
      expect(res.headers['content-type'], accept).to.equal(PROTO_ANSWER);
      expect(res.headers.etag).to.equal(json.headers.etag);
      expect(res.bytes.subarray(0, 4).equals(Buffer.from([0x6b, 0x38, 0x73, 0x00]))).to.equal(false);
      expect(gnosticToJSON(res.bytes)).to.deep.equal(json.body);
    }
  });

  it('negotiates by the Accept clauses in order and answers 406 when none is offered', async () => {
    const jsonFirst = await server().admin.get('/openapi/v2', { headers: { Accept: `application/json, ${PROTO_REQUEST}` } });
    expect(jsonFirst.headers['content-type']).to.equal('application/json');
    const weighted = await server().admin.get('/openapi/v2', { headers: { Accept: `application/json;q=0.5, ${PROTO_REQUEST}` } });
    expect(weighted.headers['content-type']).to.equal(PROTO_ANSWER);
    const none = await server().admin.get('/openapi/v2', { headers: { Accept: 'application/xml' } });
    expect(none.status).to.equal(406);
    expect(none.body).to.include({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
  });

  it('answers If-None-Match with 304 for both forms', async () => {
    for (const accept of ['application/json', PROTO_REQUEST]) {
      const first = await server().admin.get('/openapi/v2', { headers: { Accept: accept } });
      const etag = first.headers.etag as string;
      const again = await server().admin.get('/openapi/v2', { headers: { Accept: accept, 'If-None-Match': etag } });
      expect(again.status, accept).to.equal(304);
      expect(again.bytes.length).to.equal(0);
      expect(again.headers.etag).to.equal(etag);
      const listed = await server().admin.get('/openapi/v2', { headers: { Accept: accept, 'If-None-Match': `"other", ${etag}` } });
      expect(listed.status).to.equal(304);
      const stale = await server().admin.get('/openapi/v2', { headers: { Accept: accept, 'If-None-Match': '"0123"' } });
      expect(stale.status).to.equal(200);
      expect(stale.bytes.equals(first.bytes)).to.equal(true);
    }
  });

  it('gzips both forms for clients accepting gzip', async () => {
    for (const accept of ['application/json', PROTO_REQUEST]) {
      const plain = await server().admin.get('/openapi/v2', { headers: { Accept: accept } });
      const res = await server().admin.get('/openapi/v2', { headers: { Accept: accept, 'Accept-Encoding': 'gzip' } });
      expect(res.headers['content-encoding']).to.equal('gzip');
      expect(res.headers.vary).to.include('Accept-Encoding');
      expect(gunzipSync(res.bytes).equals(plain.bytes)).to.equal(true);
      expect(res.bytes.length).to.be.below(plain.bytes.length / 5);
    }
  });
});
