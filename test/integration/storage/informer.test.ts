import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { Informer } from '../../../lib/client/informer.js';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import {
  EVERYTHING,
  type SelectionPredicate,
  type StorageInterface,
  type StoredObject,
  type WatchEvent,
  type Watcher,
} from '../../../lib/storage/interface.js';
import { iterableWatcher } from '../../../lib/storage/iterable-watcher.js';
import { etcdctl, useEtcd } from '../../framework/etcd.js';
import { eventually, fixture } from '../../framework/storage-contract.js';

/**
 * A storage that delegates to another and lets a test cut the current watch and hold new
 * watches back (to make the informer's resume fall behind a compaction).
 */
class DisconnectingStorage implements StorageInterface {
  private gate: Promise<void> | null = null;
  private openGate: (() => void) | null = null;
  current: Watcher | null = null;
  watchesOpened = 0;
  errorsDelivered = 0;

  constructor(private readonly inner: StorageInterface) {}

  /** Stops the current watch and holds back new watches until `reconnect()`. */
  disconnect(): void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
    this.current?.stop();
    this.current = null;
  }

  reconnect(): void {
    this.gate = null;
    this.openGate?.();
  }

  create: StorageInterface['create'] = (...a) => this.inner.create(...a);
  get: StorageInterface['get'] = (...a) => this.inner.get(...a);
  getList: StorageInterface['getList'] = (...a) => this.inner.getList(...a);
  guaranteedUpdate: StorageInterface['guaranteedUpdate'] = (...a) => this.inner.guaranteedUpdate(...a);
  delete: StorageInterface['delete'] = (...a) => this.inner.delete(...a);
  count: StorageInterface['count'] = (...a) => this.inner.count(...a);
  currentRevision: StorageInterface['currentRevision'] = () => this.inner.currentRevision();

  async watch(keyOrPrefix: string, opts: Parameters<StorageInterface['watch']>[1]): Promise<Watcher> {
    while (this.gate) await this.gate;
    const w = await this.inner.watch(keyOrPrefix, opts);
    this.current = w;
    this.watchesOpened++;
    const counted = async function* (self: DisconnectingStorage): AsyncGenerator<WatchEvent> {
      for await (const ev of w) {
        if (ev.type === 'ERROR') self.errorsDelivered++;
        yield ev;
      }
    };
    const it = counted(this);
    return iterableWatcher({ [Symbol.asyncIterator]: () => it }, { stop: () => w.stop() });
  }
}

