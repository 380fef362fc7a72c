import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { EtcdOperation, EtcdResourceMetrics } from '../../../lib/metrics/storage.js';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage, MAX_COMPARED_VALUE_BYTES } from '../../../lib/storage/etcd3/store.js';
import { DELETE_OBJECT, type StoredObject } from '../../../lib/storage/interface.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { expectStorageError, fixture, rvOf } from '../../framework/storage-contract.js';

/** Records the etcd requests the storage sends (its metrics hook), by operation. */
class RequestLog implements EtcdResourceMetrics {
  ops: EtcdOperation[] = [];
  request(operation: EtcdOperation): void {
    this.ops.push(operation);
  }
  list(): void {}
  eventReceived(): void {}
  bookmark(): void {}
}

/**
 * Writes that start from a caller's copy of the object (the watch cache's; upstream
 * cachedExistingObject): one transaction and no read when the copy is current, and nothing
 * decided on a stale copy stands (issue #17 item 1; spec 000 § Resource versions).
 */
describe('storage/etcd3: writes from a cached copy of the object (cachedExisting)', function () {
  this.timeout(30_000);
  let storage: Etcd3Storage;
  let log: RequestLog;
  let prefix: string;
  let close: () => void;

  before(async () => {
    const { endpoint } = await useEtcd();
    const client = newEtcdClient([endpoint]);
    log = new RequestLog();
    storage = new Etcd3Storage(client, undefined, log);
    prefix = `/${randomUUID()}/registry/`;
    close = () => client.close();
  });
  after(async () => {
    await etcdctl(['del', '--prefix', prefix]);
    close();
  });

  /** Creates `name` and updates it once: returns the stale first state and the current one. */
  async function twoStates(name: string): Promise<{ key: string; stale: StoredObject; current: StoredObject }> {
    const key = `${prefix}${name}`;
    const stale = await storage.create(key, fixture(name));
    const current = await storage.guaranteedUpdate(key, {}, (cur) => ({ ...cur, data: { v: '2' } }));
    log.ops = [];
    return { key, stale, current };
  }

  it('tryUpdate gets a private copy, or with tryUpdateReadsOnly the current object itself', async () => {
    const { key, current } = await twoStates('readonly');
    const seen: StoredObject[] = [];
    const next = await storage.guaranteedUpdate(key, { cachedExisting: current }, (cur) => {
      seen.push(cur);
      return { ...cur, data: { v: '3' } };
    });
    await storage.guaranteedUpdate(key, { cachedExisting: next, tryUpdateReadsOnly: true }, (cur) => {
      seen.push(cur);
      return { ...cur, data: { v: '4' } };
    });
    expect(seen[0]).to.not.equal(current);
    expect(seen[0]).to.deep.equal(current);
    expect(seen[1]).to.equal(next);
  });

  it('an update from a current copy sends one transaction and no read', async () => {
    const { key, current } = await twoStates('current');
    const out = await storage.guaranteedUpdate(key, { cachedExisting: current }, (cur) => ({ ...cur, data: { v: '3' } }));
    expect(log.ops).to.deep.equal(['update']);
    expect(out.data).to.deep.equal({ v: '3' });
    expect(rvOf(out)).to.be.greaterThan(rvOf(current));
  });

  it('an update from a stale copy is computed again from the state its failed compare returned', async () => {
    const { key, stale } = await twoStates('stale');
    const seen: unknown[] = [];
    const out = await storage.guaranteedUpdate(key, { cachedExisting: stale }, (cur) => {
      seen.push(cur.data);
      return { ...cur, data: { v: `${(cur.data as { v: string }).v}+` } };
    });
    expect(seen).to.deep.equal([{ v: '1' }, { v: '2' }]);
    expect(out.data).to.deep.equal({ v: '2+' });
    expect(log.ops).to.deep.equal(['update', 'update']);
  });

  it('an error from a stale copy is retried from a fresh read; an error from a copy a read shows current stands', async () => {
    const { key, stale } = await twoStates('error');
    const out = await storage.guaranteedUpdate(key, { cachedExisting: stale }, (cur) => {
      if ((cur.data as { v: string }).v === '1') throw new Error('refused on the stale state');
      return { ...cur, data: { v: '3' } };
    });
    expect(out.data).to.deep.equal({ v: '3' });
    expect(log.ops).to.deep.equal(['get', 'update']);
    log.ops = [];
    let thrown: unknown;
    let calls = 0;
    try {
      await storage.guaranteedUpdate(key, { cachedExisting: out }, () => {
        calls++;
        throw new Error('refused');
      });
    } catch (err) {
      thrown = err;
    }
    expect(String(thrown)).to.include('refused');
    // The read shows the copy was current: its error stands without running the callback again.
    expect(calls).to.equal(1);
    expect(log.ops).to.deep.equal(['get']);
  });

  it('preconditions that fail on a stale copy are checked again on the current state', async () => {
    const { key, stale, current } = await twoStates('preconditions');
    const out = await storage.guaranteedUpdate(key, { cachedExisting: stale, preconditions: { resourceVersion: current.metadata!.resourceVersion as string } }, (cur) => ({ ...cur, data: { v: '3' } }));
    expect(out.data).to.deep.equal({ v: '3' });
  });

  it('a no-op from a current copy is told by etcd comparing the stored bytes: one transaction, nothing written, the resourceVersion kept', async () => {
    const { key, current } = await twoStates('noop-current');
    const out = await storage.guaranteedUpdate(key, { cachedExisting: current }, (cur) => cur);
    expect(log.ops).to.deep.equal(['update']);
    expect(rvOf(out)).to.equal(rvOf(current));
    expect(out.data).to.deep.equal({ v: '2' });
    expect(rvOf(await storage.get(key, {}))).to.equal(rvOf(current));
  });

  it('a no-op from a stale copy is decided again on the state its failed compare returned, and an unchanged object keeps its resourceVersion', async () => {
    const { key, stale, current } = await twoStates('noop');
    const out = await storage.guaranteedUpdate(key, { cachedExisting: stale }, (cur) => cur);
    expect(log.ops).to.deep.equal(['update']);
    expect(rvOf(out)).to.equal(rvOf(current));
    expect(out.data).to.deep.equal({ v: '2' });
  });

  it('an update from a current copy that changes the stored bytes is written', async () => {
    const { key, current } = await twoStates('changed');
    const out = await storage.guaranteedUpdate(key, { cachedExisting: current }, (cur) => ({ ...cur, data: { v: '2', w: '' } }));
    expect(log.ops).to.deep.equal(['update']);
    expect(rvOf(out)).to.be.greaterThan(rvOf(current));
    expect((await storage.get(key, {}))!.data).to.deep.equal({ v: '2', w: '' });
  });

  describe(`a value past MAX_COMPARED_VALUE_BYTES (etcd would refuse it sent twice in one transaction)`, () => {
    const large = 'x'.repeat(MAX_COMPARED_VALUE_BYTES + 1);
    /** `twoStates` whose objects carry a large value: the update compares bytes after a read. */
    async function twoLargeStates(name: string) {
      const key = `${prefix}${name}`;
      const stale = await storage.create(key, { ...fixture(name), data: { v: '1', large } });
      const current = await storage.guaranteedUpdate(key, {}, (cur) => ({ ...cur, data: { v: '2', large } }));
      log.ops = [];
      return { key, stale, current };
    }

    it('an update from a current copy reads, then writes with a revision compare only', async () => {
      const { key, current } = await twoLargeStates('large-current');
      const out = await storage.guaranteedUpdate(key, { cachedExisting: current }, (cur) => ({ ...cur, data: { v: '3', large } }));
      expect(log.ops).to.deep.equal(['get', 'update']);
      expect(rvOf(out)).to.be.greaterThan(rvOf(current));
      expect((await storage.get(key, {}))!.data).to.deep.equal({ v: '3', large });
    });

    it('a no-op from a current copy is told from the stored bytes read: nothing written, the resourceVersion kept, the copy not decoded again', async () => {
      const { key, current } = await twoLargeStates('large-noop');
      const out = await storage.guaranteedUpdate(key, { cachedExisting: current }, (cur) => cur);
      expect(log.ops).to.deep.equal(['get']);
      // The read confirmed the copy's revision: the copy's object is the answer, not a new decoding.
      expect(out).to.equal(current);
      expect(rvOf(out)).to.equal(rvOf(current));
      expect(rvOf(await storage.get(key, {}))).to.equal(rvOf(current));
    });

    it('an update from a stale copy is computed again from the state the read returned', async () => {
      const { key, stale } = await twoLargeStates('large-stale');
      const seen: string[] = [];
      const out = await storage.guaranteedUpdate(key, { cachedExisting: stale }, (cur) => {
        const v = (cur.data as { v: string }).v;
        seen.push(v);
        return { ...cur, data: { v: `${v}+`, large } };
      });
      expect(seen).to.deep.equal(['1', '2']);
      expect(log.ops).to.deep.equal(['get', 'update']);
      expect((out.data as { v: string }).v).to.equal('2+');
    });
  });

  it('a dry run from a stale copy answers from the current state and writes nothing', async () => {
    const { key, stale, current } = await twoStates('dryrun');
    const out = await storage.guaranteedUpdate(key, { cachedExisting: stale, dryRun: true }, (cur) => ({ ...cur, data: { ...(cur.data as object), dry: 'yes' } }));
    expect(out.data).to.deep.equal({ v: '2', dry: 'yes' });
    expect(log.ops).to.deep.equal(['get']);
    expect(rvOf(await storage.get(key, {}))).to.equal(rvOf(current));
  });

  it('DELETE_OBJECT from a current copy deletes in one transaction and returns the last state', async () => {
    const { key, current } = await twoStates('delete');
    const last = await storage.guaranteedUpdate(key, { cachedExisting: current }, () => DELETE_OBJECT);
    expect(log.ops).to.deep.equal(['delete']);
    expect(rvOf(last)).to.equal(rvOf(current));
    expect(await storage.get(key, { ignoreNotFound: true })).to.equal(null);
  });

  it('a deletion decided on a stale copy is decided again on the current state', async () => {
    const { key, stale } = await twoStates('decide');
    const out = await storage.guaranteedUpdate(key, { cachedExisting: stale }, (cur) => ((cur.data as { v: string }).v === '1' ? DELETE_OBJECT : cur));
    expect(out.data).to.deep.equal({ v: '2' });
    expect(await storage.get(key, {})).to.not.equal(null);
  });

  it('delete() from a copy of an object deleted meanwhile answers KeyNotFound', async () => {
    const { key, current } = await twoStates('gone');
    await storage.delete(key, {});
    await expectStorageError(storage.delete(key, { cachedExisting: current }), 'KeyNotFound');
  });

  it('a dry-run deletion from a copy confirms the object exists and deletes nothing', async () => {
    const { key, current } = await twoStates('drydelete');
    const last = await storage.delete(key, { cachedExisting: current, dryRun: true });
    expect(rvOf(last)).to.equal(rvOf(current));
    expect(log.ops).to.deep.equal(['get']);
    expect(await storage.get(key, {})).to.not.equal(null);
  });
});
