import { expect } from 'chai';
import type { TestResponse } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const CMS = '/api/v1/namespaces/default/configmaps';

/** One row of spec 000 § Field validation levels per level and body format. */
describe('field validation levels (spec 000 § Field validation levels)', () => {
  const server = useTestServer();
  let n = 0;
  const fresh = () => `fv${++n}`;

  const bodies = {
    json: (name: string) => ({ raw: `{"metadata":{"name":"${name}","labels":{"a":"1","a":"2"}},"bogus":true,"data":{"k":"v"}}`, contentType: 'application/json' }),
    yaml: (name: string) => ({ raw: `metadata:\n  name: ${name}\n  labels:\n    a: "1"\n    a: "2"\nbogus: true\ndata:\n  k: v\n`, contentType: 'application/yaml' }),
  };
  const problems = ['unknown field "bogus"', 'duplicate field "metadata.labels.a"'];
  const warningsOf = (res: TestResponse): string[] =>
    ([] as string[]).concat(res.headers.warning ?? []).flatMap((w) => w.split(/,(?=\s*299 )/)).map((w) => JSON.parse(w.trim().replace(/^299 - /, '')) as string);

  for (const [format, body] of Object.entries(bodies)) {
    it(`${format} create, Ignore: accepted, no warnings, unknown field dropped, last duplicate wins${covers('000 § Field validation levels › Ignore', '000 § Modifying-request query parameters › fieldValidation')}`, async () => {
      const name = fresh();
      const res = await server().admin.request('POST', `${CMS}?fieldValidation=Ignore`, body(name));
      expect(res.status).to.equal(201);
      expect(res.headers.warning).to.equal(undefined);
      expect(res.body).to.not.have.property('bogus');
      expect(res.body.metadata.labels).to.deep.equal({ a: '2' });
    });

    it(`${format} create, Warn (default): accepted with one Warning per unknown or duplicate field${covers('000 § Field validation levels › Warn', '000 § Modifying-request query parameters › fieldValidation')}`, async () => {
      const name = fresh();
      const res = await server().admin.request('POST', CMS, body(name));
      expect(res.status).to.equal(201);
      expect(warningsOf(res)).to.have.members(problems);
      expect(res.body).to.not.have.property('bogus');
    });

    it(`${format} create, Strict: 400 listing every unknown and duplicate field, nothing stored${covers('000 § Field validation levels › Strict', '000 § Modifying-request query parameters › fieldValidation', '001 § Errors › 400 Bad Request')}`, async () => {
      const name = fresh();
      const res = await server().admin.request('POST', `${CMS}?fieldValidation=Strict`, body(name));
      expect(res.status).to.equal(400);
      expect(res.body.reason).to.equal('BadRequest');
      expect(res.body.message.startsWith('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: ')).to.equal(true);
      for (const p of problems) expect(res.body.message).to.include(p);
      expect((await server().admin.get(`${CMS}/${name}`)).status).to.equal(404);
    });
  }

  it(`update (PUT), Strict: 400 for an unknown field${covers('000 § Field validation levels › Strict')}`, async () => {
    const name = fresh();
    await server().admin.post(CMS, { metadata: { name } });
    const res = await server().admin.put(`${CMS}/${name}?fieldValidation=Strict`, { metadata: { name }, bogus: 1 });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"');
  });

  for (const [type, patch] of [
    ['application/merge-patch+json', '{"bogus":1,"data":{"a":"1"},"data":{"b":"2"}}'],
    ['application/strategic-merge-patch+json', '{"bogus":1,"data":{"a":"1"},"data":{"b":"2"}}'],
  ] as const) {
    it(`patch ${type}: Warn reports unknown and duplicate fields; Strict rejects them`, async () => {
      const name = fresh();
      await server().admin.post(CMS, { metadata: { name } });
      const warn = await server().admin.request('PATCH', `${CMS}/${name}`, { raw: patch, contentType: type });
      expect(warn.status).to.equal(200);
      expect(warningsOf(warn)).to.have.members(['unknown field "bogus"', 'duplicate field "data"']);
      const strict = await server().admin.request('PATCH', `${CMS}/${name}?fieldValidation=Strict`, { raw: patch, contentType: type });
      expect(strict.status).to.equal(422);
      expect(strict.body.reason).to.equal('Invalid');
      expect(strict.body.details.causes).to.have.length(1);
      expect(strict.body.details.causes[0]).to.include({ reason: 'FieldValueInvalid', field: 'patch' });
      // The patch's own duplicates first, then the result's unknown fields, as upstream lists them.
      expect(strict.body.message).to.match(/^ "" is invalid: patch: Invalid value: ".*": strict decoding error: duplicate field "data", unknown field "bogus"$/s);
    });
  }

  /** The object as a GET answers it, parsed (key order kept): the raw parts of upstream's patched JSON. */
  const served = async (name: string) => (await server().admin.get(`${CMS}/${name}`)).body as { metadata: object };

  it(`merge patch, Strict: 422 on the field patch quoting the patched object as upstream's library writes it${covers('000 § Field validation levels › Strict')}`, async () => {
    const name = fresh();
    await server().admin.post(CMS, { metadata: { name }, data: { z: '1', a: '2' } });
    const cm = await served(name);
    const res = await server().admin.request('PATCH', `${CMS}/${name}?fieldValidation=Strict`, {
      raw: '{"data":{"m":"<&>"},"wat":{"y":1,"x":null,"w":[{"q":1,"p":null}]}}',
      contentType: 'application/merge-patch+json',
    });
    expect(res.status).to.equal(422);
    // The root and the merged data map are sorted; metadata keeps its encoding order; a new
    // object loses its null members and is sorted at every level; Go's HTML-safe escapes.
    const patched = `{"apiVersion":"v1","data":{"a":"2","m":"\\u003c\\u0026\\u003e","z":"1"},"kind":"ConfigMap","metadata":${JSON.stringify(cm.metadata)},"wat":{"w":[{"q":1}],"y":1}}`;
    const quoted = JSON.stringify(patched);
    expect(res.body.message).to.equal(` "" is invalid: patch: Invalid value: ${quoted}: strict decoding error: unknown field "wat"`);
    expect(res.body.details).to.deep.equal({ causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${quoted}: strict decoding error: unknown field "wat"`, field: 'patch' }] });
    expect((await server().admin.get(`${CMS}/${name}`)).body.data).to.deep.equal({ a: '2', z: '1' });
  });

  it('JSON patch, Strict: 422 quoting the result with only the walked containers sorted', async () => {
    const name = fresh();
    await server().admin.post(CMS, { metadata: { name, labels: { b: '1', a: '2' } } });
    const cm = (await served(name)) as { metadata: { labels: object; name: string } };
    const ops = [
      { op: 'add', path: '/bogus', value: { d: 1, c: 2 } },
      { op: 'add', path: '/metadata/labels/c', value: '3' },
    ];
    const res = await server().admin.patch(`${CMS}/${name}?fieldValidation=Strict`, ops, 'application/json-patch+json');
    expect(res.status).to.equal(422);
    // metadata was walked (sorted); labels was the last op's parent (sorted); the added value keeps the patch's order.
    const meta = Object.fromEntries(Object.entries({ ...cm.metadata, labels: { a: '2', b: '1', c: '3' } }).sort(([x], [y]) => (x < y ? -1 : 1)));
    const patched = `{"apiVersion":"v1","bogus":{"d":1,"c":2},"kind":"ConfigMap","metadata":${JSON.stringify(meta)}}`;
    expect(res.body.message).to.equal(` "" is invalid: patch: Invalid value: ${JSON.stringify(patched)}: strict decoding error: unknown field "bogus"`);
  });

  it('strategic merge patch, Strict: 422 quoting the patch as a Go map', async () => {
    const name = fresh();
    await server().admin.post(CMS, { metadata: { name } });
    const res = await server().admin.request('PATCH', `${CMS}/${name}?fieldValidation=Strict`, {
      raw: '{"metadata":{"labels":{"x":"1"}},"wat":{"b":[1,"s",true,null],"a":1.5}}',
      contentType: 'application/strategic-merge-patch+json',
    });
    expect(res.status).to.equal(422);
    expect(res.body.message).to.equal(' "" is invalid: patch: Invalid value: "map[metadata:map[labels:map[x:1]] wat:map[a:1.5 b:[1 s true <nil>]]]": strict decoding error: unknown field "wat"');
  });

  it('a patch whose result has a field of the wrong type: 422 on the field patch, whatever the level', async () => {
    const name = fresh();
    await server().admin.post(CMS, { metadata: { name } });
    const cm = await served(name);
    const res = await server().admin.request('PATCH', `${CMS}/${name}?fieldValidation=Ignore`, { raw: '{"data":"x"}', contentType: 'application/merge-patch+json' });
    expect(res.status).to.equal(422);
    const patched = `{"apiVersion":"v1","data":"x","kind":"ConfigMap","metadata":${JSON.stringify(cm.metadata)}}`;
    expect(res.body.message).to.equal(
      ` "" is invalid: patch: Invalid value: ${JSON.stringify(patched)}: json: cannot unmarshal string into Go struct field ConfigMap.data of type map[string]string`,
    );
  });

  it('a strategic merge patch whose result has a field of the wrong type: 422 with the unstructured converter\'s words', async () => {
    const name = fresh();
    await server().admin.post(CMS, { metadata: { name } });
    const smp = (raw: string) => server().admin.request('PATCH', `${CMS}/${name}`, { raw, contentType: 'application/strategic-merge-patch+json' });
    for (const [patch, quoted, detail] of [
      ['{"data":{"c":3}}', 'map[data:map[c:3]]', 'cannot convert int64 to string'],
      ['{"data":{"c":1.5}}', 'map[data:map[c:1.5]]', 'cannot convert float64 to string'],
      ['{"metadata":{"labels":"x"}}', 'map[metadata:map[labels:x]]', 'cannot restore map from string'],
      ['{"metadata":{"finalizers":{"a":"b"}}}', 'map[metadata:map[finalizers:map[a:b]]]', 'cannot restore slice from map'],
      ['{"immutable":{"a":"b"}}', 'map[immutable:map[a:b]]', 'cannot convert map[string]interface {} to bool'],
    ]) {
      const res = await smp(patch!);
      expect(res.status, patch).to.equal(422);
      expect(res.body.message, patch).to.equal(` "" is invalid: patch: Invalid value: "${quoted}": ${detail}`);
    }
  });

  it(`a wrong field type is 400 without the unknown-field list, whatever the level${covers('000 § Field validation levels › Strict')}`, async () => {
    for (const level of ['Ignore', 'Warn', 'Strict']) {
      const res = await server().admin.post(`${CMS}?fieldValidation=${level}`, { metadata: { name: fresh() }, data: 'not-a-map', bogus: 1 });
      expect(res.status, level).to.equal(400);
      expect(res.body.message).to.match(/cannot be handled as a ConfigMap/);
      expect(res.body.message).to.not.include('bogus');
    }
  });
});
