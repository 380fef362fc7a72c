/**
 * Rows of spec 000 (§ Resource operations, § Type and object metadata, § Modifying-request query
 * parameters) that no other test checks on their own: cluster-scoped list and get, the namespace
 * endpoints, a watch on an item path, `metadata.namespace` from the path, string maps and `pretty`.
 */
import { expect } from 'chai';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const RBAC = vendorGroup('rbac.authorization');
const CLUSTER_ROLES = `/apis/${RBAC}/v1/clusterroles`;
const NS = '/api/v1/namespaces';

describe('resources and endpoints (spec 000 § Resource operations, § Type and object metadata)', () => {
  const server = useTestServer();
  const names = (list: { items: { metadata: { name: string } }[] }) => list.items.map((i) => i.metadata.name);

  it(`lists and gets a cluster-scoped type on paths without a namespace segment${covers('000 § Resource operations › List, cluster-scoped type', '000 § Resource operations › Get, cluster-scoped', '000 § Terms › Cluster-scoped type')}`, async () => {
    const created = await server().admin.post(CLUSTER_ROLES, { metadata: { name: 'conformance-reader' }, rules: [] });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.metadata).to.not.have.property('namespace');
    const list = await server().admin.get(CLUSTER_ROLES);
    expect(list.status).to.equal(200);
    expect(list.body).to.include({ kind: 'ClusterRoleList', apiVersion: `${RBAC}/v1` });
    expect(list.body.metadata.resourceVersion).to.match(/^\d+$/);
    expect(names(list.body)).to.include('conformance-reader');
    const got = await server().admin.get(`${CLUSTER_ROLES}/conformance-reader`);
    expect(got.status).to.equal(200);
    expect(got.body).to.include({ kind: 'ClusterRole', apiVersion: `${RBAC}/v1` });
    expect(got.body.metadata.name).to.equal('conformance-reader');
    expect((await server().admin.get(`/apis/${RBAC}/v1/namespaces/default/clusterroles/conformance-reader`)).status).to.equal(404);
  });

  it(`lists namespaces as a NamespaceList and gets one as a Namespace${covers('000 § Resource operations › List namespaces', '000 § Resource operations › Get namespace')}`, async () => {
    expect((await server().admin.post(NS, { metadata: { name: 'conformance-ns' } })).status).to.equal(201);
    const list = await server().admin.get(NS);
    expect(list.status).to.equal(200);
    expect(list.body).to.include({ kind: 'NamespaceList', apiVersion: 'v1' });
    expect(names(list.body)).to.include.members(['default', 'conformance-ns']);
    const got = await server().admin.get(`${NS}/conformance-ns`);
    expect(got.status).to.equal(200);
    expect(got.body).to.include({ kind: 'Namespace', apiVersion: 'v1' });
    expect(got.body.metadata.name).to.equal('conformance-ns');
    expect(got.body.status.phase).to.equal('Active');
  });

  it(`watches a single object on its item path: its own events only${covers('000 § Resource operations › Watch', '000 § Verb mapping › GET or HEAD')}`, async () => {
    const cms = `${NS}/default/configmaps`;
    const a = (await server().admin.post(cms, { metadata: { name: 'watched-a' }, data: { v: '1' } })).body;
    await server().admin.post(cms, { metadata: { name: 'watched-b' } });
    const w = await server().admin.watch(`${cms}/watched-a?watch=1`);
    try {
      expect(w.status).to.equal(200);
      const added = await w.next();
      expect([added.type, added.object.kind, added.object.metadata.name]).to.deep.equal(['ADDED', 'ConfigMap', 'watched-a']);
      await server().admin.put(`${cms}/watched-b`, { metadata: { name: 'watched-b' }, data: { v: 'b' } });
      await server().admin.put(`${cms}/watched-a`, { ...a, data: { v: '2' } });
      const modified = await w.next();
      expect([modified.type, modified.object.metadata.name, modified.object.data.v]).to.deep.equal(['MODIFIED', 'watched-a', '2']);
    } finally {
      w.close();
    }
  });

  it(`sets metadata.namespace of a namespaced object from the path${covers('000 § Type and object metadata › namespace', '000 § Terms › Namespace-scoped type')}`, async () => {
    expect((await server().admin.post(NS, { metadata: { name: 'conformance-meta' } })).status).to.equal(201);
    const created = await server().admin.post(`${NS}/conformance-meta/configmaps`, { metadata: { name: 'placed' } });
    expect(created.status).to.equal(201);
    expect(created.body.metadata.namespace).to.equal('conformance-meta');
    expect((await server().admin.get(`${NS}/conformance-meta/configmaps/placed`)).body.metadata.namespace).to.equal('conformance-meta');
    expect((await server().admin.get(`${NS}/default/configmaps/placed`)).status).to.equal(404);
  });

  it(`keeps labels and annotations as maps of strings; a non-string value is 400${covers('000 § Type and object metadata › labels', '000 § Type and object metadata › annotations')}`, async () => {
    const cms = `${NS}/default/configmaps`;
    const created = await server().admin.post(cms, { metadata: { name: 'maps', labels: { app: 'web' }, annotations: { note: 'a b: c' } } });
    expect(created.status).to.equal(201);
    expect(created.body.metadata.labels).to.deep.equal({ app: 'web' });
    expect(created.body.metadata.annotations).to.deep.equal({ note: 'a b: c' });
    for (const key of ['labels', 'annotations']) {
      const res = await server().admin.post(cms, { metadata: { name: `bad-${key}`, [key]: { n: 1 } } });
      expect(res.status, key).to.equal(400);
      expect(res.body.message, key).to.include(`json: cannot unmarshal number into Go struct field ObjectMeta.metadata.${key} of type string`);
    }
  });

  it(`serves single checks at /readyz/<check> as at /livez/<check>, 404 for an unknown one${covers('000 § Health endpoints › GET /livez/<check_name>, GET /readyz/<check_name>')}`, async () => {
    const verbose = await server().admin.get('/readyz?verbose');
    expect(verbose.text).to.include('[+]etcd ok\n');
    for (const path of ['/readyz/etcd', '/readyz/ping', '/livez/ping']) {
      const one = await server().admin.get(path);
      expect([one.status, one.text], path).to.deep.equal([200, 'ok']);
    }
    expect((await server().admin.get('/readyz/nope')).status).to.equal(404);
  });

  it(`indents the JSON answer with ?pretty=true, also on a dry run${covers('000 § Modifying-request query parameters › pretty')}`, async () => {
    const cms = `${NS}/default/configmaps`;
    const res = await server().admin.request('POST', `${cms}?dryRun&pretty=true`, { body: { metadata: { name: 'pretty' }, data: { k: 'v' } } });
    expect(res.status).to.equal(201);
    expect(res.text).to.match(/^\{\n {2}"kind": "ConfigMap",\n {2}"apiVersion": "v1",\n/);
    expect(res.body.data).to.deep.equal({ k: 'v' });
    expect((await server().admin.get(`${cms}/pretty`)).status).to.equal(404);
    const plain = await server().admin.request('POST', `${cms}?dryRun`, { body: { metadata: { name: 'pretty' } } });
    expect(plain.text).to.match(/^\{"kind":"ConfigMap",/);
  });
});
