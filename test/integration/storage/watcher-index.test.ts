import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { fieldValue } from '../../../lib/apis/field-selectors.js';
import { Cacher } from '../../../lib/storage/cacher/cacher.js';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { EVERYTHING, type SelectionPredicate, type StoredObject, type Watcher, type WatchEvent } from '../../../lib/storage/interface.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { eventually } from '../../framework/storage-contract.js';

const NODE = 'spec.nodeName';

/** A kubelet's predicate (`spec.nodeName=<node>`), or with `node` undefined one the index cannot use; counts its evaluations. */
function predicate(node: string | undefined, counts: Map<string, number>): SelectionPredicate {
  const name = node ?? '(unindexed)';
  return {
    empty: () => false,
    matches: (obj: StoredObject) => {
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return node === undefined || fieldValue(obj, NODE) === node;
    },
    matchesSingleName: () => undefined,
    matchesSingleField: (f) => (f === NODE ? node : undefined),
  };
}

/** Every event `w` holds now, without waiting. */
function drain(w: Watcher): WatchEvent[] {
  const out: WatchEvent[] = [];
  for (let ev = w.take(); ev; ev = w.take()) out.push(ev);
  return out;
}

/**
 * A cacher of Pods under a fresh prefix of the test etcd, indexed by spec.nodeName, with the
 * etcd storage it wraps (`delegate`); `stop` stops it and deletes its keys.
 */
async function indexedCacher(): Promise<{ cacher: Cacher; delegate: Etcd3Storage; prefix: string; stop: () => Promise<void> }> {
  const { endpoint } = await useEtcd();
  const client = newEtcdClient([endpoint]);
  const prefix = `/${randomUUID()}/registry/pods/`;
  const delegate = new Etcd3Storage(client);
  const cacher = new Cacher({ delegate, prefix, indexField: { name: NODE, valueOf: (o) => fieldValue(o, NODE) } });
  return {
    cacher,
    delegate,
    prefix,
    stop: async () => {
      cacher.stop();
      await etcdctl(['del', '--prefix', prefix]);
      client.close();
    },
  };
}

/**
 * Watchers indexed by the kind's index field (issue #24 item 1; upstream cacher trigger
 * functions): an event is evaluated by the watchers of its object's old and new value and by the
 * unindexed ones, whatever the number of nodes, and each watcher sees what it saw before.
 */
