import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { ETCD_WATCH_BUFFERED_CHANGES } from '../../../lib/storage/etcd3/watcher.js';
import { EVERYTHING, type WatchEvent } from '../../../lib/storage/interface.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { eventually, fixture, rvOf } from '../../framework/storage-contract.js';

/** Watches served from etcd (uncached resources) hold a bounded backlog (issue #19 item 1). */
describe('storage/etcd3: a watch whose client stops reading', function () {
  this.timeout(60_000);

  it(`is closed once ${ETCD_WATCH_BUFFERED_CHANGES} changes wait untaken; what it delivered ends in order and a watch from its last resourceVersion resumes`, async () => {
    const { endpoint } = await useEtcd();
    const client = newEtcdClient([endpoint]);
    const storage = new Etcd3Storage(client);
    const prefix = `/${randomUUID()}/registry/`;
    try {
      const start = await storage.create(`${prefix}seed`, fixture('seed'));
      const w = await storage.watch(prefix, { predicate: EVERYTHING, resourceVersion: String(rvOf(start)) });
      const total = ETCD_WATCH_BUFFERED_CHANGES + 50;
      for (let i = 0; i < total; i += 50) {
        await Promise.all(Array.from({ length: 50 }, (_, j) => storage.create(`${prefix}o-${i + j}`, fixture(`o-${i + j}`))));
      }
      // The writes are acknowledged; give their watch events a moment to reach the watcher untaken.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const got: WatchEvent[] = [];
      let ended = false;
      const reading = (async () => {
        for await (const ev of w) got.push(ev);
        ended = true;
      })();
      await eventually(() => ended, 20_000, 'the stuck watch to end');
      await reading;
      expect(got.length).to.equal(ETCD_WATCH_BUFFERED_CHANGES);
      const rvs = got.map((e) => rvOf(e.object));
      expect(rvs).to.deep.equal([...rvs].sort((a, b) => a - b));
      const resumed = await storage.watch(prefix, { predicate: EVERYTHING, resourceVersion: String(rvs[rvs.length - 1]) });
      const rest: WatchEvent[] = [];
      for await (const ev of resumed) {
        rest.push(ev);
        if (rest.length === total - ETCD_WATCH_BUFFERED_CHANGES) break;
      }
      resumed.stop();
      expect(rest.map((e) => e.type)).to.deep.equal(Array(total - ETCD_WATCH_BUFFERED_CHANGES).fill('ADDED'));
    } finally {
      await etcdctl(['del', '--prefix', prefix]);
      client.close();
    }
  });
});
