import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const CMS = '/api/v1/namespaces/default/configmaps';

describe('malformed input gets a clear Status and changes nothing (spec 001 § Errors)', () => {
  const server = useTestServer();

  async function expectNotStored(name: string): Promise<void> {
    expect((await server().admin.get(`${CMS}/${name}`)).status).to.equal(404);
  }

  it('answers 400 for malformed JSON', async () => {
    const res = await server().admin.request('POST', CMS, { raw: '{"metadata": {"name": "bad1"', contentType: 'application/json' });
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'BadRequest', code: 400 });
    expect(res.body.message).to.equal(
      'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"metadata": {"name": "bad1")',
    );
    await expectNotStored('bad1');
  });

  it('answers 400 for malformed YAML', async () => {
    const res = await server().admin.request('POST', CMS, { raw: 'metadata:\n  name: [bad2\n', contentType: 'application/yaml' });
    expect(res.status).to.equal(400);
    expect(res.body.reason).to.equal('BadRequest');
    // Upstream's YAMLToJSON (sigs.k8s.io/yaml v1.4.0) passes go-yaml's error on bare.
    expect(res.body.message).to.equal(
      "the object provided is unrecognized (must be of type ConfigMap): yaml: line 2: did not find expected ',' or ']' (6d657461646174613a0a20206e616d653a205b626164320a)",
    );
  });

  it('answers 400 for bodies nested past the depth limit, and past upstream\'s 10 000 levels (JSON, YAML, patches), and keeps serving', async () => {
    const n = 20_000;
    const deep = `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    await server().admin.post(CMS, { metadata: { name: 'deep-target' } });
    const cases: [string, string, string][] = [
      ['POST', CMS, 'application/json'],
      ['PATCH', `${CMS}/deep-target`, 'application/merge-patch+json'],
      ['PATCH', `${CMS}/deep-target`, 'application/strategic-merge-patch+json'],
      ['PATCH', `${CMS}/deep-target?fieldManager=m`, 'application/apply-patch+yaml'],
    ];
    for (const [method, path, contentType] of cases) {
      const res = await server().admin.request(method, path, { raw: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep-target"},"x":${deep}}`, contentType });
      expect(res.status, contentType).to.equal(400);
      expect(res.body.message, contentType).to.match(/exceeded max depth/);
    }
    const yaml = await server().admin.request('POST', CMS, { raw: `metadata:\n  name: y\nx: ${'['.repeat(n)}${']'.repeat(n)}\n`, contentType: 'application/yaml' });
    expect(yaml.status).to.equal(400);
    expect((await server().admin.get('/healthz')).status).to.equal(200);
  });

  it('answers 400 for a JSON body that is not an object', async () => {
    const res = await server().admin.request('POST', CMS, { raw: '[1,2]', contentType: 'application/json' });
    expect(res.status).to.equal(400);
  });

  it('answers 400 when the body kind does not match the path', async () => {
    const res = await server().admin.post(CMS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bad3' } });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('the kind in the data (Secret) does not match the expected kind (ConfigMap)');
    await expectNotStored('bad3');
  });

  it('answers 400 when the body apiVersion does not match the path', async () => {
    const res = await server().admin.post(CMS, { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'bad4' } });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('the API version in the data (apps/v1) does not match the expected API version (v1)');
  });

  it('answers 400 when the body namespace differs from the path namespace', async () => {
    const res = await server().admin.post(CMS, { metadata: { name: 'bad5', namespace: 'orch-system' } });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('the namespace of the provided object does not match the namespace sent on the request');
    await expectNotStored('bad5');
  });

  it('answers 400 when a PUT body names another object than the URL', async () => {
    await server().admin.post(CMS, { metadata: { name: 'named' } });
    const res = await server().admin.put(`${CMS}/named`, { metadata: { name: 'other' } });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('the name of the object (other) does not match the name on the URL (named)');
  });

  it(`answers 400 for a field of the wrong type, naming the field${covers('001 § Errors › 400 Bad Request')}`, async () => {
    const res = await server().admin.post(CMS, { metadata: { name: 'bad6' }, data: { a: 5 } });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    );
    await expectNotStored('bad6');
  });

  it('answers 400 for a time Go does not parse, with Go\'s text: a day the month does not have, a lower-case t', async () => {
    const lease = (name: string, renewTime: string) => ({ metadata: { name }, spec: { renewTime } });
    const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    for (const [name, time, error] of [
      ['bad-day', '2024-02-30T00:00:00.000000Z', 'parsing time "2024-02-30T00:00:00.000000Z": day out of range'],
      ['bad-t', '2024-02-01t00:00:00.000000Z', 'parsing time "2024-02-01t00:00:00.000000Z" as "2006-01-02T15:04:05Z07:00": cannot parse "t00:00:00.000000Z" as "T"'],
    ]) {
      const res = await server().admin.post(leases, lease(name!, time!));
      expect(res.status, name).to.equal(400);
      expect(res.body).to.deep.include({ reason: 'BadRequest', message: `Lease in version "v1" cannot be handled as a Lease: ${error}` });
      expect((await server().admin.get(`${leases}/${name}`)).status).to.equal(404);
    }
  });

  it('answers 422 Invalid with one cause per field for an invalid name and label', async () => {
    const res = await server().admin.post(CMS, { metadata: { name: 'Bad_Name', labels: { 'a/b/c': 'x' } } });
    expect(res.status).to.equal(422);
    expect(res.body.reason).to.equal('Invalid');
    expect(res.body.details.kind).to.equal('ConfigMap');
    expect(res.body.details.name).to.equal('Bad_Name');
    const fields = res.body.details.causes.map((c: { field: string }) => c.field);
    expect(fields).to.deep.equal(['metadata.name', 'metadata.labels']);
    expect(res.body.details.causes[0]).to.include({ reason: 'FieldValueInvalid' });
    expect(res.body.message).to.match(/^ConfigMap "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
  });

  it('answers 422 with metadata.name Required when neither name nor generateName is given', async () => {
    const res = await server().admin.post(CMS, { metadata: {} });
    expect(res.status).to.equal(422);
    expect(res.body.details.causes).to.deep.equal([{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }]);
  });

  it('reads a null in a list or map of strings as Go does, the empty string: an empty finalizer is refused (422), an empty data value kept', async () => {
    const fin = await server().admin.request('POST', CMS, { raw: '{"metadata":{"name":"null-fin","finalizers":[null]}}', contentType: 'application/json' });
    expect(fin.status).to.equal(422);
    expect(fin.body.details.causes[0]).to.deep.equal({ reason: 'FieldValueInvalid', message: 'Invalid value: "": name part must be non-empty', field: 'metadata.finalizers' });
    await expectNotStored('null-fin');
    const data = await server().admin.request('POST', CMS, { raw: '{"metadata":{"name":"null-data"},"data":{"k":null}}', contentType: 'application/json' });
    expect(data.status).to.equal(201);
    expect(data.body.data).to.deep.equal({ k: '' });
  });

  it('reads a null list item of a struct as Go does, the zero struct, which validation then refuses (422, never 500)', async () => {
    for (const [path, body, cause] of [
      ['/api/v1/namespaces/default/pods', '{"metadata":{"name":"null-c"},"spec":{"containers":[null]}}', 'spec.containers[0].name: Required value'],
      ['/api/v1/namespaces/default/pods', '{"metadata":{"name":"null-o","ownerReferences":[null]},"spec":{"containers":[{"name":"a","image":"b"}]}}', 'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty'],
      ['/api/v1/namespaces/default/services', '{"metadata":{"name":"null-p"},"spec":{"ports":[null]}}', 'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive'],
      ['/apis/apps/v1/namespaces/default/deployments', '{"metadata":{"name":"null-e"},"spec":{"selector":{"matchExpressions":[null]},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"a","image":"b"}]}}}}', 'spec.selector.matchExpressions[0].key: Required value'],
    ]) {
      const res = await server().admin.request('POST', path!, { raw: body!, contentType: 'application/json' });
      expect(res.status, body).to.equal(422);
      const first = res.body.details.causes[0] as { field: string; message: string };
      expect(`${first.field}: ${first.message}`, body).to.equal(cause);
    }
  });

  it('sends a warning beyond ASCII as its UTF-8 bytes and a control character as a space, quoting the field as Go does', async () => {
    const body = Buffer.concat([Buffer.from('{"metadata":{"name":"warn-bytes"},"donn\u00e9es":1,"'), Buffer.from([0xff]), Buffer.from('":2,"tab\\there":3,"quo\\"te":4}')]);
    const res = await server().admin.request('POST', CMS, { raw: body, contentType: 'application/json' });
    expect(res.status).to.equal(201);
    const header = Buffer.from(String(res.headers.warning), 'latin1').toString('utf8');
    expect(header).to.equal('299 - "unknown field \\"donn\u00e9es\\"", 299 - "unknown field \\"\ufffd\\"", 299 - "unknown field \\"tab\\\\there\\"", 299 - "unknown field \\"quo\\\\\\"te\\""');
  });

  it('warns about unknown fields by default and drops them', async () => {
    const res = await server().admin.post(CMS, { metadata: { name: 'unk1', bogus: 1 }, extra: true });
    expect(res.status).to.equal(201);
    expect(res.headers.warning).to.include('299 - "unknown field \\"metadata.bogus\\""');
    expect(res.headers.warning).to.include('299 - "unknown field \\"extra\\""');
    expect(res.body).to.not.have.property('extra');
    expect(res.body.metadata).to.not.have.property('bogus');
  });

  it(`rejects unknown fields with 400 under fieldValidation=Strict, listing all of them${covers('001 § Errors › 400 Bad Request')}`, async () => {
    const res = await server().admin.post(`${CMS}?fieldValidation=Strict`, { metadata: { name: 'unk2' }, extra: 1, more: 2 });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "extra", unknown field "more"');
    await expectNotStored('unk2');
  });

  it('answers 422 Invalid (CreateOptions) for an unknown fieldValidation or dryRun value, as upstream', async () => {
    const fv = await server().admin.post(`${CMS}?fieldValidation=Loud`, { metadata: { name: 'x' } });
    expect([fv.status, fv.body.reason]).to.deep.equal([422, 'Invalid']);
    expect(fv.body.message).to.equal('CreateOptions.meta.orch.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"');
    expect((await server().admin.post(`${CMS}?dryRun=Some`, { metadata: { name: 'x' } })).status).to.equal(422);
    await expectNotStored('x');
  });

  it('answers 415 for an unsupported request Content-Type', async () => {
    const res = await server().admin.request('POST', CMS, { raw: '<x/>', contentType: 'application/xml' });
    expect(res.status).to.equal(415);
    expect(res.body.reason).to.equal('UnsupportedMediaType');
  });

  it('answers 413 for a body above 3 MiB', async () => {
    const res = await server().admin.request('POST', CMS, { raw: `{"metadata":{"name":"big"},"data":{"a":"${'x'.repeat(3 * 1024 * 1024)}"}}` });
    expect(res.status).to.equal(413);
    expect(res.body.reason).to.equal('RequestEntityTooLarge');
  });

  it(`answers 406 when nothing in Accept can be produced${covers('000 § Content negotiation and encoding › Accept (GET)', '001 § Errors › 406 Not Acceptable')}`, async () => {
    const res = await server().admin.get(CMS, { headers: { Accept: 'text/html' } });
    expect(res.status).to.equal(406);
    expect(res.body.reason).to.equal('NotAcceptable');
  });

  it('falls back to JSON when Accept first asks for a Table of another group', async () => {
    const res = await server().admin.get(CMS, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.example.io,application/json' } });
    expect(res.status).to.equal(200);
    expect(res.body.kind).to.equal('ConfigMapList');
  });

  it('ignores a Content-Type header on a GET', async () => {
    const res = await server().admin.get(CMS, { headers: { 'Content-Type': 'application/json' } });
    expect(res.status).to.equal(200);
  });

  it('answers YAML when asked', async () => {
    const res = await server().admin.get('/api/v1/namespaces/default', { headers: { Accept: 'application/yaml' } });
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/yaml/);
    expect(res.text).to.match(/^apiVersion: v1\nkind: Namespace\n/);
  });

  it('answers 404 with a Status for an unknown resource and 405 for an unsupported verb', async () => {
    const unknown = await server().admin.get('/api/v1/namespaces/default/widgets');
    expect(unknown.status).to.equal(404);
    expect(unknown.body.kind).to.equal('Status');
    const notAllowed = await server().admin.request('POST', `${CMS}/some-name`, { body: {} });
    expect(notAllowed.status).to.equal(405);
    expect(notAllowed.body.reason).to.equal('MethodNotAllowed');
  });
});
