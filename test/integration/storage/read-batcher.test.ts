import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Etcd3 } from 'etcd3';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { QuorumReadBatcher } from '../../../lib/storage/etcd3/read-batcher.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { fixture } from '../../framework/storage-contract.js';

/** Counts the transactions `client` sends (the real client still sends them). */
function countTxns(client: Etcd3): { count: number } {
  const counter = { count: 0 };
  const kv = client.kv;
  const txn = kv.txn.bind(kv);
  kv.txn = (req, opts) => {
    counter.count++;
    return txn(req, opts);
  };
  return counter;
}

/**
 * Quorum gets batched into one read-only transaction per round trip (issue #17 item 1;
 * spec 000 § Resource versions: a get without a resourceVersion sees every acknowledged write).
 */
describe('storage/etcd3: batched quorum reads', function () {
  this.timeout(30_000);
  let client: Etcd3;
  let prefix: string;

  before(async () => {
    const { endpoint } = await useEtcd();
    client = newEtcdClient([endpoint]);
    prefix = `/${randomUUID()}/registry/`;
    for (let i = 0; i < 10; i++) await etcdctl(['put', `${prefix}k${i}`, `v${i}`]);
  });
  after(async () => {
    await etcdctl(['del', '--prefix', prefix]);
    client.close();
  });

  it('answers concurrent reads, present and absent, with one transaction per round trip', async () => {
    const batcher = new QuorumReadBatcher(client);
    const txns = countTxns(client);
    const keys = Array.from({ length: 20 }, (_, i) => `${prefix}k${i}`);
    const answers = await Promise.all(keys.map((k) => batcher.read(k)));
    answers.forEach((a, i) => {
      if (i < 10) expect(a.kv?.value.toString()).to.equal(`v${i}`);
      else expect(a.kv).to.equal(undefined);
    });
    expect(new Set(answers.map((a) => a.revision)).size).to.be.at.most(2);
    expect(txns.count).to.equal(2, 'the first read goes alone, the other 19 wait for it and go together');
  });

  it('splits a queue longer than the batch limit', async () => {
    const batcher = new QuorumReadBatcher(client, 4);
    const txns = countTxns(client);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => batcher.read(`${prefix}k${i}`)));
    expect(answers.map((a) => a.kv?.value.toString())).to.deep.equal(Array.from({ length: 10 }, (_, i) => `v${i}`));
    expect(txns.count).to.equal(4, '1 + 4 + 4 + 1');
  });

  it('sees a write acknowledged while an earlier batch was in flight', async () => {
    const batcher = new QuorumReadBatcher(client);
    const key = `${prefix}k0`;
    const early = batcher.read(key);
    const put = await client.put(key).value('after');
    const late = await batcher.read(key);
    await early;
    expect(late.kv?.value.toString()).to.equal('after');
    expect(Number(late.revision)).to.be.at.least(Number(put.header.revision));
    await client.put(key).value('v0');
  });

  it('rejects every read of a failed batch and recovers for the next one', async () => {
    const batcher = new QuorumReadBatcher(client);
    const kv = client.kv;
    const txn = kv.txn.bind(kv);
    kv.txn = () => Promise.reject(new Error('etcd unavailable'));
    const failed = await Promise.allSettled([batcher.read(`${prefix}k1`), batcher.read(`${prefix}k2`)]);
    kv.txn = txn;
    expect(failed.map((r) => r.status)).to.deep.equal(['rejected', 'rejected']);
    expect((await batcher.read(`${prefix}k1`)).kv?.value.toString()).to.equal('v1');
  });

  it('returns the caller\'s copy when its resourceVersion is current, and decodes the value when it is stale', async () => {
    const storage = new Etcd3Storage(client);
    const key = `${prefix}cm`;
    const first = await storage.create(key, fixture('cm'));
    const same = await storage.get(key, { cachedExisting: first });
    expect(same).to.equal(first);
    const second = await storage.guaranteedUpdate(key, {}, (cur) => ({ ...cur, data: { v: '2' } }));
    const fresh = await storage.get(key, { cachedExisting: first });
    expect(fresh).to.not.equal(first);
    expect(fresh).to.deep.equal(second);
  });
});
