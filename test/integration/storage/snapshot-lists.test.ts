/**
 * Chunked and Exact lists served from the watch cache's snapshots (issue #17 item 2; spec 000
 * § Chunked list parameters, § Resource versions), against a real server: every page carries the
 * first page's resourceVersion while another client writes between pages, the pages together
 * are exactly what etcd holds at that revision, they are counted as LISTs served by the cache,
 * and a token whose revision etcd compacted still ends in upstream's 410.
 */
import { expect } from 'chai';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { EVERYTHING } from '../../../lib/storage/interface.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { useTestServer } from '../../framework/test-server.js';

interface Item {
  metadata: { name: string; resourceVersion: string };
  data?: Record<string, string>;
}
interface Page {
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: Item[];
}

const NS = '/api/v1/namespaces';
const CACHE_LISTS = 'apiserver_cache_list_total{resource_prefix="/core/configmaps",index=""}';

describe('chunked and Exact lists from the watch cache (issue #17 item 2)', function () {
  this.timeout(60_000);
  const server = useTestServer();
  const admin = () => server().admin;
  let n = 0;

  /** A namespace with `count` ConfigMaps c00, c01, …; returns the collection path and namespace. */
  async function collection(count: number): Promise<{ cms: string; ns: string }> {
    const ns = `snap${++n}-${Date.now()}`;
    expect((await admin().post(NS, { metadata: { name: ns } })).status).to.equal(201);
    const cms = `${NS}/${ns}/configmaps`;
    for (let i = 0; i < count; i++) {
      const res = await admin().post(cms, { metadata: { name: `c${String(i).padStart(2, '0')}` }, data: { v: '1' } });
      expect(res.status).to.equal(201);
    }
    return { cms, ns };
  }

  async function cacheLists(): Promise<number> {
    const text = (await admin().get('/metrics')).text;
    const line = text.split('\n').find((l) => l.startsWith(`${CACHE_LISTS} `));
    return line === undefined ? 0 : Number(line.slice(CACHE_LISTS.length + 1));
  }

  async function page(path: string): Promise<Page> {
    const res = await admin().get(path);
    expect(res.status, res.text).to.equal(200);
    return res.body as Page;
  }

  /** What etcd itself holds under the namespace's ConfigMaps at `rv`, as name@resourceVersion=data. */
  async function etcdAt(ns: string, rv: string): Promise<string[]> {
    const { endpoint } = await useEtcd();
    const client = newEtcdClient([endpoint]);
    try {
      const list = await new Etcd3Storage(client).getList(`${server().prefix}/core/configmaps/${ns}/`, { predicate: EVERYTHING, resourceVersion: rv, resourceVersionMatch: 'Exact' });
      return list.items.map((o) => describeItem(o as unknown as Item));
    } finally {
      client.close();
    }
  }

  const describeItem = (o: Item) => `${o.metadata.name}@${o.metadata.resourceVersion}=${JSON.stringify(o.data ?? {})}`;

  it('pages keep the first revision while another client writes between them, and equal etcd at that revision', async () => {
    const { cms, ns } = await collection(12);
    const before = await cacheLists();
    const pages = [await page(`${cms}?limit=5`)];
    let w = 0;
    while (pages.at(-1)!.metadata.continue) {
      // Another client changes the collection ahead of and behind the pages already listed.
      w++;
      expect((await admin().post(cms, { metadata: { name: `a${w}` } })).status).to.equal(201);
      expect((await admin().post(cms, { metadata: { name: `z${w}` } })).status).to.equal(201);
      expect((await admin().put(`${cms}/c1${w - 1}`, { metadata: { name: `c1${w - 1}` }, data: { v: 'changed' } })).status).to.equal(200);
      expect((await admin().delete(`${cms}/c0${w + 5}`)).status).to.equal(200);
      pages.push(await page(`${cms}?limit=5&continue=${encodeURIComponent(pages.at(-1)!.metadata.continue!)}`));
    }
    const rv = pages[0]!.metadata.resourceVersion;
    expect(pages.map((p) => p.metadata.resourceVersion)).to.deep.equal([rv, rv, rv]);
    expect(pages.map((p) => p.items.length)).to.deep.equal([5, 5, 2]);
    expect(pages.map((p) => p.metadata.remainingItemCount)).to.deep.equal([7, 2, undefined]);
    const listed = pages.flatMap((p) => p.items.map(describeItem));
    expect(listed).to.deep.equal(await etcdAt(ns, rv));
    expect(listed.every((d) => d.endsWith('={"v":"1"}'))).to.equal(true);
    expect((await cacheLists()) - before).to.be.at.least(pages.length - 1);
  });

  it('serves an Exact list of a recent revision from the cache, equal to etcd at that revision', async () => {
    const { cms, ns } = await collection(3);
    const rv = (await page(cms)).metadata.resourceVersion;
    expect((await admin().delete(`${cms}/c01`)).status).to.equal(200);
    expect((await admin().post(cms, { metadata: { name: 'c09' } })).status).to.equal(201);
    const before = await cacheLists();
    const exact = await page(`${cms}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect((await cacheLists()) - before).to.equal(1);
    expect(exact.metadata.resourceVersion).to.equal(rv);
    expect(exact.items.map(describeItem)).to.deep.equal(await etcdAt(ns, rv));
    expect(exact.items.map((o) => o.metadata.name)).to.deep.equal(['c00', 'c01', 'c02']);
  });

  it('answers 410 Expired with an inconsistent continue token once etcd compacted the token revision', async () => {
    const { cms } = await collection(4);
    const first = await page(`${cms}?limit=2`);
    const latest = (await admin().post(cms, { metadata: { name: 'c99' } })).body.metadata.resourceVersion as string;
    await etcdctl(['compact', latest]);
    const res = await admin().get(`${cms}?limit=2&continue=${encodeURIComponent(first.metadata.continue!)}`);
    expect(res.status).to.equal(410);
    expect(res.body).to.include({ reason: 'Expired', code: 410 });
    expect(res.body.message).to.match(/^The provided continue parameter is too old to display a consistent list result\./);
    const rest = await page(`${cms}?limit=10&continue=${encodeURIComponent(res.body.metadata.continue as string)}`);
    expect(rest.items.map((o) => o.metadata.name)).to.deep.equal(['c02', 'c03', 'c99']);
  });
});
