import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { ObjectCodec } from '../../../lib/storage/etcd3/codec.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { DELETE_OBJECT, EVERYTHING, type StoredObject, type WatchEvent } from '../../../lib/storage/interface.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { EventReader, fixture } from '../../framework/storage-contract.js';

/** The JSON codec, counting the stored values it parses. */
class CountingCodec extends ObjectCodec {
  decoded = 0;
  override decode(key: string, value: Buffer, modRevision: string): StoredObject {
    this.decoded++;
    return super.decode(key, value, modRevision);
  }
}

/** The object etcd holds at `key` now, decoded by a codec of its own (what a watch of another process would carry). */
async function storedAt(key: string): Promise<StoredObject> {
  const out = JSON.parse(await etcdctl(['get', key, '-w', 'json'])) as { kvs: Array<{ value: string; mod_revision: number }> };
  const kv = out.kvs[0]!;
  return new ObjectCodec().decode(key, Buffer.from(kv.value, 'base64'), String(kv.mod_revision));
}

/**
 * A storage's watch carries the objects of the storage's own writes instead of parsing the bytes
 * etcd sends back (issue #17 item 1): the same objects as a decode would give, with nothing
 * decoded; a write of another storage instance (another worker or replica) is decoded.
 */
describe('storage/etcd3: watch events of the storage\'s own writes', function () {
  this.timeout(30_000);
  let codec: CountingCodec;
  let storage: Etcd3Storage;
  let other: Etcd3Storage;
  let prefix: string;
  let close: () => void;

  before(async () => {
    const { endpoint } = await useEtcd();
    const client = newEtcdClient([endpoint]);
    const otherClient = newEtcdClient([endpoint]);
    codec = new CountingCodec();
    storage = new Etcd3Storage(client, codec);
    other = new Etcd3Storage(otherClient);
    prefix = `/${randomUUID()}/registry/`;
    close = () => {
      client.close();
      otherClient.close();
    };
  });
  after(async () => {
    await etcdctl(['del', '--prefix', prefix]);
    close();
  });

  /** A watch of the prefix from now on. */
  async function watchFromNow(): Promise<EventReader> {
    const start = await storage.currentRevision();
    return new EventReader(await storage.watch(prefix, { predicate: EVERYTHING, resourceVersion: start }));
  }

  it('a create, an update and a delete arrive as the written objects, none decoded', async () => {
    const events = await watchFromNow();
    const key = `${prefix}own`;
    codec.decoded = 0;
    const created = await storage.create(key, fixture('own'));
    const added = await events.next();
    const createdInEtcd = await storedAt(key);
    const updated = await storage.guaranteedUpdate(key, { cachedExisting: created }, (cur) => ({ ...cur, data: { v: '2' } }));
    const modified = await events.next();
    const updatedInEtcd = await storedAt(key);
    await storage.guaranteedUpdate(key, { cachedExisting: updated }, () => DELETE_OBJECT);
    const deleted: WatchEvent = await events.next();
    events.watcher.stop();

    expect(codec.decoded).to.equal(0);
    expect([added.type, modified.type, deleted.type]).to.deep.equal(['ADDED', 'MODIFIED', 'DELETED']);
    // Exactly what a decode of the stored bytes gives, key order included.
    expect(JSON.stringify(added.object)).to.equal(JSON.stringify(createdInEtcd));
    expect(JSON.stringify(modified.object)).to.equal(JSON.stringify(updatedInEtcd));
    // A deleted object carries the revision of its deletion, as a decode of etcd's event does.
    const deleteRev = Number(deleted.object.metadata?.resourceVersion);
    expect(deleteRev).to.be.greaterThan(Number(updated.metadata?.resourceVersion));
    expect(JSON.stringify({ ...deleted.object, metadata: { ...deleted.object.metadata, resourceVersion: '' } })).to.equal(
      JSON.stringify({ ...updatedInEtcd, metadata: { ...updatedInEtcd.metadata, resourceVersion: '' } }),
    );
    // The response and the event are distinct objects at the top: a caller setting a field on
    // its answer does not change the watch's object.
    expect(modified.object).to.not.equal(updated);
    expect(modified.object.metadata).to.not.equal(updated.metadata);
  });

  it('writes of another storage instance are decoded', async () => {
    const events = await watchFromNow();
    const key = `${prefix}theirs`;
    codec.decoded = 0;
    const created = await other.create(key, fixture('theirs'));
    const added = await events.next();
    await other.guaranteedUpdate(key, { cachedExisting: created }, () => DELETE_OBJECT);
    const deleted = await events.next();
    events.watcher.stop();
    expect([added.type, deleted.type]).to.deep.equal(['ADDED', 'DELETED']);
    expect(codec.decoded).to.equal(2);
    expect(added.object).to.deep.equal(created);
  });

  it('writes made while no watch is open are not kept for a later watch', async () => {
    const key = `${prefix}unwatched`;
    const created = await storage.create(key, fixture('unwatched'));
    codec.decoded = 0;
    // A watch from before the create replays its event from etcd: decoded, as nothing was kept.
    const events = new EventReader(await storage.watch(key, { predicate: EVERYTHING, resourceVersion: String(Number(created.metadata!.resourceVersion) - 1) }));
    const added = await events.next();
    events.watcher.stop();
    expect(added.type).to.equal('ADDED');
    expect(codec.decoded).to.equal(1);
    expect(added.object).to.deep.equal(created);
  });
});
