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
      expect(res.body.message.startsWith('strict decoding error: ')).to.equal(true);
      for (const p of problems) expect(res.body.message).to.include(p);
      expect((await server().admin.get(`${CMS}/${name}`)).status).to.equal(404);
    });
  }

  it(`update (PUT), Strict: 400 for an unknown field${covers('000 § Field validation levels › Strict')}`, async () => {
    const name = fresh();
    await server().admin.post(CMS, { metadata: { name } });
    const res = await server().admin.put(`${CMS}/${name}?fieldValidation=Strict`, { metadata: { name }, bogus: 1 });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('strict decoding error: unknown field "bogus"');
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
      expect(strict.status).to.equal(400);
    });
  }

  it('patch application/json-patch+json: an unknown field in the result is reported', async () => {
    const name = fresh();
    await server().admin.post(CMS, { metadata: { name } });
    const res = await server().admin.patch(`${CMS}/${name}?fieldValidation=Strict`, [{ op: 'add', path: '/bogus', value: 1 }], 'application/json-patch+json');
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('strict decoding error: unknown field "bogus"');
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
