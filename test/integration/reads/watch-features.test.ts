import { expect } from 'chai';
import { etcdctl } from '../../framework/etcd.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

describe('watch bookmarks and initial events (spec 000 § Watch parameters; spec 001 § Events)', () => {
  const server = useTestServer({ watchList: true, bookmarkIntervalMs: 300 });
  let n = 0;
  async function namespace(): Promise<string> {
    const ns = `wf${++n}`;
    await server().admin.post('/api/v1/namespaces', { metadata: { name: ns } });
    return `/api/v1/namespaces/${ns}/configmaps`;
  }

  it(`sends periodic BOOKMARKs carrying only metadata.resourceVersion of the requested kind${covers('000 § Watch parameters › allowWatchBookmarks', '001 § Watch events › BOOKMARK')}`, async () => {
    const cms = await namespace();
    const created = (await server().admin.post(cms, { metadata: { name: 'a' } })).body;
    const w = await server().admin.watch(`${cms}?watch=1&allowWatchBookmarks=true&resourceVersion=${created.metadata.resourceVersion}`);
    const bm = await w.until((e) => e.type === 'BOOKMARK', 5000);
    expect(bm.object).to.deep.equal({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: bm.object.metadata.resourceVersion } });
    expect(Number(bm.object.metadata.resourceVersion)).to.be.at.least(Number(created.metadata.resourceVersion));
    w.close();
  });

  it(`sends no BOOKMARK without allowWatchBookmarks${covers('000 § Watch parameters › allowWatchBookmarks', '001 § Watch events › BOOKMARK')}`, async () => {
    const cms = await namespace();
    const w = await server().admin.watch(`${cms}?watch=1&resourceVersion=0&timeoutSeconds=1`);
    const events = [];
    for (let ev = await w.next(3000); ev; ev = await w.next(3000)) events.push(ev);
    expect(events.filter((e) => e.type === 'BOOKMARK')).to.deep.equal([]);
  });

  it('sends a last BOOKMARK before closing at timeoutSeconds', async () => {
    const cms = await namespace();
    const w = await server().admin.watch(`${cms}?watch=1&allowWatchBookmarks=true&resourceVersion=0&timeoutSeconds=1`);
    const events = [];
    for (let ev = await w.next(3000); ev; ev = await w.next(3000)) events.push(ev);
    expect(events.length).to.be.greaterThan(0);
    expect(events[events.length - 1].type).to.equal('BOOKMARK');
  });

  it(`with sendInitialEvents: ADDED for the current state, a BOOKMARK marking their end, then live changes${covers('000 § Watch parameters › sendInitialEvents', '001 § Watch events › ADDED', '001 § Watch events › BOOKMARK')}`, async () => {
    const cms = await namespace();
    await server().admin.post(cms, { metadata: { name: 'x' } });
    await server().admin.post(cms, { metadata: { name: 'y' } });
    const w = await server().admin.watch(`${cms}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    expect(w.status).to.equal(200);
    const added = [await w.next(), await w.next()];
    expect(added.map((e) => [e.type, e.object.metadata.name])).to.deep.equal([['ADDED', 'x'], ['ADDED', 'y']]);
    const end = await w.next();
    expect(end.type).to.equal('BOOKMARK');
    expect(end.object.metadata.annotations).to.deep.equal({ 'orch.io/initial-events-end': 'true' });
    await server().admin.post(cms, { metadata: { name: 'z' } });
    const live = await w.until((e) => e.type !== 'BOOKMARK');
    expect([live.type, live.object.metadata.name]).to.deep.equal(['ADDED', 'z']);
    w.close();
  });

  it(`with sendInitialEvents and a resourceVersion: initial state not older than it${covers('000 § Watch parameters › sendInitialEvents')}`, async () => {
    const cms = await namespace();
    const rv = (await server().admin.post(cms, { metadata: { name: 'p' } })).body.metadata.resourceVersion;
    const w = await server().admin.watch(`${cms}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${rv}&allowWatchBookmarks=true`);
    const first = await w.next();
    expect([first.type, first.object.metadata.name]).to.deep.equal(['ADDED', 'p']);
    const end = await w.next();
    expect(end.type).to.equal('BOOKMARK');
    expect(Number(end.object.metadata.resourceVersion)).to.be.at.least(Number(rv));
    w.close();
  });

  it('drops a watch whose client left while it waited for a future resourceVersion', async () => {
    const cms = await namespace();
    const watchers = async () => Number(/apiserver_watch_cache_watchers\{resource="configmaps"\} (\d+)/.exec((await server().admin.get('/metrics')).text)![1]);
    await server().admin.post(cms, { metadata: { name: 'f0' } });
    const before = await watchers();
    const rv = Number((await server().admin.post(cms, { metadata: { name: 'f1' } })).body.metadata.resourceVersion);
    // A selector nothing matches: the watcher would never see an event that tells it the client is gone.
    const left = new AbortController();
    const pending = server().admin.rawStream(`${cms}?watch=1&labelSelector=never%3Dmatched&resourceVersion=${rv + 2}`, { signal: left.signal }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    left.abort();
    await pending;
    await server().admin.post(cms, { metadata: { name: 'f2' } });
    await server().admin.post(cms, { metadata: { name: 'f3' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server().admin.post(cms, { metadata: { name: 'f4' } });
    expect(await watchers()).to.equal(before);
  });

  it('reports the watch cache in /metrics', async () => {
    const res = await server().admin.get('/metrics');
    expect(res.text).to.match(/apiserver_watch_cache_objects\{resource="namespaces"\} \d+/);
    expect(res.text).to.match(/apiserver_watch_cache_events\{resource="configmaps"\} \d+/);
  });

  it(`answers a continue token whose revision was compacted with 410 and an inconsistent continue token${covers('000 § Chunked list parameters › continue', '001 § Errors › 410 Gone', '001 § Limits › Continue token lifetime')}`, async () => {
    const cms = await namespace();
    for (const name of ['c1', 'c2', 'c3']) await server().admin.post(cms, { metadata: { name } });
    const first = (await server().admin.get(`${cms}?limit=1`)).body;
    const latest = (await server().admin.post(cms, { metadata: { name: 'c4' } })).body.metadata.resourceVersion;
    await etcdctl(['compact', latest]);
    const res = await server().admin.get(`${cms}?limit=1&continue=${encodeURIComponent(first.metadata.continue)}`);
    expect(res.status).to.equal(410);
    expect(res.body.reason).to.equal('Expired');
    expect(res.body.message).to.match(/^The provided continue parameter is too old to display a consistent list result\./);
    const next = await server().admin.get(`${cms}?limit=1&continue=${encodeURIComponent(res.body.metadata.continue)}`);
    expect(next.status).to.equal(200);
    expect(next.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['c2']);
  });
});
