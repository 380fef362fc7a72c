import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestClient } from '../../framework/client.js';
import { restartEtcd } from '../../framework/etcd.js';
import { useTestServer } from '../../framework/test-server.js';

interface Item {
  metadata: { name: string; resourceVersion: string };
  data?: Record<string, string>;
}

/** A client written like an informer: list, watch from the list's version, resume from the last version seen. */
class InformerLikeClient {
  readonly state = new Map<string, Item>();
  rv = '';
  relists = 0;

  constructor(private readonly client: TestClient, private readonly path: string) {}

  async list(): Promise<void> {
    const res = await this.client.get(this.path);
    this.state.clear();
    for (const i of res.body.items as Item[]) this.state.set(i.metadata.name, i);
    this.rv = res.body.metadata.resourceVersion;
    this.relists++;
  }

  /**
   * Watches until `stopAfter` events were applied, the stream ends, or no change came for
   * `idleMs`; returns how many changes were applied.
   */
  async watchOnce(stopAfter: number, idleMs: number): Promise<number> {
    const w = await this.client.watch(`${this.path}?watch=1&allowWatchBookmarks=true&resourceVersion=${this.rv}`);
    let applied = 0;
    let lastChange = Date.now();
    try {
      while (applied < stopAfter && Date.now() - lastChange < idleMs) {
        const ev = await w.next(idleMs).catch(() => null);
        if (ev === null) break;
        if (ev.type === 'ERROR') {
          await this.list();
          break;
        }
        this.rv = ev.object.metadata.resourceVersion;
        if (ev.type === 'BOOKMARK') continue;
        if (ev.type === 'DELETED') this.state.delete(ev.object.metadata.name);
        else this.state.set(ev.object.metadata.name, ev.object);
        applied++;
        lastChange = Date.now();
      }
    } finally {
      w.close();
    }
    return applied;
  }
}

describe('watch cache recovery and informer-style clients (issue #4 items 5 and 7)', function () {
  this.timeout(60_000);
  const server = useTestServer({ bookmarkIntervalMs: 500 });

  async function serverState(path: string): Promise<Map<string, string>> {
    const res = await server().admin.get(path);
    return new Map((res.body.items as Item[]).map((i) => [i.metadata.name, i.metadata.resourceVersion]));
  }
  const clientState = (c: InformerLikeClient) => new Map([...c.state].map(([k, v]) => [k, v.metadata.resourceVersion]));

  it('an informer-like client that is disconnected and resumes from its last version ends with exactly the server state', async () => {
    await server().admin.post('/api/v1/namespaces', { metadata: { name: 'inf' } });
    const path = '/api/v1/namespaces/inf/configmaps';
    for (let i = 0; i < 5; i++) await server().admin.post(path, { metadata: { name: `pre-${i}` } });
    const c = new InformerLikeClient(server().admin, path);
    await c.list();
    const writer = (async () => {
      for (let i = 0; i < 30; i++) {
        if (i % 3 === 0) await server().admin.post(path, { metadata: { name: `new-${i}` } });
        else if (i % 3 === 1) await server().admin.put(`${path}/pre-${i % 5}`, { metadata: { name: `pre-${i % 5}` }, data: { i: String(i) } });
        else await server().admin.delete(`${path}/new-${i - 2}`);
        await sleep(10);
      }
    })();
    for (let round = 0; round < 6; round++) await c.watchOnce(4, 2000);
    await writer;
    while ((await c.watchOnce(1000, 1500)) > 0);
    expect(clientState(c)).to.deep.equal(await serverState(path));
    expect(c.relists).to.equal(1);
  });

  it('keeps serving watches across an etcd restart without losing or repeating events', async () => {
    await server().admin.post('/api/v1/namespaces', { metadata: { name: 'rst' } });
    const path = '/api/v1/namespaces/rst/configmaps';
    const w = await server().admin.watch(`${path}?watch=1`);
    await server().admin.post(path, { metadata: { name: 'before' } });
    expect((await w.next()).object.metadata.name).to.equal('before');
    await restartEtcd();
    const deadline = Date.now() + 20_000;
    let created = false;
    while (!created && Date.now() < deadline) {
      created = (await server().admin.post(path, { metadata: { name: 'after' } }).catch(() => ({ status: 0 }))).status === 201;
      if (!created) await sleep(200);
    }
    expect(created, 'write after etcd restart').to.equal(true);
    await server().admin.post(path, { metadata: { name: 'after-2' } });
    const names = [(await w.next(15_000)).object.metadata.name, (await w.next(15_000)).object.metadata.name];
    expect(names).to.deep.equal(['after', 'after-2']);
    w.close();
    const list = await server().admin.get(`${path}?resourceVersion=0`);
    expect(list.body.items.map((i: Item) => i.metadata.name)).to.deep.equal(['after', 'after-2', 'before']);
  });
});
