import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../../framework/test-server.js';

describe('several stateless replicas over one etcd (highly available deployment)', function () {
  this.timeout(60_000);
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    const prefix = `/${randomUUID()}/registry`;
    a = await startTestServer({ prefix });
    b = await startTestServer({ prefix });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('a write through one replica is read and watched through the other', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const w = await b.admin.watch(`${cms}?watch=1&resourceVersion=0`);
    const created = (await a.admin.post(cms, { metadata: { name: 'shared' }, data: { v: '1' } })).body;
    const ev = await w.until((e) => e.object?.metadata?.name === 'shared');
    expect(ev.type).to.equal('ADDED');
    expect(ev.object.metadata.resourceVersion).to.equal(created.metadata.resourceVersion);
    expect((await b.admin.get(`${cms}/shared`)).body.data).to.deep.equal({ v: '1' });
    w.close();
  });

  it('optimistic concurrency holds across replicas: the stale writer gets 409', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const created = (await a.admin.post(cms, { metadata: { name: 'contended' }, data: { v: '1' } })).body;
    expect((await b.admin.put(`${cms}/contended`, { ...created, data: { v: 'b' } })).status).to.equal(200);
    expect((await a.admin.put(`${cms}/contended`, { ...created, data: { v: 'a' } })).status).to.equal(409);
  });

  it('both replicas bootstrap the same system namespaces without conflict', async () => {
    const names = (await b.admin.get('/api/v1/namespaces')).body.items.map((n: { metadata: { name: string } }) => n.metadata.name);
    expect(names.filter((n: string) => n === 'default')).to.have.length(1);
    expect((await a.admin.get('/readyz')).status).to.equal(200);
    expect((await b.admin.get('/readyz')).status).to.equal(200);
  });

  it('a namespace deleted through one replica is emptied and removed', async () => {
    await a.admin.post('/api/v1/namespaces', { metadata: { name: 'ha-doomed' } });
    await b.admin.post('/api/v1/namespaces/ha-doomed/configmaps', { metadata: { name: 'x' } });
    await b.admin.delete('/api/v1/namespaces/ha-doomed');
    const deadline = Date.now() + 15_000;
    while ((await a.admin.get('/api/v1/namespaces/ha-doomed')).status !== 404) {
      if (Date.now() > deadline) throw new Error('namespace not removed');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
});
