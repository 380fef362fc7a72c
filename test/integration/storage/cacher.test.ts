import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Cacher } from '../../../lib/storage/cacher/cacher.js';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { describeStorageContract } from '../../framework/storage-contract.js';
import { EVERYTHING, type WatchEvent } from '../../../lib/storage/interface.js';

/**
 * The watch cache must honour the same storage contract as etcd itself (ARCHITECTURE.md § Tests:
 * contract suites run against every implementation of an interface).
 */
describeStorageContract('watch cache over etcd3', async () => {
  const { endpoint } = await useEtcd();
  const client = newEtcdClient([endpoint]);
  const delegate = new Etcd3Storage(client);
  const prefix = `/${randomUUID()}/registry/`;
  const cacher = new Cacher({ delegate, prefix, bookmarkIntervalMs: 1000 });
  return {
    storage: cacher,
    prefix,
    historyOutlivesCompaction: true,
    compact: (rev) => delegate.compact(rev),
    cleanup: async () => {
      cacher.stop();
      await etcdctl(['del', '--prefix', prefix]);
      client.close();
    },
  };
});

describe('watch cache history (spec 001 § Limits: watch history retained)', function () {
  this.timeout(30_000);

  it('answers a watch from before the cache began with one ERROR event carrying 410 Expired', async () => {
    const { endpoint } = await useEtcd();
    const client = newEtcdClient([endpoint]);
    const delegate = new Etcd3Storage(client);
    const prefix = `/${randomUUID()}/registry/`;
    const before = await delegate.create(`${prefix}ns/early`, { metadata: { name: 'early', namespace: 'ns' } });
    await delegate.create(`${prefix}ns/later`, { metadata: { name: 'later', namespace: 'ns' } });
    const cacher = new Cacher({ delegate, prefix });
    try {
      const w = await cacher.watch(prefix, { predicate: EVERYTHING, resourceVersion: before.metadata!.resourceVersion as string });
      const events: WatchEvent[] = [];
      for await (const ev of w) events.push(ev);
      expect(events).to.have.length(1);
      expect(events[0]!.type).to.equal('ERROR');
      expect(events[0]!.object).to.include({ reason: 'Expired', code: 410 });
      expect(events[0]!.object.message).to.match(new RegExp(`^too old resource version: ${before.metadata!.resourceVersion as string} \\(\\d+\\)$`));
    } finally {
      cacher.stop();
      await etcdctl(['del', '--prefix', prefix]);
      client.close();
    }
  });
});

describe('watch cache quorum gets (issue #17 item 1; spec 000 § Resource versions)', function () {
  this.timeout(30_000);

  it("answers a read-only quorum get with its own copy once etcd shows it current, and any other caller with a decoded object", async () => {
    const { endpoint } = await useEtcd();
    const client = newEtcdClient([endpoint]);
    const delegate = new Etcd3Storage(client);
    const prefix = `/${randomUUID()}/registry/`;
    const key = `${prefix}ns/cm`;
    const cacher = new Cacher({ delegate, prefix });
    try {
      const created = await cacher.create(key, { metadata: { name: 'cm', namespace: 'ns' }, data: { v: '1' } });
      const rv = created.metadata!.resourceVersion as string;
      const cached = await cacher.get(key, { resourceVersion: rv });
      const shared = await cacher.get(key, { readOnlyResult: true });
      expect(shared).to.equal(cached, 'the read-only caller gets the cache copy');
      const own = await cacher.get(key, {});
      expect(own).to.not.equal(cached, 'a caller that may mutate gets its own object');
      expect(own).to.deep.equal(cached);
      await delegate.guaranteedUpdate(key, {}, (cur) => ({ ...cur, data: { v: '2' } }));
      const fresh = await cacher.get(key, { readOnlyResult: true });
      expect(fresh!.data).to.deep.equal({ v: '2' }, 'the answer is current even before the cache has seen the write');
    } finally {
      cacher.stop();
      await etcdctl(['del', '--prefix', prefix]);
      client.close();
    }
  });
});

describe('watch cache consistent lists (issue #24 item 3)', function () {
  this.timeout(30_000);

  it("confirms a quiet cache against etcd, but lets a cache whose events are flowing reach the list's revision by them", async () => {
    const { endpoint } = await useEtcd();
    const client = newEtcdClient([endpoint]);
    const delegate = new Etcd3Storage(client);
    const base = `/${randomUUID()}/registry/`;
    const prefix = `${base}pods/`;
    const other = `${base}leases/ns/l`;
    let checks = 0;
    const changesSince = delegate.changesSince.bind(delegate);
    delegate.changesSince = (p, since) => (checks++, changesSince(p, since));
    const cacher = new Cacher({ delegate, prefix });
    let writing = true;
    try {
      await cacher.create(`${prefix}ns/p`, { metadata: { name: 'p', namespace: 'ns' }, data: { v: '0' } });
      await delegate.create(other, { metadata: { name: 'l', namespace: 'ns' } });
      // Quiet: etcd's revision moved past the cache's by a write elsewhere; only a check can show the cache current.
      await new Promise((r) => setTimeout(r, 200));
      checks = 0;
      expect((await cacher.getList(prefix, { predicate: EVERYTHING })).items).to.have.length(1);
      expect(checks, 'a quiet cache is confirmed').to.be.at.least(1);

      let v = 0;
      const writer = (async () => {
        while (writing) {
          await delegate.guaranteedUpdate(`${prefix}ns/p`, {}, (cur) => ({ ...cur, data: { v: String(++v) } }));
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      await new Promise((r) => setTimeout(r, 200));
      checks = 0;
      for (let i = 0; i < 5; i++) {
        await delegate.guaranteedUpdate(other, {}, (cur) => ({ ...cur, metadata: { ...(cur.metadata as object), labels: { i: String(i) } } }));
        expect((await cacher.getList(prefix, { predicate: EVERYTHING })).items).to.have.length(1);
      }
      expect(checks, 'no etcd check while events flow').to.equal(0);
      writing = false;
      await writer;
    } finally {
      writing = false;
      cacher.stop();
      await etcdctl(['del', '--prefix', base]);
      client.close();
    }
  });
});
