import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { describeStorageContract, fixture, rvOf } from '../../framework/storage-contract.js';

/** An Etcd3Storage on the run's etcd with a fresh random key prefix. */
async function newEtcd3(): Promise<{ storage: Etcd3Storage; prefix: string; close(): Promise<void> }> {
  const { endpoint } = await useEtcd();
  const client = newEtcdClient([endpoint]);
  const prefix = `/${randomUUID()}/registry/`;
  return {
    storage: new Etcd3Storage(client),
    prefix,
    close: async () => {
      await etcdctl(['del', '--prefix', prefix]);
      client.close();
    },
  };
}

describeStorageContract('etcd3', async () => {
  const { storage, prefix, close } = await newEtcd3();
  return { storage, prefix, compact: (rev) => storage.compact(rev), cleanup: close };
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
