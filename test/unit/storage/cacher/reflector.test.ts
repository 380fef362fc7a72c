import { expect } from 'chai';
import { AsyncQueue } from '../../../../lib/storage/async-queue.js';
import { Cacher } from '../../../../lib/storage/cacher/cacher.js';
import { EVERYTHING, type ListResult, type StorageInterface, type StoredObject, type WatchEvent, type Watcher } from '../../../../lib/storage/interface.js';

const P = '/r/core/configmaps/';
const obj = (name: string, rv: number, v = ''): StoredObject => ({ metadata: { namespace: 'a', name, resourceVersion: String(rv) }, data: { v } });

/** A scripted store: the test sets its state and drives its watch streams. */
class ScriptedStore implements Partial<StorageInterface> {
  state = new Map<string, StoredObject>();
  rev = 0;
  watches: AsyncQueue<WatchEvent>[] = [];
  watchStarts: string[] = [];

  async getList(): Promise<ListResult> {
    return { items: [...this.state.values()], resourceVersion: String(this.rev) };
  }
  async watch(_prefix: string, opts: { resourceVersion?: string }): Promise<Watcher> {
    this.watchStarts.push(opts.resourceVersion ?? '');
    const q = new AsyncQueue<WatchEvent>();
    this.watches.push(q);
    return Object.assign(q, { stop: () => q.close() });
  }
  async currentRevision(): Promise<string> {
    return String(this.rev);
  }
  put(o: StoredObject, type: 'ADDED' | 'MODIFIED'): void {
    this.rev = Number(o.metadata!.resourceVersion);
    const key = `${P}a/${o.metadata!.name as string}`;
    this.state.set(key, o);
    this.watches[this.watches.length - 1]!.push({ type, object: o, key });
  }
}

const until = async (cond: () => boolean, ms = 2000) => {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('watch cache reflector (issue #4 item 5: recovery without loss or duplicates)', () => {
  it('resumes from the last revision after a broken watch, and relists after compaction, handing on the difference', async () => {
    const store = new ScriptedStore();
    store.state.set(`${P}a/x`, obj('x', 1, 'one'));
    store.rev = 1;
    const cacher = new Cacher({ delegate: store as unknown as StorageInterface, prefix: P, bookmarkIntervalMs: 60_000 });
    try {
      const client = await cacher.watch(P, { predicate: EVERYTHING, resourceVersion: '0' });
      const seen: string[] = [];
      void (async () => {
        for await (const e of client) seen.push(`${e.type} ${e.object.metadata!.name as string}@${e.object.metadata!.resourceVersion as string}`);
      })();
      await until(() => store.watches.length === 1);
      store.put(obj('y', 2), 'ADDED');
      await until(() => seen.length === 2);
      store.watches[0]!.close();
      await until(() => store.watches.length === 2);
      expect(store.watchStarts).to.deep.equal(['1', '2']);
      store.put(obj('z', 3), 'ADDED');
      await until(() => seen.length === 3);
      store.state.set(`${P}a/x`, obj('x', 7, 'two'));
      store.state.delete(`${P}a/y`);
      store.rev = 8;
      store.watches[1]!.push({ type: 'ERROR', object: { kind: 'Status', code: 410 } });
      await until(() => seen.length === 5);
      expect(seen).to.deep.equal(['ADDED x@1', 'ADDED y@2', 'ADDED z@3', 'DELETED y@8', 'MODIFIED x@7']);
      expect(cacher.relists).to.equal(2);
      expect(store.watchStarts[2]).to.equal('8');
    } finally {
      cacher.stop();
    }
  });
});