describe('client/informer: list then watch (spec 000 § Resource versions, Watch parameters)', function () {
  this.timeout(60_000);
  let client: ReturnType<typeof newEtcdClient>;
  let etcd3: Etcd3Storage;
  const root = `/${randomUUID()}/informer/`;
  let n = 0;
  let prefix = '';
  let abort: AbortController;
  let running: Promise<void> | undefined;
  let errors: unknown[];

  before(async () => {
    client = newEtcdClient([(await useEtcd()).endpoint]);
    etcd3 = new Etcd3Storage(client);
  });
  after(async () => {
    await etcdctl(['del', '--prefix', root]);
    client.close();
  });
  beforeEach(() => {
    prefix = `${root}case-${++n}/`;
    abort = new AbortController();
    errors = [];
  });
  afterEach(async () => {
    abort.abort();
    await running;
    running = undefined;
    expect(errors, 'informer errors').to.deep.equal([]);
  });

  /** Starts an informer over `storage` (of what `predicate` selects) with a handler recording `TYPE name` lines. */
  function startInformer(storage: StorageInterface, predicate?: SelectionPredicate): { informer: Informer; events: string[] } {
    const informer = new Informer(storage, prefix, (err) => errors.push(err), predicate);
    const events: string[] = [];
    informer.addHandler((type, obj) => events.push(`${type} ${obj.metadata?.name as string}`));
    running = informer.run(abort.signal);
    return { informer, events };
  }

  const byName = (a: StoredObject, b: StoredObject) => String(a.metadata?.name).localeCompare(String(b.metadata?.name));
  /** Whether the informer's cache holds exactly what storage holds (objects and versions). */
  async function inSync(informer: Informer): Promise<boolean> {
    const stored = (await etcd3.getList(prefix, { predicate: EVERYTHING })).items.sort(byName);
    return JSON.stringify(informer.list().sort(byName)) === JSON.stringify(stored);
  }
  const put = (name: string, v = '1') => etcd3.create(`${prefix}${name}`, fixture(name, { v }));
  const setV = (name: string, v: string) => etcd3.guaranteedUpdate(`${prefix}${name}`, {}, (cur) => ({ ...cur, data: { v } }));

  it('after the first list the cache holds every stored object and handlers saw each as ADDED', async () => {
    await put('a');
    await put('b');
    const { informer, events } = startInformer(etcd3);
    await informer.waitForSync();
    expect(await inSync(informer)).to.equal(true);
    expect(events).to.deep.equal(['ADDED a', 'ADDED b']);
    expect(informer.get('ns/a')?.data).to.deep.equal({ v: '1' });
  });

  it('the watch keeps the cache equal to storage through creates, updates and deletes', async () => {
    await put('a');
    await put('b');
    const { informer, events } = startInformer(etcd3);
    await informer.waitForSync();
    await put('c');
    await setV('a', '2');
    await etcd3.delete(`${prefix}b`, {});
    await eventually(() => events.length === 5, 10_000, 'five handler calls');
    expect(events).to.deep.equal(['ADDED a', 'ADDED b', 'ADDED c', 'MODIFIED a', 'DELETED b']);
    expect(await inSync(informer)).to.equal(true);
  });

  it('tells handlers the object each change replaces: none for an ADDED, the cached version for a MODIFIED or DELETED', async () => {
    await put('a');
    await put('b');
    const informer = new Informer(etcd3, prefix, (err) => errors.push(err));
    const seen: string[] = [];
    const v = (o: StoredObject | undefined) => (o ? (o.data as { v: string }).v : '-');
    informer.addHandler((type, obj, old) => seen.push(`${type} ${obj.metadata?.name as string} ${v(old)}→${v(obj)}`));
    running = informer.run(abort.signal);
    await informer.waitForSync();
    await setV('a', '2');
    await setV('a', '3');
    await etcd3.delete(`${prefix}b`, {});
    await eventually(() => seen.length === 5, 10_000, 'five handler calls');
    expect(seen).to.deep.equal(['ADDED a -→1', 'ADDED b -→1', 'MODIFIED a 1→2', 'MODIFIED a 2→3', 'DELETED b 1→1']);
  });

  it('with a predicate, lists and watches only the objects it selects', async () => {
    const named = (name: string): SelectionPredicate => ({
      empty: () => false,
      matches: (o) => o.metadata?.name === name,
      matchesSingleName: () => name,
      matchesSingleField: (f) => (f === 'metadata.name' ? name : undefined),
    });
    await put('a');
    await put('b');
    const { informer, events } = startInformer(etcd3, named('b'));
    await informer.waitForSync();
    await put('c');
    await setV('a', '2');
    await setV('b', '2');
    await etcd3.delete(`${prefix}a`, {});
    await etcd3.delete(`${prefix}b`, {});
    await eventually(() => events.length === 3, 10_000, 'three handler calls');
    await put('d');
    await setV('c', '3');
    await put('b');
    await eventually(() => events.length === 4, 10_000, 'the fourth handler call');
    expect(events).to.deep.equal(['ADDED b', 'MODIFIED b', 'DELETED b', 'ADDED b']);
    expect(informer.list().map((o) => o.metadata?.name)).to.deep.equal(['b']);
  });

  it('lists one namespace from its index, kept through creates and deletes', async () => {
    const inNamespace = (name: string, namespace: string) => {
      const o = fixture(name, { v: '1' });
      return etcd3.create(`${prefix}${name}`, { ...o, metadata: { ...o.metadata, namespace } });
    };
    await inNamespace('a', 'one');
    const { informer } = startInformer(etcd3);
    await informer.waitForSync();
    await inNamespace('b', 'two');
    await inNamespace('c', 'one');
    await etcd3.delete(`${prefix}a`, {});
    const names = (ns: string) => informer.listNamespace(ns).map((o) => o.metadata?.name as string).sort();
    await eventually(() => names('one').length === 1 && names('two').length === 1, 10_000, 'index follows the watch');
    expect(names('one')).to.deep.equal(['c']);
    expect(names('two')).to.deep.equal(['b']);
    expect(names('three')).to.deep.equal([]);
  });

  it('after a watch ERROR (resume point compacted) it relists and ends equal to storage', async () => {
    const gated = new DisconnectingStorage(etcd3);
    await put('a');
    await put('b');
    const { informer, events } = startInformer(gated);
    await informer.waitForSync();
    await eventually(() => gated.current !== null, 10_000, 'first watch open');
    gated.disconnect();
    await put('c');
    await setV('a', '2');
    await etcd3.delete(`${prefix}b`, {});
    await etcd3.compact(await etcd3.currentRevision());
    gated.reconnect();
    await eventually(() => gated.errorsDelivered === 1 && gated.watchesOpened >= 3, 10_000, 'ERROR delivered and watch reopened');
    await eventually(() => inSync(informer), 10_000, 'cache equal to storage');
    expect(events).to.include.members(['ADDED c', 'DELETED b']);
    await put('d');
    await eventually(() => inSync(informer), 10_000, 'cache follows the new watch');
  });
});
