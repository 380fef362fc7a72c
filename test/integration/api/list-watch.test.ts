import { expect } from 'chai';
import { etcdctl } from '../../framework/etcd.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const NS = '/api/v1/namespaces';

describe('list and watch (spec 000 § Collections, § Watch event document, § Resource versions)', () => {
  const server = useTestServer();
  let n = 0;
  async function freshNamespace(): Promise<string> {
    const name = `lw${++n}`;
    expect((await server().admin.post(NS, { metadata: { name } })).status).to.equal(201);
    return `${NS}/${name}/configmaps`;
  }
  const names = (list: { items: { metadata: { name: string } }[] }) => list.items.map((i) => i.metadata.name);

  it(`lists as <Kind>List with the revision it was read at${covers('000 § Terms › Collection', '000 § Resource operations › List, namespaced type')}`, async () => {
    const cms = await freshNamespace();
    await server().admin.post(cms, { metadata: { name: 'a' } });
    const res = await server().admin.get(cms);
    expect(res.body).to.include({ kind: 'ConfigMapList', apiVersion: 'v1' });
    expect(res.body.metadata.resourceVersion).to.match(/^\d+$/);
    expect(names(res.body)).to.deep.equal(['a']);
    expect(res.body.items[0]).to.include({ kind: 'ConfigMap', apiVersion: 'v1' });
  });

  it(`lists across all namespaces on the cluster path${covers('000 § Resource operations › List, namespaced type, all namespaces')}`, async () => {
    const cms = await freshNamespace();
    await server().admin.post(cms, { metadata: { name: 'everywhere' } });
    const res = await server().admin.get('/api/v1/configmaps');
    expect(res.status).to.equal(200);
    expect(names(res.body)).to.include('everywhere');
  });

  it(`chunks with limit and continue; every chunk carries the first resourceVersion${covers('000 § Chunked list parameters › limit', '000 § Chunked list parameters › continue')}`, async () => {
    const cms = await freshNamespace();
    for (const name of ['c1', 'c2', 'c3', 'c4', 'c5']) await server().admin.post(cms, { metadata: { name } });
    const first = (await server().admin.get(`${cms}?limit=2`)).body;
    expect(names(first)).to.deep.equal(['c1', 'c2']);
    expect(first.metadata.remainingItemCount).to.equal(3);
    expect(first.metadata.continue).to.be.a('string').and.not.equal('');
    await server().admin.post(cms, { metadata: { name: 'c0' } });
    const second = (await server().admin.get(`${cms}?limit=2&continue=${encodeURIComponent(first.metadata.continue)}`)).body;
    expect(second.metadata.resourceVersion).to.equal(first.metadata.resourceVersion);
    expect(names(second)).to.deep.equal(['c3', 'c4']);
    const third = (await server().admin.get(`${cms}?limit=2&continue=${encodeURIComponent(second.metadata.continue)}`)).body;
    expect(names(third)).to.deep.equal(['c5']);
    expect(third.metadata.continue ?? '').to.equal('');
    expect(third.metadata).to.not.have.property('remainingItemCount');
  });

  it('filters by label selector and by metadata.name field selector', async () => {
    const cms = await freshNamespace();
    await server().admin.post(cms, { metadata: { name: 'x', labels: { app: 'web', tier: 'front' } } });
    await server().admin.post(cms, { metadata: { name: 'y', labels: { app: 'db' } } });
    expect(names((await server().admin.get(`${cms}?labelSelector=${encodeURIComponent('app in (web,api),tier!=back')}`)).body)).to.deep.equal(['x']);
    expect(names((await server().admin.get(`${cms}?labelSelector=!tier`)).body)).to.deep.equal(['y']);
    expect(names((await server().admin.get(`${cms}?fieldSelector=metadata.name%3Dy`)).body)).to.deep.equal(['y']);
  });

  it('answers 400 for an unsupported field label or a malformed label selector', async () => {
    const cms = await freshNamespace();
    const field = await server().admin.get(`${cms}?fieldSelector=spec.foo%3Dbar`);
    expect(field.status).to.equal(400);
    expect(field.body.message).to.equal('field label not supported: spec.foo');
    const label = await server().admin.get(`${cms}?labelSelector=${encodeURIComponent('a b')}`);
    expect(label.status).to.equal(400);
  });

  it(`answers 400 for resourceVersionMatch without resourceVersion${covers('001 § Errors › 400 Bad Request')}`, async () => {
    const cms = await freshNamespace();
    const res = await server().admin.get(`${cms}?resourceVersionMatch=NotOlderThan`);
    expect(res.status).to.equal(400);
    expect(res.body.message).to.include('resourceVersionMatch is forbidden unless resourceVersion is provided');
  });

  for (const watchParam of ['1', 'true', 'True']) {
    it(`treats watch=${watchParam} as a watch: synthetic ADDED for existing objects, then changes${covers('000 § Watch parameters › watch', '000 § Resource operations › Watch', '001 § Watch events › ADDED', '001 § Watch events › MODIFIED')}`, async () => {
      const cms = await freshNamespace();
      await server().admin.post(cms, { metadata: { name: 'pre' } });
      const w = await server().admin.watch(`${cms}?watch=${watchParam}`);
      expect(w.status).to.equal(200);
      const added = await w.next();
      expect(added.type).to.equal('ADDED');
      expect(added.object).to.deep.include({ kind: 'ConfigMap', apiVersion: 'v1' });
      expect(added.object.metadata.name).to.equal('pre');
      const created = (await server().admin.post(cms, { metadata: { name: 'live' } })).body;
      expect((await w.next()).object.metadata.name).to.equal('live');
      await server().admin.put(`${cms}/live`, { ...created, data: { k: 'v' } });
      const modified = await w.next();
      expect(modified.type).to.equal('MODIFIED');
      expect(modified.object.data).to.deep.equal({ k: 'v' });
      await server().admin.delete(`${cms}/live`);
      const deleted = await w.next();
      expect(deleted.type).to.equal('DELETED');
      expect(deleted.object.metadata.name).to.equal('live');
      w.close();
    });
  }

  it(`from a resourceVersion sends only later changes${covers('000 § Watch parameters › resourceVersion', '001 § Watch events › ADDED')}`, async () => {
    const cms = await freshNamespace();
    const first = (await server().admin.post(cms, { metadata: { name: 'old' } })).body;
    await server().admin.post(cms, { metadata: { name: 'new' } });
    const w = await server().admin.watch(`${cms}?watch=1&resourceVersion=${first.metadata.resourceVersion}`);
    const ev = await w.next();
    expect(ev.type).to.equal('ADDED');
    expect(ev.object.metadata.name).to.equal('new');
    w.close();
  });

  it('applies label selectors to events: stops matching → DELETED, starts matching → ADDED', async () => {
    const cms = await freshNamespace();
    const obj = (await server().admin.post(cms, { metadata: { name: 'sel', labels: { on: 'yes' } } })).body;
    const w = await server().admin.watch(`${cms}?watch=1&labelSelector=on%3Dyes`);
    expect((await w.next()).type).to.equal('ADDED');
    const off = (await server().admin.put(`${cms}/sel`, { ...obj, metadata: { ...obj.metadata, resourceVersion: undefined, labels: { on: 'no' } } })).body;
    expect((await w.next()).type).to.equal('DELETED');
    await server().admin.put(`${cms}/sel`, { ...off, metadata: { ...off.metadata, labels: { on: 'yes' } } });
    expect((await w.next()).type).to.equal('ADDED');
    w.close();
  });

  it('watches one object by fieldSelector metadata.name (as kubectl delete --wait does)', async () => {
    const cms = await freshNamespace();
    await server().admin.post(cms, { metadata: { name: 'other' } });
    await server().admin.post(cms, { metadata: { name: 'target' } });
    const w = await server().admin.watch(`${cms}?watch=1&fieldSelector=metadata.name%3Dtarget`);
    const ev = await w.next();
    expect(ev.object.metadata.name).to.equal('target');
    await server().admin.delete(`${cms}/other`);
    await server().admin.delete(`${cms}/target`);
    const del = await w.next();
    expect(del.type).to.equal('DELETED');
    expect(del.object.metadata.name).to.equal('target');
    w.close();
  });

  it('a kubelet-style watch of pods by fieldSelector spec.nodeName (the watch cache index) sees its node only, a binding as ADDED', async () => {
    const pods = (await freshNamespace()).replace(/configmaps$/, 'pods');
    const pod = (name: string, nodeName?: string) => ({ metadata: { name }, spec: { ...(nodeName && { nodeName }), containers: [{ name: 'c', image: 'busybox' }] } });
    const w = await server().admin.watch(`${pods}?watch=1&fieldSelector=spec.nodeName%3Dn1`);
    expect((await server().admin.post(pods, pod('elsewhere', 'n2'))).status).to.equal(201);
    expect((await server().admin.post(pods, pod('unscheduled'))).status).to.equal(201);
    expect((await server().admin.post(pods, pod('here', 'n1'))).status).to.equal(201);
    const added = await w.next();
    expect([added.type, added.object.metadata.name]).to.deep.equal(['ADDED', 'here']);
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'unscheduled' }, target: { kind: 'Node', name: 'n1' } };
    expect((await server().admin.post(`${pods}/unscheduled/binding`, binding)).status).to.equal(201);
    const bound = await w.next();
    expect([bound.type, bound.object.metadata.name, bound.object.spec.nodeName]).to.deep.equal(['ADDED', 'unscheduled', 'n1']);
    await server().admin.delete(`${pods}/elsewhere?gracePeriodSeconds=0`);
    await server().admin.delete(`${pods}/here?gracePeriodSeconds=0`);
    // Upstream writes a Pod deleted with no grace period as terminating first, then removes it.
    const terminating = await w.next();
    expect([terminating.type, terminating.object.metadata.name, terminating.object.metadata.deletionGracePeriodSeconds]).to.deep.equal(['MODIFIED', 'here', 0]);
    const gone = await w.next();
    expect([gone.type, gone.object.metadata.name]).to.deep.equal(['DELETED', 'here']);
    w.close();
  });

  it(`answers a watch from before the retained history with one ERROR event carrying 410 Expired${covers('000 § Watch parameters › resourceVersion', '001 § Errors › 410 Gone', '001 § Limits › Watch history retained')}`, async () => {
    const cms = await freshNamespace();
    const w = await server().admin.watch(`${cms}?watch=1&resourceVersion=1`);
    expect(w.status).to.equal(200);
    const ev = await w.next();
    expect(ev.type).to.equal('ERROR');
    expect(ev.object).to.include({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(ev.object.message).to.match(/^too old resource version: 1 \(\d+\)$/);
    expect(await w.next()).to.equal(null);
  });

  it(`answers 410 for an Exact list at a compacted resourceVersion${covers('001 § Errors › 410 Gone')}`, async () => {
    const cms = await freshNamespace();
    const old = (await server().admin.post(cms, { metadata: { name: 'e1' } })).body.metadata.resourceVersion;
    const latest = (await server().admin.post(cms, { metadata: { name: 'e2' } })).body.metadata.resourceVersion;
    await etcdctl(['compact', latest]);
    const res = await server().admin.get(`${cms}?resourceVersion=${old}&resourceVersionMatch=Exact`);
    expect(res.status).to.equal(410);
    expect(res.body).to.include({ reason: 'Expired', code: 410 });
  });

  it(`serves HEAD like GET without a body${covers('000 § Verb mapping › GET or HEAD')}`, async () => {
    const cms = await freshNamespace();
    await server().admin.post(cms, { metadata: { name: 'h' } });
    const res = await server().admin.request('HEAD', `${cms}/h`);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/json');
    expect(res.text).to.equal('');
    expect((await server().admin.request('HEAD', `${cms}/missing`)).status).to.equal(404);
  });

  it('sends the response headers at once, before any event', async () => {
    const cms = await freshNamespace();
    const started = Date.now();
    const w = await server().admin.watch(`${cms}?watch=1&resourceVersion=0`);
    expect(w.status).to.equal(200);
    expect(w.headers['content-type']).to.equal('application/json');
    expect(Date.now() - started).to.be.below(5000);
    w.close();
  });

  it('ends the stream after timeoutSeconds', async () => {
    const cms = await freshNamespace();
    const w = await server().admin.watch(`${cms}?watch=1&timeoutSeconds=1`);
    expect(await w.next(5000)).to.equal(null);
  });
});
