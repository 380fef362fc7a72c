import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import type { TestResponse } from '../../framework/client.js';

const NS = '/api/v1/namespaces';
const CMS = '/api/v1/namespaces/default/configmaps';

/** A pod manifest, as `kubectl create --raw /api/v1/namespaces -f pod.yaml` sends it. */
const POD_YAML = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: valid-pod\nspec:\n  containers:\n  - name: nginx\n    image: nginx\n';
const hex30 = (s: string): string => Buffer.from(s).subarray(0, 30).toString('hex');

/** The upstream message of transformDecodeError for a body the decoder could not read. */
function unrecognized(kind: string, decodeError: string, summary: string): string {
  return `the object provided is unrecognized (must be of type ${kind}): ${decodeError} (${summary})`;
}

function expectBadRequest(res: TestResponse, message: string): void {
  expect(res.status, res.text).to.equal(400);
  expect(res.body).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
}

describe('decode errors of request bodies speak upstream (issue #23 item 4)', () => {
  const server = useTestServer();
  const notJSON = "couldn't get version/kind; json parse error: invalid character 'a' looking for beginning of value";

  it('a YAML manifest sent as JSON to the namespaces collection', async () => {
    const res = await server().admin.request('POST', NS, { raw: POD_YAML, contentType: 'application/json' });
    expectBadRequest(res, unrecognized('Namespace', notJSON, `${hex30(POD_YAML)} ...`));
    expect(hex30(POD_YAML)).to.equal('61706956657273696f6e3a2076310a6b696e643a20506f640a6d65746164');
  });

  it('a YAML manifest sent as JSON to a ConfigMap collection, with or without a Content-Type', async () => {
    const expected = unrecognized('ConfigMap', notJSON, `${hex30(POD_YAML)} ...`);
    expectBadRequest(await server().admin.request('POST', CMS, { raw: POD_YAML, contentType: 'application/json' }), expected);
    expectBadRequest(await server().admin.request('POST', CMS, { raw: POD_YAML, contentType: 'application/json; charset=utf-8' }), expected);
  });

  it('the same for an update (PUT)', async () => {
    await server().admin.post(CMS, { metadata: { name: 'put-target' } });
    const res = await server().admin.request('PUT', `${CMS}/put-target`, { raw: POD_YAML, contentType: 'application/json' });
    expectBadRequest(res, unrecognized('ConfigMap', notJSON, `${hex30(POD_YAML)} ...`));
  });

  it('an empty body', async () => {
    const res = await server().admin.request('POST', CMS, { raw: '', contentType: 'application/json' });
    expectBadRequest(res, unrecognized('ConfigMap', "couldn't get version/kind; json parse error: unexpected end of JSON input", '<empty>'));
  });

  it('a cut object: the summary is the body as text when it starts with {', async () => {
    const res = await server().admin.request('POST', CMS, { raw: '{"a":', contentType: 'application/json' });
    expectBadRequest(res, unrecognized('ConfigMap', "couldn't get version/kind; json parse error: unexpected end of JSON input", '{"a":'));
  });

  it('an object body longer than 30 bytes: its first 30 bytes and " ..."', async () => {
    const raw = '{"metadata":{"name":"cut"},"data":{"a":"b"}';
    const res = await server().admin.request('POST', CMS, { raw, contentType: 'application/json' });
    expectBadRequest(res, unrecognized('ConfigMap', "couldn't get version/kind; json parse error: unexpected end of JSON input", `${raw.slice(0, 30)} ...`));
  });

  it('a short body that is not an object: all of it in hex, without " ..."', async () => {
    const res = await server().admin.request('POST', CMS, { raw: 'nope', contentType: 'application/json' });
    expectBadRequest(res, unrecognized('ConfigMap', "couldn't get version/kind; json parse error: invalid character 'o' in literal null (expecting 'u')", '6e6f7065'));
  });

  it('multibyte and control characters are quoted as Go quotes them', async () => {
    const res = await server().admin.request('POST', CMS, { raw: 'é', contentType: 'application/json' });
    expectBadRequest(res, unrecognized('ConfigMap', "couldn't get version/kind; json parse error: invalid character 'Ã' looking for beginning of value", 'c3a9'));
    const ctl = await server().admin.request('POST', CMS, { raw: '{"metadata":{"name":"a\tb"}}', contentType: 'application/json' });
    expectBadRequest(ctl, unrecognized('ConfigMap', "couldn't get version/kind; json parse error: invalid character '\\t' in string literal", '{"metadata":{"name":"a\tb"}}'));
  });

  it('trailing garbage after the object', async () => {
    const raw = '{"metadata":{"name":"x"}} x';
    const res = await server().admin.request('POST', CMS, { raw, contentType: 'application/json' });
    expectBadRequest(res, unrecognized('ConfigMap', "couldn't get version/kind; json parse error: invalid character 'x' after top-level value", raw));
  });

  it('JSON that is not an object, and a type meta that is not a string', async () => {
    const array = await server().admin.request('POST', CMS, { raw: '[1,2]', contentType: 'application/json' });
    expectBadRequest(
      array,
      unrecognized(
        'ConfigMap',
        'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
        '5b312c325d',
      ),
    );
    const kind = await server().admin.request('POST', CMS, { raw: '{"kind":5}', contentType: 'application/json' });
    expectBadRequest(kind, unrecognized('ConfigMap', "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string", '{"kind":5}'));
    const gv = await server().admin.request('POST', CMS, { raw: '{"apiVersion":"a/b/c"}', contentType: 'application/json' });
    expectBadRequest(gv, unrecognized('ConfigMap', 'unexpected GroupVersion string: a/b/c', '{"apiVersion":"a/b/c"}'));
  });

  it('null decodes to an empty object, which validation then refuses (422)', async () => {
    const res = await server().admin.request('POST', CMS, { raw: 'null', contentType: 'application/json' });
    expect(res.status).to.equal(422);
    expect(res.body.reason).to.equal('Invalid');
  });

  it('a YAML body that does not parse: go-yaml\'s error, passed on bare by YAMLToJSON', async () => {
    const raw = 'metadata:\n  name: [bad\n';
    const res = await server().admin.request('POST', CMS, { raw, contentType: 'application/yaml' });
    expectBadRequest(res, unrecognized('ConfigMap', "yaml: line 2: did not find expected ',' or ']'", Buffer.from(raw).toString('hex')));
    const tab = await server().admin.request('POST', NS, { raw: 'metadata:\n  name: x\n\tlabels: {}\n', contentType: 'application/yaml' });
    expectBadRequest(tab, unrecognized('Namespace', 'yaml: line 3: found a tab character that violates indentation', `${hex30('metadata:\n  name: x\n\tlabels: {}\n')} ...`));
  });

  it('a YAML body holding a list: the type meta cannot be read', async () => {
    const res = await server().admin.request('POST', CMS, { raw: '- a\n- b\n', contentType: 'application/yaml' });
    expectBadRequest(
      res,
      unrecognized(
        'ConfigMap',
        'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
        '2d20610a2d20620a',
      ),
    );
  });

  it('a DeleteOptions body that is not JSON: 400 BadRequest with the decoder error (upstream answers 500; malformed input is never a server error here)', async () => {
    await server().admin.post(CMS, { metadata: { name: 'del-target' } });
    const res = await server().admin.request('DELETE', `${CMS}/del-target`, { raw: 'gracePeriodSeconds: 0', contentType: 'application/json' });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: "couldn't get version/kind; json parse error: invalid character 'g' looking for beginning of value", reason: 'BadRequest', code: 400 });
    expect((await server().admin.get(`${CMS}/del-target`)).status).to.equal(200);
  });

  it('a DeleteOptions field of the wrong type: 400 BadRequest with the decoder\'s message (upstream answers 500), nothing deleted', async () => {
    await server().admin.post(CMS, { metadata: { name: 'del-typed' } });
    for (const [body, message] of [
      ['{"preconditions":{"uid":5}}', 'json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type string'],
      ['{"gracePeriodSeconds":"x"}', 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64'],
      ['{"orphanDependents":"yes"}', 'json: cannot unmarshal string into Go struct field DeleteOptions.orphanDependents of type bool'],
    ]) {
      const res = await server().admin.request('DELETE', `${CMS}/del-typed`, { raw: body!, contentType: 'application/json' });
      expect(res.status, body).to.equal(400);
      expect(res.body, body).to.deep.include({ reason: 'BadRequest', message });
    }
    expect((await server().admin.get(`${CMS}/del-typed`)).status).to.equal(200);
  });

  it('patch bodies that are not JSON: Go\'s syntax error, no JavaScript parser message', async () => {
    await server().admin.post(CMS, { metadata: { name: 'patch-target' } });
    for (const contentType of ['application/strategic-merge-patch+json', 'application/merge-patch+json', 'application/json-patch+json']) {
      const res = await server().admin.request('PATCH', `${CMS}/patch-target`, { raw: '{"data":', contentType });
      expect(res.status, contentType).to.equal(400);
      expect(res.body.reason, contentType).to.equal('BadRequest');
      expect(res.body.message, contentType).to.match(/unexpected end of JSON input$/);
    }
  });
});
