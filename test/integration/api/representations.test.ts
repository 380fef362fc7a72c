import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const NS = '/api/v1/namespaces/default';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';
const POM = 'application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1';
const POML = 'application/json;as=PartialObjectMetadataList;g=meta.orch.io;v=v1';

describe('Table and metadata-only representations (spec 000 § Table representation; issue #6 items 5 and 6)', () => {
  const server = useTestServer();
  before(async () => {
    await server().admin.post(`${NS}/pods`, { metadata: { name: 'web-1', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }], nodeName: 'n1' } });
    await server().admin.post(`${NS}/configmaps`, { metadata: { name: 'cfg' }, data: { a: '1', b: '2' } });
    await server().admin.post('/apis/rbac.authorization.orch.io/v1/namespaces/default/roles', { metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] });
  });

  it('lists Pods as a Table with the upstream columns and Metadata objects by default', async () => {
    const res = await server().admin.get(`${NS}/pods`, { headers: { Accept: TABLE } });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ kind: 'Table', apiVersion: 'meta.orch.io/v1' });
    expect(res.body.metadata.resourceVersion).to.match(/^\d+$/);
    expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
    const row = res.body.rows[0];
    expect(row.cells.slice(0, 4)).to.deep.equal(['web-1', '0/1', 'Pending', '0']);
    expect(row.cells[6]).to.equal('n1');
    expect(row.object).to.deep.include({ kind: 'PartialObjectMetadata', apiVersion: 'meta.orch.io/v1' });
    expect(row.object.metadata.name).to.equal('web-1');
  });

  it('gets one object as a Table; includeObject=None and Object control row.object', async () => {
    const none = await server().admin.get(`${NS}/configmaps/cfg?includeObject=None`, { headers: { Accept: TABLE } });
    expect(none.body.rows).to.have.length(1);
    expect(none.body.rows[0].cells[0]).to.equal('cfg');
    expect(none.body.rows[0].object).to.equal(null);
    const full = await server().admin.get(`${NS}/configmaps/cfg?includeObject=Object`, { headers: { Accept: TABLE } });
    expect(full.body.rows[0].object.data).to.deep.equal({ a: '1', b: '2' });
    expect((await server().admin.get(`${NS}/configmaps/cfg?includeObject=All`, { headers: { Accept: TABLE } })).status).to.equal(400);
  });

  it('uses the default Name / Created At columns for a kind without its own', async () => {
    const res = await server().admin.get('/apis/rbac.authorization.orch.io/v1/namespaces/default/roles', { headers: { Accept: TABLE } });
    expect(res.body.columnDefinitions.map((c: { name: string; type: string }) => [c.name, c.type])).to.deep.equal([
      ['Name', 'string'],
      ['Created At', 'date'],
    ]);
    expect(res.body.rows[0].cells[0]).to.equal('reader');
  });

  it('answers metadata only: PartialObjectMetadata for get, PartialObjectMetadataList for list', async () => {
    const one = await server().admin.get(`${NS}/configmaps/cfg`, { headers: { Accept: POM } });
    expect(one.body).to.include({ kind: 'PartialObjectMetadata', apiVersion: 'meta.orch.io/v1' });
    expect(one.body).to.not.have.property('data');
    const list = await server().admin.get(`${NS}/configmaps`, { headers: { Accept: POML } });
    expect(list.body).to.include({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.orch.io/v1' });
    expect(list.body.items[0]).to.deep.include({ kind: 'PartialObjectMetadata' });
    expect(list.body.items[0]).to.not.have.property('data');
  });

  it('falls back along the Accept list: metadata-only of the wrong shape gives way to JSON', async () => {
    const res = await server().admin.get(`${NS}/configmaps`, { headers: { Accept: `${POM}, application/json` } });
    expect(res.status).to.equal(200);
    expect(res.body.kind).to.equal('ConfigMapList');
  });

  it('watches as Tables (headers on the first event) and as metadata only', async () => {
    const w = await server().admin.watch(`${NS}/configmaps?watch=1&resourceVersion=0`, { headers: { Accept: TABLE } });
    const first = await w.next();
    expect(first.type).to.equal('ADDED');
    expect(first.object.kind).to.equal('Table');
    expect(first.object.columnDefinitions.length).to.be.greaterThan(0);
    await server().admin.post(`${NS}/configmaps`, { metadata: { name: 'cfg2' } });
    const second = await w.until((e) => e.object.rows?.[0]?.cells?.[0] === 'cfg2');
    expect(second.object.columnDefinitions).to.equal(null);
    w.close();
    const m = await server().admin.watch(`${NS}/configmaps?watch=1&resourceVersion=0`, { headers: { Accept: POM } });
    const ev = await m.next();
    expect(ev.object.kind).to.equal('PartialObjectMetadata');
    m.close();
  });

  it('answers YAML Tables when asked', async () => {
    const res = await server().admin.get(`${NS}/configmaps`, { headers: { Accept: 'application/yaml;as=Table;g=meta.orch.io;v=v1' } });
    expect(res.headers['content-type']).to.equal('application/yaml');
    // Upstream's YAML (JSON → sigs.k8s.io/yaml) sorts the keys at every level.
    expect(res.text).to.match(/^apiVersion: meta.orch.io\/v1\ncolumnDefinitions:\n- /);
    expect(res.text).to.match(/\nkind: Table\nmetadata:\n/);
  });
});
