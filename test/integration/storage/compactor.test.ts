import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { COMPACT_REV_KEY, compactOnce } from '../../../lib/storage/etcd3/compactor.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';

/** The version of the shared compaction key (0 when it does not exist yet). */
async function keyVersion(): Promise<number> {
  const out = JSON.parse(await etcdctl(['get', COMPACT_REV_KEY, '-w', 'json'])) as { kvs?: Array<{ version: number }> };
  return out.kvs?.[0]?.version ?? 0;
}

/** The value of the shared compaction key. */
async function keyValue(): Promise<string> {
  return (await etcdctl(['get', COMPACT_REV_KEY, '--print-value-only'])).trim();
}

/** Whether revision `rev` can still be read (not compacted). */
async function readable(rev: number): Promise<boolean> {
  try {
    await etcdctl(['get', 'any', `--rev=${rev}`]);
    return true;
  } catch (err) {
    if (String(err).includes('compacted')) return false;
    throw err;
  }
}

describe('storage/etcd3/compactor: compactOnce (spec 001 § Limits: watch history and continue tokens)', function () {
  this.timeout(30_000);
  let client: ReturnType<typeof newEtcdClient>;
  const prefix = `/${randomUUID()}/compactor/`;
  let writes = 0;

  /** Writes a key and returns the store revision of that write. */
  async function write(): Promise<number> {
    await etcdctl(['put', `${prefix}k${++writes}`, 'v']);
    const out = JSON.parse(await etcdctl(['get', `${prefix}k${writes}`, '-w', 'json'])) as { kvs: Array<{ mod_revision: number }> };
    return out.kvs[0]!.mod_revision;
  }

  before(async () => {
    client = newEtcdClient([(await useEtcd()).endpoint]);
  });
  after(async () => {
    await etcdctl(['del', '--prefix', prefix]);
    client.close();
  });

  it('the first round (no revision seen yet) compacts nothing and records the round', async () => {
    const version = await keyVersion();
    const old = await write();
    const round = await compactOnce(client, version, 0);
    expect(round.version).to.equal(version + 1);
    expect(await keyVersion()).to.equal(version + 1);
    expect(round.revision).to.be.greaterThan(old);
    expect(await readable(old)).to.equal(true);
  });

  it('the next round compacts to the revision observed in the previous round', async () => {
    const first = await compactOnce(client, await keyVersion(), 0);
    await write();
    await write();
    const second = await compactOnce(client, first.version, first.revision);
    expect(second.version).to.equal(first.version + 1);
    expect(await keyValue()).to.equal(String(first.revision));
    expect(await readable(first.revision)).to.equal(true);
    expect(await readable(first.revision - 1)).to.equal(false);
  });

  it('a replica whose round is stale does not compact and adopts the current round', async () => {
    const start = await compactOnce(client, await keyVersion(), 0);
    const revA = await write();
    const revB = await write();
    const a = await compactOnce(client, start.version, revA);
    const b = await compactOnce(client, start.version, revB);
    expect(a.version).to.equal(start.version + 1);
    expect(b.version).to.equal(start.version + 1);
    expect(await keyValue()).to.equal(String(revA));
    expect(await readable(revA)).to.equal(true);
  });

  it('two replicas racing in the same round: exactly one compacts, and both agree on the next round', async () => {
    const start = await compactOnce(client, await keyVersion(), 0);
    const revA = await write();
    const revB = await write();
    await write();
    const [a, b] = await Promise.all([compactOnce(client, start.version, revA), compactOnce(client, start.version, revB)]);
    expect(a.version).to.equal(start.version + 1);
    expect(b.version).to.equal(start.version + 1);
    const winner = Number(await keyValue());
    expect([revA, revB]).to.include(winner);
    expect(await readable(winner)).to.equal(true);
    expect(await readable(winner - 1)).to.equal(false);
  });
});
