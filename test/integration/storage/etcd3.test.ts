import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { COMPACTED_WATCH_MESSAGE } from '../../../lib/storage/etcd3/watcher.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { EVERYTHING, type Watcher } from '../../../lib/storage/interface.js';
import { describeStorageContract, EventReader, fixture, rvOf } from '../../framework/storage-contract.js';

/** An Etcd3Storage on the run's etcd with a fresh random key prefix. */
async function newEtcd3(): Promise<{ storage: Etcd3Storage; client: ReturnType<typeof newEtcdClient>; prefix: string; close(): Promise<void> }> {
  const { endpoint } = await useEtcd();
  const client = newEtcdClient([endpoint]);
  const prefix = `/${randomUUID()}/registry/`;
  return {
    storage: new Etcd3Storage(client),
    client,
    prefix,
    close: async () => {
      await etcdctl(['del', '--prefix', prefix]);
      client.close();
    },
  };
}

describeStorageContract('etcd3', async () => {
  const { storage, prefix, close } = await newEtcd3();
  return { storage, prefix, compact: (rev) => storage.compact(rev), cleanup: close, compactedWatchMessage: COMPACTED_WATCH_MESSAGE };
});

/** The etcd key-value of `key` as etcdctl reports it (value decoded). */
async function rawKV(key: string): Promise<{ value: string; mod_revision: number; version: number } | undefined> {
  const out = JSON.parse(await etcdctl(['get', key, '-w', 'json'])) as { kvs?: Array<{ value: string; mod_revision: number; version: number }> };
  const kv = out.kvs?.[0];
  return kv && { ...kv, value: Buffer.from(kv.value, 'base64').toString('utf8') };
}

describe('storage/etcd3: how objects sit in etcd (ARCHITECTURE.md § Storage rules)', function () {
  this.timeout(30_000);
  let s: Awaited<ReturnType<typeof newEtcd3>>;
  before(async () => {
    s = await newEtcd3();
  });
  after(async () => {
    await s.close();
  });

  it('resourceVersion is the etcd mod_revision of the key', async () => {
    const key = `${s.prefix}rv`;
    const created = await s.storage.create(key, fixture('rv'));
    expect(rvOf(created)).to.equal((await rawKV(key))!.mod_revision);
    const updated = await s.storage.guaranteedUpdate(key, {}, (cur) => ({ ...cur, data: { v: '2' } }));
    expect(rvOf(updated)).to.equal((await rawKV(key))!.mod_revision);
  });

  it('the stored value never contains the resourceVersion', async () => {
    const key = `${s.prefix}value`;
    await s.storage.create(key, fixture('value'));
    await s.storage.guaranteedUpdate(key, {}, (cur) => ({ ...cur, data: { v: '2' } }));
    const stored = JSON.parse((await rawKV(key))!.value) as { metadata: Record<string, unknown> };
    expect(stored.metadata).to.not.have.property('resourceVersion');
    expect(stored.metadata.name).to.equal('value');
  });

  it('a no-op update sends no write to etcd (the key version stays)', async () => {
    const key = `${s.prefix}noop`;
    await s.storage.create(key, fixture('noop'));
    const before = await rawKV(key);
    await s.storage.guaranteedUpdate(key, {}, (cur) => cur);
    expect(await rawKV(key)).to.deep.equal(before);
  });

  it('compact(rev) makes revisions before rev unreadable and keeps rev readable', async () => {
    const key = `${s.prefix}compact`;
    const a = await s.storage.create(key, fixture('compact'));
    const b = await s.storage.guaranteedUpdate(key, {}, (cur) => ({ ...cur, data: { v: '2' } }));
    await s.storage.compact(String(rvOf(b)));
    let err: unknown;
    try {
      await etcdctl(['get', key, `--rev=${rvOf(a)}`]);
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.include('compacted');
    expect(await etcdctl(['get', key, `--rev=${rvOf(b)}`, '--print-value-only'])).to.include('"v":"2"');
  });
});

describe('storage/etcd3: watch start (spec 000 § Resource versions, Watch semantics: "start is consistent")', function () {
  this.timeout(30_000);
  let s: Awaited<ReturnType<typeof newEtcd3>>;
  before(async () => {
    s = await newEtcd3();
  });
  after(async () => {
    await s.close();
  });

  it('a single-key watch from unset resourceVersion loses no write made right after its initial read', async () => {
    const key = `${s.prefix}race`;
    await s.storage.create(key, fixture('race', { v: '1' }));
    // A concurrent writer changes the object right after the watch's first read of it.
    const kv = s.client.kv;
    const realRange = kv.range.bind(kv);
    let raced = false;
    kv.range = async (req, ...rest) => {
      const res = await realRange(req, ...rest);
      if (!raced && Buffer.from(req.key ?? '').toString() === key) {
        raced = true;
        await etcdctl(['put', key, JSON.stringify({ ...fixture('race', { v: '2' }) })]);
      }
      return res;
    };
    let watcher: Watcher;
    try {
      watcher = await s.storage.watch(key, { predicate: EVERYTHING });
    } finally {
      kv.range = realRange;
    }
    try {
      expect(raced).to.equal(true);
      await s.storage.guaranteedUpdate(key, {}, (cur) => ({ ...cur, data: { v: '3' } }));
      const reader = new EventReader(watcher);
      const seen: string[] = [];
      while (seen.length < 5) {
        const ev = await reader.next();
        const v = (ev.object.data as { v: string }).v;
        seen.push(`${ev.type} ${v}`);
        if (v === '3') break;
      }
      expect([['ADDED 1', 'MODIFIED 2', 'MODIFIED 3'], ['ADDED 2', 'MODIFIED 3']]).to.deep.include(seen);
    } finally {
      watcher.stop();
    }
  });
});