describe('watch cache: watchers indexed by field (spec.nodeName)', function () {
  this.timeout(30_000);

  it('offers a pod event only to the watchers of its old and new node and to the unindexed ones', async () => {
    const { cacher, prefix, stop } = await indexedCacher();
    const counts = new Map<string, number>();
    try {
      const nodes = Array.from({ length: 50 }, (_, i) => `node-${i}`);
      const watchers = new Map<string, Watcher>();
      for (const n of [...nodes, undefined]) watchers.set(n ?? '(unindexed)', await cacher.watch(prefix, { predicate: predicate(n, counts), resourceVersion: '0' }));
      const key = `${prefix}ns/p`;
      const pod = (node: string) => ({ metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: node } });
      const created = await cacher.create(key, pod('node-3'));
      const all = watchers.get('(unindexed)')!;
      await eventually(async () => drain(all).length === 1, 5_000, 'the unindexed watcher sees the create');
      expect(drain(watchers.get('node-3')!).map((e) => e.type)).to.deep.equal(['ADDED']);
      expect([...counts.keys()].sort()).to.deep.equal(['(unindexed)', 'node-3'], 'no other watcher evaluated the event');

      counts.clear();
      await cacher.guaranteedUpdate(key, { cachedExisting: created }, () => pod('node-7'));
      await eventually(async () => drain(all).length === 1, 5_000, 'the unindexed watcher sees the move');
      expect(drain(watchers.get('node-3')!).map((e) => e.type)).to.deep.equal(['DELETED'], 'the pod left node-3');
      expect(drain(watchers.get('node-7')!).map((e) => e.type)).to.deep.equal(['ADDED'], 'the pod arrived on node-7');
      expect([...counts.keys()].sort()).to.deep.equal(['(unindexed)', 'node-3', 'node-7']);

      counts.clear();
      await cacher.delete(key, {});
      await eventually(async () => drain(all).length === 1, 5_000, 'the unindexed watcher sees the delete');
      expect(drain(watchers.get('node-7')!).map((e) => e.type)).to.deep.equal(['DELETED']);
      expect([...counts.keys()].sort()).to.deep.equal(['(unindexed)', 'node-7']);
      for (const n of nodes) expect(drain(watchers.get(n)!), n).to.deep.equal([]);

      for (const w of watchers.values()) w.stop();
      await eventually(async () => cacher.watcherCount === 0, 5_000, 'stopped watchers leave the index');
    } finally {
      await stop();
    }
  });

  it('serves a list and a watch at resourceVersion 0 pinning spec.nodeName from the index: the same answer and pages as a scan, reading only that node\'s objects', async () => {
    const { cacher, delegate, prefix, stop } = await indexedCacher();
    const counts = new Map<string, number>();
    const names = (items: StoredObject[]) => items.map((o) => `${o.metadata!.namespace}/${o.metadata!.name}`);
    try {
      const pod = (ns: string, name: string, node: string) => ({ metadata: { name, namespace: ns }, spec: { nodeName: node } });
      // 20 nodes × 5 pods in two namespaces, created in an order unlike the key order.
      for (let j = 4; j >= 0; j--) for (let n = 0; n < 20; n++) await cacher.create(`${prefix}ns-${n % 2}/p-${n}-${j}`, pod(`ns-${n % 2}`, `p-${n}-${j}`, `node-${n}`));
      const moved = await cacher.get(`${prefix}ns-1/p-5-2`, {});
      await cacher.guaranteedUpdate(`${prefix}ns-1/p-5-2`, { cachedExisting: moved ?? undefined }, () => pod('ns-1', 'p-5-2', 'node-4'));
      await cacher.delete(`${prefix}ns-0/p-4-0`, {});
      const latest = await cacher.getList(prefix, { predicate: EVERYTHING });
      await cacher.getList(prefix, { predicate: EVERYTHING, resourceVersion: latest.resourceVersion });

      counts.clear();
      const listed = await cacher.getList(prefix, { predicate: predicate('node-4', counts), resourceVersion: '0' });
      expect(names(listed.items)).to.deep.equal(['ns-0/p-4-1', 'ns-0/p-4-2', 'ns-0/p-4-3', 'ns-0/p-4-4', 'ns-1/p-5-2']);
      expect(counts.get('node-4')).to.equal(5, 'only the objects of node-4 were read');
      const fromEtcd = await delegate.getList(prefix, { predicate: predicate('node-4', new Map()) });
      expect(names(listed.items)).to.deep.equal(names(fromEtcd.items));

      const inNamespace = await cacher.getList(`${prefix}ns-1/`, { predicate: predicate('node-4', counts), resourceVersion: '0' });
      expect(names(inNamespace.items)).to.deep.equal(['ns-1/p-5-2']);

      // Pages: the first from the index, the next from the snapshot, as a scan would give them.
      const pages: string[][] = [];
      let page = await cacher.getList(prefix, { predicate: predicate('node-4', counts), resourceVersion: '0', limit: 2 });
      pages.push(names(page.items));
      while (page.continue) {
        page = await cacher.getList(prefix, { predicate: predicate('node-4', counts), resourceVersion: '0', limit: 2, continue: page.continue });
        pages.push(names(page.items));
      }
      expect(pages).to.deep.equal([['ns-0/p-4-1', 'ns-0/p-4-2'], ['ns-0/p-4-3', 'ns-0/p-4-4'], ['ns-1/p-5-2']]);
      expect(page.resourceVersion).to.equal(listed.resourceVersion);

      counts.clear();
      const w = await cacher.watch(prefix, { predicate: predicate('node-5', counts), resourceVersion: '0' });
      await eventually(async () => (counts.get('node-5') ?? 0) > 0, 5_000, 'the initial events are sent');
      expect(drain(w).map((e) => `${e.type} ${(e.object as StoredObject).metadata!.name}`)).to.deep.equal(['ADDED p-5-0', 'ADDED p-5-1', 'ADDED p-5-3', 'ADDED p-5-4']);
      expect(counts.get('node-5')).to.equal(4, 'only the objects of node-5 were read');
      w.stop();
    } finally {
      await stop();
    }
  });
});
