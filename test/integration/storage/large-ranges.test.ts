/**
 * Lists of large objects: a range whose answer passes the client's receive bound is asked for
 * again with half as many keys, so every list, and the watch cache's initial list, completes.
 * Before, 300 ConfigMaps of 1 MB made every range of them fail (256 MiB bound): after a restart
 * the ConfigMap watch cache never filled and every list of ConfigMaps timed out (504 after 60 s).
 * Here the client's bound is 1 MiB and the objects 100 KB each.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { EVERYTHING } from '../../../lib/storage/interface.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { EventReader, fixture } from '../../framework/storage-contract.js';

const OBJECTS = 40;
const BOUND = 1024 * 1024;

describe('storage/etcd3: ranges whose answer passes the client\'s receive bound', function () {
  this.timeout(60_000);
  let storage: Etcd3Storage;
  let prefix: string;
  let close: () => void;
  const names = Array.from({ length: OBJECTS }, (_, i) => `o${String(i).padStart(2, '0')}`);

  before(async () => {
    const { endpoint } = await useEtcd();
    const client = newEtcdClient([endpoint], undefined, BOUND);
    storage = new Etcd3Storage(client);
    prefix = `/${randomUUID()}/registry/`;
    close = () => client.close();
    const large = 'x'.repeat(100 * 1024);
    for (const name of names) await storage.create(`${prefix}${name}`, { ...fixture(name), data: { large } });
  });
  after(async () => {
    await etcdctl(['del', '--prefix', prefix]);
    close();
  });

  it('lists every object (about 4 MB) in pages that fit', async () => {
    const list = await storage.getList(prefix, { predicate: EVERYTHING });
    expect(list.items.map((o) => o.metadata!.name)).to.deep.equal(names);
    expect(list.continue).to.equal(undefined);
  });

  it('pages with a limit larger than fits: the same page, continue token and remaining count', async () => {
    const first = await storage.getList(prefix, { predicate: EVERYTHING, limit: 25 });
    expect(first.items.map((o) => o.metadata!.name)).to.deep.equal(names.slice(0, 25));
    expect(first.remainingItemCount).to.equal(OBJECTS - 25);
    const rest = await storage.getList(prefix, { predicate: EVERYTHING, limit: 25, continue: first.continue });
    expect(rest.items.map((o) => o.metadata!.name)).to.deep.equal(names.slice(25));
    expect(rest.resourceVersion).to.equal(first.resourceVersion);
    expect(rest.continue).to.equal(undefined);
  });

  it('a watch from no resourceVersion starts with every object (its initial list)', async () => {
    const reader = new EventReader(await storage.watch(prefix, { predicate: EVERYTHING }));
    const seen: string[] = [];
    for (let i = 0; i < OBJECTS; i++) {
      const ev = await reader.next();
      expect(ev.type).to.equal('ADDED');
      seen.push(String(ev.object.metadata!.name));
    }
    reader.watcher.stop();
    expect(seen).to.deep.equal(names);
  });
});
