import { expect } from 'chai';
import { etcdctl } from '../../framework/etcd.js';
import { useTestServer } from '../../framework/test-server.js';

const CMS = '/api/v1/namespaces/default/configmaps';

/** The exact stored value of an etcd key (etcdctl's JSON output carries it base64-encoded). */
async function storedValue(key: string): Promise<string> {
  const out = JSON.parse(await etcdctl(['get', key, '-w', 'json'])) as { kvs?: { value: string }[] };
  return Buffer.from(out.kvs![0]!.value, 'base64').toString('utf8');
}

/** The response text (without the newline that ends it, as upstream's) with the uid, resourceVersion and timestamps replaced. */
const normalized = (text: string) =>
  text
    .replace(/\n$/, '')
    .replace(/"uid":"[^"]+"/g, '"uid":"<uid>"')
    .replace(/"resourceVersion":"\d+"/g, '"resourceVersion":"<rv>"')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, '<time>');

const CANONICAL_CM =
  '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"NAME","namespace":"default","uid":"<uid>","resourceVersion":"<rv>","creationTimestamp":"<time>",' +
  '"managedFields":[{"manager":"golden","operation":"Update","apiVersion":"v1","time":"<time>","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:a":{},"f:b":{}}}}]},' +
  '"data":{"a":"2","b":"1"}}';

describe('canonical encoding in storage (issue #23 items 1-3)', () => {
  const server = useTestServer();

  it('answers objects in upstream field order, map keys sorted, whatever order the client sent', async () => {
    const created = await server().admin.request('POST', `${CMS}?fieldManager=golden`, {
      raw: '{"data":{"b":"1","a":"2"},"metadata":{"name":"order"},"apiVersion":"v1","kind":"ConfigMap"}',
      contentType: 'application/json',
    });
    expect(created.status).to.equal(201);
    expect(normalized(created.text)).to.equal(CANONICAL_CM.replace('NAME', 'order'));
    for (const rv of ['', '?resourceVersion=0']) expect(normalized((await server().admin.get(`${CMS}/order${rv}`)).text)).to.equal(CANONICAL_CM.replace('NAME', 'order'));
  });

  it('stores the canonical form with a trailing newline and without resourceVersion', async () => {
    await server().admin.post(`${CMS}?fieldManager=golden`, { data: { b: '1', a: '2' }, metadata: { name: 'stored' } });
    const value = await storedValue(`${server().prefix}/core/configmaps/default/stored`);
    expect(value.endsWith('}\n')).to.equal(true);
    expect(value).to.match(/^\{"kind":"ConfigMap","apiVersion":"v1","metadata":\{"name":"stored","namespace":"default","uid":"[^"]+","creationTimestamp":/);
    expect(value).not.to.include('resourceVersion');
  });

  it('reads a value written before the canonical form (no trailing newline) in canonical form, from etcd and from the watch cache', async () => {
    const key = `${server().prefix}/core/configmaps/default/legacy`;
    const legacy = {
      apiVersion: 'v1',
      metadata: { managedFields: [], creationTimestamp: '2026-01-01T00:00:00Z', uid: 'u-1', namespace: 'default', name: 'legacy', labels: { z: '1', a: '2' } },
      data: { b: '1', a: '2' },
      kind: 'ConfigMap',
    };
    await etcdctl(['put', key, JSON.stringify(legacy)]);
    const expected =
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"legacy","namespace":"default","uid":"<uid>","resourceVersion":"<rv>","creationTimestamp":"<time>","labels":{"a":"2","z":"1"}},"data":{"a":"2","b":"1"}}';
    expect(normalized((await server().admin.get(`${CMS}/legacy`)).text)).to.equal(expected);
    for (let i = 0; i < 50; i++) {
      const cached = await server().admin.get(`${CMS}/legacy?resourceVersion=0`);
      if (cached.status === 200) {
        expect(normalized(cached.text)).to.equal(expected);
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect.fail('the watch cache never served the legacy object');
  });

  it('a no-op update writes nothing and keeps the resourceVersion', async () => {
    const created = (await server().admin.post(CMS, { data: { a: '1' }, metadata: { name: 'noop' } })).body;
    const again = await server().admin.put(`${CMS}/noop`, { ...created, data: { a: '1' } });
    expect(again.status).to.equal(200);
    expect(again.body.metadata.resourceVersion).to.equal(created.metadata.resourceVersion);
  });

  it('answers a Status in upstream order: kind, apiVersion, metadata, status, message, reason, details, code', async () => {
    await server().admin.post(CMS, { metadata: { name: 'twice' } });
    const res = await server().admin.post(CMS, { metadata: { name: 'twice' } });
    expect(normalized(res.text)).to.equal(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"twice\\" already exists","reason":"AlreadyExists","details":{"name":"twice","kind":"configmaps"},"code":409}',
    );
  });

  it('answers a list kind first', async () => {
    const res = await server().admin.get(`${CMS}?labelSelector=none%3Dnone`);
    expect(normalized(res.text)).to.equal('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"<rv>"},"items":[]}');
  });
});
