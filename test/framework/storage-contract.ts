/**
 * The contract every implementation of the storage interface (`lib/storage/interface.ts`) must
 * pass: the etcd3 store now, the watch cache later (ARCHITECTURE.md § Storage rules, § Tests;
 * spec 000 § Resource versions, § Chunked list parameters; spec 001 § Events).
 *
 * Resource versions are compared as numbers here: both implementations hand out etcd revisions
 * (the storage layer is the one place where they are not opaque).
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { INITIAL_EVENTS_END_ANNOTATION } from '../../lib/apis/vendor.js';
import { StorageError, type StorageErrorCode } from '../../lib/storage/errors.js';
import {
  EVERYTHING,
  type SelectionPredicate,
  type StorageInterface,
  type StoredObject,
  type WatchEvent,
  type Watcher,
} from '../../lib/storage/interface.js';

/** What a contract run needs from an implementation. */
export interface StorageUnderTest {
  storage: StorageInterface;
  /** A fresh key prefix ending in `/`, used by no one else. */
  prefix: string;
  /** Compacts the store's history up to `rev` (older revisions become unreadable). */
  compact(rev: string): Promise<void>;
  /** Releases what the factory created (keys under `prefix`, clients). */
  cleanup(): Promise<void>;
  /**
   * The implementation keeps its own event history (a watch cache), so a watch may start from a
   * revision etcd has compacted as long as it is inside that history.
   */
  historyOutlivesCompaction?: boolean;
  /**
   * The exact message of the 410 Expired event of a watch from a compacted revision (etcd3:
   * upstream's `The resourceVersion for the provided watch is too old.`); absent: the watch
   * cache's `too old resource version: <requested> (<oldest>)`.
   */
  compactedWatchMessage?: string;
}

/** Generous deadline for one expected watch event. */
const EVENT_DEADLINE_MS = 10_000;
/** The test etcd sends progress notifications every 5 s; bookmarks may take two intervals. */
const BOOKMARK_DEADLINE_MS = 20_000;

/** A ConfigMap-shaped object named `name`. */
export function fixture(name: string, data: Record<string, string> = { v: '1' }, labels?: Record<string, string>): StoredObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'ns', uid: randomUUID(), ...(labels ? { labels } : {}) },
    data,
  };
}

/** A predicate selecting objects whose label `key` equals `value` (never empty). */
export function labelPredicate(key: string, value: string): SelectionPredicate {
  return {
    empty: () => false,
    matches: (obj) => (obj.metadata?.labels as Record<string, string> | undefined)?.[key] === value,
    matchesSingleName: () => undefined,
    matchesSingleField: () => undefined,
  };
}

/** `metadata.resourceVersion` of `obj` as a number. */
export function rvOf(obj: StoredObject | null | undefined): number {
  const rv = obj?.metadata?.resourceVersion;
  expect(rv, 'metadata.resourceVersion').to.be.a('string').and.match(/^\d+$/);
  return Number(rv);
}

/** `metadata.name` of `obj`. */
export function nameOf(obj: StoredObject): string {
  return obj.metadata?.name as string;
}

/** Awaits `p`, expecting a StorageError with `code`; returns the error. */
export async function expectStorageError(p: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  let caught: unknown;
  try {
    await p;
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected StorageError ${code}`).to.be.instanceOf(StorageError);
  expect((caught as StorageError).code).to.equal(code);
  return caught as StorageError;
}

/** Polls `check` every 50 ms until it returns true; throws after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Reads a watcher one event at a time, failing (not hanging) when an event does not come. */
export class EventReader {
  private readonly it: AsyncIterator<WatchEvent>;
  private pending: Promise<IteratorResult<WatchEvent>> | undefined;

  constructor(readonly watcher: Watcher) {
    this.it = watcher[Symbol.asyncIterator]();
  }

  /** The next item of the stream: an event, or `null` when the stream ended. */
  async nextOrEnd(timeoutMs = EVENT_DEADLINE_MS): Promise<WatchEvent | null> {
    this.pending ??= this.it.next();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const r = await Promise.race([this.pending, timeout]);
      if (r === 'timeout') throw new Error(`no watch event within ${timeoutMs} ms`);
      this.pending = undefined;
      return r.done ? null : r.value;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The next event; fails when the stream ends instead. */
  async next(timeoutMs = EVENT_DEADLINE_MS): Promise<WatchEvent> {
    const ev = await this.nextOrEnd(timeoutMs);
    if (ev === null) throw new Error('watch ended before the expected event');
    return ev;
  }

  /** The next `n` events, as `[type, name]` pairs. */
  async take(n: number): Promise<Array<[string, string]>> {
    const out: Array<[string, string]> = [];
    for (let i = 0; i < n; i++) {
      const ev = await this.next();
      out.push([ev.type, nameOf(ev.object)]);
    }
    return out;
  }
}

/**
 * Defines the storage contract tests for the implementation `factory` builds (called once for
 * the suite; every test works under its own sub-prefix of the factory's prefix).
 */
export function describeStorageContract(name: string, factory: () => Promise<StorageUnderTest>): void {
  describe(`storage contract: ${name}`, function () {
    this.timeout(60_000);
    let t: StorageUnderTest;
    let storage: StorageInterface;
    let dir = '';
    let n = 0;
    const watchers: Watcher[] = [];

    before(async () => {
      t = await factory();
      storage = t.storage;
      expect(t.prefix.endsWith('/'), 'factory prefix ends in /').to.equal(true);
    });
    after(async () => {
      await t?.cleanup();
    });
    beforeEach(() => {
      dir = `${t.prefix}case-${++n}/`;
    });
    afterEach(() => {
      for (const w of watchers.splice(0)) w.stop();
    });

    /** The key of `name` in this test's collection. */
    const key = (name: string): string => `${dir}${name}`;
    /** Creates `names` in order; returns the stored objects. */
    async function createAll(...names: string[]): Promise<StoredObject[]> {
      const out: StoredObject[] = [];
      for (const nm of names) out.push(await storage.create(key(nm), fixture(nm)));
      return out;
    }
    /** Sets `data.v` of `name` to `v`; returns the stored object. */
    function setV(name: string, v: string): Promise<StoredObject> {
      return storage.guaranteedUpdate(key(name), {}, (cur) => ({ ...cur, data: { v } }));
    }
    /** Starts a watch that afterEach stops. */
    async function watch(keyOrPrefix: string, opts: Partial<Parameters<StorageInterface['watch']>[1]> = {}): Promise<EventReader> {
      const w = await storage.watch(keyOrPrefix, { predicate: EVERYTHING, ...opts });
      watchers.push(w);
      return new EventReader(w);
    }
    /** Lists `dir` chunk by chunk with `limit`, returning every chunk. */
    async function allChunks(limit: number, predicate: SelectionPredicate = EVERYTHING) {
      const chunks = [await storage.getList(dir, { predicate, limit })];
      while (chunks.at(-1)!.continue) {
        if (chunks.length > 100) throw new Error('listing does not end');
        chunks.push(await storage.getList(dir, { predicate, limit, continue: chunks.at(-1)!.continue }));
      }
      return chunks;
    }

    describe('create (ARCHITECTURE.md § Storage rules)', () => {
      it('returns the stored object with resourceVersion = the revision of the write', async () => {
        const before = Number(await storage.currentRevision());
        const created = await storage.create(key('a'), fixture('a', { v: 'x' }));
        expect(rvOf(created)).to.be.greaterThan(before);
        expect(rvOf(created)).to.be.at.most(Number(await storage.currentRevision()));
        expect(created.data).to.deep.equal({ v: 'x' });
        expect(rvOf(await storage.get(key('a'), {}))).to.equal(rvOf(created));
      });

      it('does not modify the object passed in', async () => {
        const obj = fixture('a');
        const copy = structuredClone(obj);
        await storage.create(key('a'), obj);
        expect(obj).to.deep.equal(copy);
      });

      it('rejects a second create of the same key with KeyExists and keeps the first object', async () => {
        const [first] = await createAll('a');
        await expectStorageError(storage.create(key('a'), fixture('a', { v: 'other' })), 'KeyExists');
        expect(await storage.get(key('a'), {})).to.deep.equal(first);
      });

      it('rejects an object that already carries a resourceVersion', async () => {
        const obj = fixture('a');
        obj.metadata!.resourceVersion = '5';
        await expectStorageError(storage.create(key('a'), obj), 'InvalidObj');
        expect(await storage.get(key('a'), { ignoreNotFound: true })).to.equal(null);
      });

      it('dryRun returns the object and stores nothing', async () => {
        const out = await storage.create(key('a'), fixture('a', { v: 'dry' }), { dryRun: true });
        expect(out.data).to.deep.equal({ v: 'dry' });
        expect(await storage.get(key('a'), { ignoreNotFound: true })).to.equal(null);
        expect(await storage.count(dir)).to.equal(0);
      });

      it('dryRun on an existing key rejects with KeyExists', async () => {
        await createAll('a');
        await expectStorageError(storage.create(key('a'), fixture('a'), { dryRun: true }), 'KeyExists');
      });
    });

    describe('get (spec 000 § Resource versions, Get semantics)', () => {
      it('rejects a missing key with KeyNotFound', async () => {
        await expectStorageError(storage.get(key('missing'), {}), 'KeyNotFound');
      });

      it('returns null for a missing key with ignoreNotFound', async () => {
        expect(await storage.get(key('missing'), { ignoreNotFound: true })).to.equal(null);
      });

      it('unset resourceVersion returns the most recent state', async () => {
        await createAll('a');
        const updated = await setV('a', '2');
        const got = await storage.get(key('a'), { resourceVersion: '' });
        expect(got).to.deep.equal(updated);
      });

      it('resourceVersion "0" returns the object (any version)', async () => {
        const [created] = await createAll('a');
        const got = await storage.get(key('a'), { resourceVersion: '0' });
        expect(nameOf(got!)).to.equal('a');
        expect(rvOf(got)).to.be.at.least(rvOf(created));
      });

      it('a resourceVersion already reached returns a state not older than it', async () => {
        const [created] = await createAll('a');
        const got = await storage.get(key('a'), { resourceVersion: String(rvOf(created)) });
        expect(rvOf(got)).to.equal(rvOf(created));
      });

      it('a future resourceVersion is TooLargeResourceVersion naming the requested and current revisions', async () => {
        await createAll('a');
        const future = String(Number(await storage.currentRevision()) + 1000);
        const err = await expectStorageError(storage.get(key('a'), { resourceVersion: future }), 'TooLargeResourceVersion');
        expect(err.info.requested).to.equal(future);
        expect(Number(err.info.revision)).to.be.lessThan(Number(future));
      });

      it('a non-numeric resourceVersion is InvalidResourceVersion', async () => {
        await createAll('a');
        await expectStorageError(storage.get(key('a'), { resourceVersion: 'abc' }), 'InvalidResourceVersion');
      });
    });

    describe('getList (spec 000 § Resource versions, List semantics; § Collections)', () => {
      it('lists every object under the prefix in key order, each with its own resourceVersion', async () => {
        const created = await createAll('b', 'a', 'c');
        const list = await storage.getList(dir, { predicate: EVERYTHING });
        expect(list.items.map(nameOf)).to.deep.equal(['a', 'b', 'c']);
        expect(list.items.map(rvOf)).to.deep.equal([rvOf(created[1]), rvOf(created[0]), rvOf(created[2])]);
        expect(Number(list.resourceVersion)).to.be.at.least(rvOf(created[2]));
        expect(list).to.not.have.property('continue');
        expect(list).to.not.have.property('remainingItemCount');
      });

      it('does not list keys of a sibling prefix that shares the leading characters', async () => {
        await createAll('a');
        await storage.create(`${dir.slice(0, -1)}x/b`, fixture('b'));
        const list = await storage.getList(dir, { predicate: EVERYTHING });
        expect(list.items.map(nameOf)).to.deep.equal(['a']);
      });

      it('an empty collection lists no items with a resourceVersion', async () => {
        const list = await storage.getList(dir, { predicate: EVERYTHING });
        expect(list.items).to.deep.equal([]);
        expect(list.resourceVersion).to.match(/^\d+$/);
      });

      it('filters by the predicate', async () => {
        await storage.create(key('a'), fixture('a', {}, { app: 'x' }));
        await storage.create(key('b'), fixture('b', {}, { app: 'y' }));
        await storage.create(key('c'), fixture('c', {}, { app: 'x' }));
        const list = await storage.getList(dir, { predicate: labelPredicate('app', 'x') });
        expect(list.items.map(nameOf)).to.deep.equal(['a', 'c']);
      });

      it('a non-numeric resourceVersion is InvalidResourceVersion', async () => {
        await expectStorageError(storage.getList(dir, { predicate: EVERYTHING, resourceVersion: 'x1' }), 'InvalidResourceVersion');
      });

      describe('chunks (spec 000 § Chunked list parameters)', () => {
        it('limit splits the listing into chunks that together hold every object once', async () => {
          await createAll('a', 'b', 'c', 'd', 'e');
          const chunks = await allChunks(2);
          expect(chunks.map((c) => c.items.map(nameOf))).to.deep.equal([['a', 'b'], ['c', 'd'], ['e']]);
        });

        it('every chunk carries the first chunk\'s resourceVersion', async () => {
          await createAll('a', 'b', 'c', 'd', 'e');
          const chunks = await allChunks(2);
          expect(new Set(chunks.map((c) => c.resourceVersion)).size).to.equal(1);
        });

        it('later chunks show the first chunk\'s snapshot although objects changed in between', async () => {
          const created = await createAll('a', 'b', 'c', 'd', 'e');
          const first = await storage.getList(dir, { predicate: EVERYTHING, limit: 2 });
          await storage.create(key('bb'), fixture('bb'));
          await storage.delete(key('d'), {});
          await setV('c', 'changed');
          await storage.create(key('f'), fixture('f'));
          const second = await storage.getList(dir, { predicate: EVERYTHING, limit: 2, continue: first.continue });
          const third = await storage.getList(dir, { predicate: EVERYTHING, limit: 2, continue: second.continue });
          expect([...second.items, ...third.items].map(nameOf)).to.deep.equal(['c', 'd', 'e']);
          expect(second.items[0]).to.deep.equal(created[2]);
          expect(second.resourceVersion).to.equal(first.resourceVersion);
          expect(third.resourceVersion).to.equal(first.resourceVersion);
          expect(third).to.not.have.property('continue');
        });

        it('remainingItemCount counts the objects after a non-final chunk', async () => {
          await createAll('a', 'b', 'c', 'd', 'e');
          const chunks = await allChunks(2);
          expect(chunks.map((c) => c.remainingItemCount)).to.deep.equal([3, 1, undefined]);
        });

        it('the final chunk has neither continue nor remainingItemCount when it ends exactly at the limit', async () => {
          await createAll('a', 'b', 'c', 'd');
          const chunks = await allChunks(2);
          expect(chunks.map((c) => c.items.length)).to.deep.equal([2, 2]);
          expect(chunks[1]).to.not.have.property('continue');
          expect(chunks[1]).to.not.have.property('remainingItemCount');
        });

        it('a limit at least the collection size gives one chunk without continue', async () => {
          await createAll('a', 'b');
          const list = await storage.getList(dir, { predicate: EVERYTHING, limit: 5 });
          expect(list.items.map(nameOf)).to.deep.equal(['a', 'b']);
          expect(list).to.not.have.property('continue');
          expect(list).to.not.have.property('remainingItemCount');
        });

        it('remainingItemCount is omitted when a selector is used', async () => {
          for (const nm of ['a', 'b', 'c', 'd', 'e']) await storage.create(key(nm), fixture(nm, {}, { app: 'x' }));
          const first = await storage.getList(dir, { predicate: labelPredicate('app', 'x'), limit: 2 });
          expect(first.items).to.have.length(2);
          expect(first.continue).to.be.a('string').and.not.equal('');
          expect(first).to.not.have.property('remainingItemCount');
        });

        it('with a selector, each chunk is filled to the limit with matching objects while any remain', async () => {
          for (let i = 0; i < 12; i++) {
            const nm = `o${String(i).padStart(2, '0')}`;
            await storage.create(key(nm), fixture(nm, {}, { app: i % 3 === 0 ? 'x' : 'y' }));
          }
          const chunks = await allChunks(2, labelPredicate('app', 'x'));
          const sizes = chunks.map((c) => c.items.length).filter((s) => s > 0);
          expect(sizes).to.deep.equal([2, 2]);
          expect(chunks.flatMap((c) => c.items.map(nameOf))).to.deep.equal(['o00', 'o03', 'o06', 'o09']);
        });

        it('continuing stops at the end of the listed prefix', async () => {
          await createAll('a', 'b', 'c');
          const first = await storage.getList(dir, { predicate: EVERYTHING, limit: 1 });
          await storage.create(`${t.prefix}zz-outside`, fixture('outside'));
          const rest = await storage.getList(dir, { predicate: EVERYTHING, continue: first.continue });
          expect(rest.items.map(nameOf)).to.deep.equal(['b', 'c']);
        });

        const malformed: Array<[string, string]> = [
          ['not base64 JSON', '%%%not-a-token%%%'],
          ['base64 of non-JSON', Buffer.from('hello').toString('base64url')],
          ['an unknown token version', Buffer.from(JSON.stringify({ v: 'other/v9', rv: 5, start: 'a' })).toString('base64url')],
          ['a zero start revision', 'ZERO_RV'],
          ['an empty start key', 'EMPTY_START'],
          ['a path-traversing start key', 'TRAVERSAL'],
        ];
        for (const [what, raw] of malformed) {
          it(`a continue token with ${what} is InvalidContinue`, async () => {
            await createAll('a', 'b');
            const first = await storage.getList(dir, { predicate: EVERYTHING, limit: 1 });
            const real = JSON.parse(Buffer.from(first.continue!, 'base64url').toString('utf8')) as Record<string, unknown>;
            const forge = (patch: Record<string, unknown>) => Buffer.from(JSON.stringify({ ...real, ...patch })).toString('base64url');
            const token = raw === 'ZERO_RV' ? forge({ rv: 0 }) : raw === 'EMPTY_START' ? forge({ start: '' }) : raw === 'TRAVERSAL' ? forge({ start: '../../x' }) : raw;
            await expectStorageError(storage.getList(dir, { predicate: EVERYTHING, limit: 1, continue: token }), 'InvalidContinue');
          });
        }
      });

      describe('resourceVersion and resourceVersionMatch (spec 000 § Resource versions, List semantics table)', () => {
        /** Creates a and b, remembers the revision, then changes the collection (c added, a updated, b deleted). */
        /** A not-older-than list shows exactly the collection at its own resourceVersion. */
        async function expectStateAt(list: { items: StoredObject[]; resourceVersion: string }): Promise<void> {
          const exact = await storage.getList(dir, { predicate: EVERYTHING, resourceVersion: list.resourceVersion, resourceVersionMatch: 'Exact' });
          expect(list.items.map((o) => [nameOf(o), o.data])).to.deep.equal(exact.items.map((o) => [nameOf(o), o.data]));
        }

        async function history(): Promise<{ rev: string }> {
          await createAll('a', 'b');
          const rev = String(rvOf(await storage.get(key('b'), {})));
          await createAll('c');
          await setV('a', 'later');
          await storage.delete(key('b'), {});
          return { rev };
        }

        it('unset, no limit: the most recent state', async () => {
          await history();
          const list = await storage.getList(dir, { predicate: EVERYTHING });
          expect(list.items.map(nameOf)).to.deep.equal(['a', 'c']);
          expect(list.items[0]!.data).to.deep.equal({ v: 'later' });
        });

        it('a value, no match, no limit: not older than the value', async () => {
          const { rev } = await history();
          const list = await storage.getList(dir, { predicate: EVERYTHING, resourceVersion: rev });
          expect(Number(list.resourceVersion)).to.be.at.least(Number(rev));
          await expectStateAt(list);
        });

        it('a value, no match, with limit: Exact (the state at that revision)', async () => {
          const { rev } = await history();
          const list = await storage.getList(dir, { predicate: EVERYTHING, resourceVersion: rev, limit: 10 });
          expect(list.resourceVersion).to.equal(rev);
          expect(list.items.map(nameOf)).to.deep.equal(['a', 'b']);
          expect(list.items[0]!.data).to.deep.equal({ v: '1' });
        });

        it('Exact, no limit: the state at that revision, with that resourceVersion', async () => {
          const { rev } = await history();
          const list = await storage.getList(dir, { predicate: EVERYTHING, resourceVersion: rev, resourceVersionMatch: 'Exact' });
          expect(list.resourceVersion).to.equal(rev);
          expect(list.items.map(nameOf)).to.deep.equal(['a', 'b']);
        });

        it('Exact with limit: chunks of the state at that revision', async () => {
          const { rev } = await history();
          const first = await storage.getList(dir, { predicate: EVERYTHING, resourceVersion: rev, resourceVersionMatch: 'Exact', limit: 1 });
          expect(first.resourceVersion).to.equal(rev);
          expect(first.items.map(nameOf)).to.deep.equal(['a']);
          const second = await storage.getList(dir, { predicate: EVERYTHING, limit: 1, continue: first.continue });
          expect(second.resourceVersion).to.equal(rev);
          expect(second.items.map(nameOf)).to.deep.equal(['b']);
        });

        it('NotOlderThan, no limit: a state not older than the value', async () => {
          const { rev } = await history();
          const list = await storage.getList(dir, { predicate: EVERYTHING, resourceVersion: rev, resourceVersionMatch: 'NotOlderThan' });
          expect(Number(list.resourceVersion)).to.be.at.least(Number(rev));
          await expectStateAt(list);
        });

        it('NotOlderThan with limit: a state not older than the value (not Exact)', async () => {
          const { rev } = await history();
          const list = await storage.getList(dir, { predicate: EVERYTHING, resourceVersion: rev, resourceVersionMatch: 'NotOlderThan', limit: 10 });
          expect(Number(list.resourceVersion)).to.be.at.least(Number(rev));
          await expectStateAt(list);
        });

        it('NotOlderThan a future revision is TooLargeResourceVersion', async () => {
          const future = String(Number(await storage.currentRevision()) + 1000);
          const err = await expectStorageError(
            storage.getList(dir, { predicate: EVERYTHING, resourceVersion: future, resourceVersionMatch: 'NotOlderThan' }),
            'TooLargeResourceVersion',
          );
          expect(err.info.requested).to.equal(future);
        });

        it('a future value without match is TooLargeResourceVersion', async () => {
          const future = String(Number(await storage.currentRevision()) + 1000);
          await expectStorageError(storage.getList(dir, { predicate: EVERYTHING, resourceVersion: future }), 'TooLargeResourceVersion');
        });

        it('Exact at a future revision is TooLargeResourceVersion', async () => {
          const future = String(Number(await storage.currentRevision()) + 1000);
          const err = await expectStorageError(
            storage.getList(dir, { predicate: EVERYTHING, resourceVersion: future, resourceVersionMatch: 'Exact' }),
            'TooLargeResourceVersion',
          );
          expect(err.info.requested).to.equal(future);
        });

        it('a future value with limit and no match (Exact) is TooLargeResourceVersion', async () => {
          const future = String(Number(await storage.currentRevision()) + 1000);
          await expectStorageError(storage.getList(dir, { predicate: EVERYTHING, resourceVersion: future, limit: 5 }), 'TooLargeResourceVersion');
        });

        it('Exact at a compacted revision is Compacted', async () => {
          const { rev } = await history();
          await t.compact(await storage.currentRevision());
          await expectStorageError(storage.getList(dir, { predicate: EVERYTHING, resourceVersion: rev, resourceVersionMatch: 'Exact' }), 'Compacted');
        });

        it('a continue token whose revision was compacted is Compacted with a token that continues inconsistently', async () => {
          await createAll('a', 'b', 'c');
          const first = await storage.getList(dir, { predicate: EVERYTHING, limit: 1 });
          await storage.create(key('d'), fixture('d'));
          await storage.delete(key('b'), {});
          await t.compact(await storage.currentRevision());
          const err = await expectStorageError(storage.getList(dir, { predicate: EVERYTHING, limit: 1, continue: first.continue }), 'Compacted');
          expect(err.info.continueToken).to.be.a('string').and.not.equal('');
          const rest = await storage.getList(dir, { predicate: EVERYTHING, continue: err.info.continueToken });
          expect(rest.items.map(nameOf)).to.deep.equal(['c', 'd']);
          expect(Number(rest.resourceVersion)).to.be.greaterThan(Number(first.resourceVersion));
        });
      });
    });

    describe('guaranteedUpdate (spec 000 § Update rules)', () => {
      it('writes the object returned by tryUpdate with a new resourceVersion', async () => {
        const [created] = await createAll('a');
        const updated = await setV('a', '2');
        expect(updated.data).to.deep.equal({ v: '2' });
        expect(rvOf(updated)).to.be.greaterThan(rvOf(created));
        expect(await storage.get(key('a'), {})).to.deep.equal(updated);
      });

      it('hands tryUpdate the current object with its resourceVersion', async () => {
        await createAll('a');
        const current = await setV('a', '2');
        let seen: StoredObject | undefined;
        await storage.guaranteedUpdate(key('a'), {}, (cur) => {
          seen = structuredClone(cur);
          return { ...cur, data: { v: '3' } };
        });
        expect(seen).to.deep.equal(current);
      });

      it('retries after a concurrent write and applies the change to the newer object', async () => {
        await createAll('a');
        const inputs: StoredObject[] = [];
        const out = await storage.guaranteedUpdate(key('a'), {}, async (cur) => {
          inputs.push(structuredClone(cur));
          if (inputs.length === 1) {
            await storage.guaranteedUpdate(key('a'), {}, (c) => ({ ...c, data: { ...(c.data as object), other: 'concurrent' } }));
          }
          return { ...cur, data: { ...(cur.data as object), mine: 'yes' } };
        });
        expect(inputs).to.have.length(2);
        expect(inputs[1]!.data).to.deep.equal({ v: '1', other: 'concurrent' });
        expect(out.data).to.deep.equal({ v: '1', other: 'concurrent', mine: 'yes' });
        expect(await storage.get(key('a'), {})).to.deep.equal(out);
      });

      it('an update that changes nothing writes nothing and keeps the resourceVersion', async () => {
        const [created] = await createAll('a');
        const reader = await watch(dir, { resourceVersion: String(rvOf(created)) });
        const out = await storage.guaranteedUpdate(key('a'), {}, (cur) => cur);
        expect(rvOf(out)).to.equal(rvOf(created));
        expect(rvOf(await storage.get(key('a'), {}))).to.equal(rvOf(created));
        await createAll('sentinel');
        expect(await reader.take(1)).to.deep.equal([['ADDED', 'sentinel']]);
      });

      it('a matching uid and resourceVersion precondition lets the update through', async () => {
        const [created] = await createAll('a');
        const out = await storage.guaranteedUpdate(
          key('a'),
          { preconditions: { uid: created!.metadata!.uid as string, resourceVersion: String(rvOf(created)) } },
          (cur) => ({ ...cur, data: { v: '2' } }),
        );
        expect(out.data).to.deep.equal({ v: '2' });
      });

      it('a uid precondition that does not match is InvalidPreconditions and writes nothing', async () => {
        const [created] = await createAll('a');
        await expectStorageError(
          storage.guaranteedUpdate(key('a'), { preconditions: { uid: 'other-uid' } }, (cur) => ({ ...cur, data: { v: '2' } })),
          'InvalidPreconditions',
        );
        expect(await storage.get(key('a'), {})).to.deep.equal(created);
      });

      it('a resourceVersion precondition that does not match is InvalidPreconditions', async () => {
        const [created] = await createAll('a');
        await setV('a', '2');
        await expectStorageError(
          storage.guaranteedUpdate(key('a'), { preconditions: { resourceVersion: String(rvOf(created)) } }, (cur) => ({ ...cur, data: { v: '3' } })),
          'InvalidPreconditions',
        );
        expect((await storage.get(key('a'), {}))!.data).to.deep.equal({ v: '2' });
      });

      it('a missing key is KeyNotFound without ignoreNotFound', async () => {
        await expectStorageError(
          storage.guaranteedUpdate(key('missing'), {}, () => fixture('missing')),
          'KeyNotFound',
        );
      });

      it('with ignoreNotFound a missing key is created from what tryUpdate returns for an empty object', async () => {
        let seen: StoredObject | undefined;
        const out = await storage.guaranteedUpdate(key('a'), { ignoreNotFound: true }, (cur) => {
          seen = cur;
          return fixture('a', { v: 'created' });
        });
        expect(seen).to.deep.equal({});
        expect(out.data).to.deep.equal({ v: 'created' });
        expect(await storage.get(key('a'), {})).to.deep.equal(out);
      });

      it('a throwing tryUpdate aborts the update with its error', async () => {
        const [created] = await createAll('a');
        const boom = new Error('rejected by tryUpdate');
        let caught: unknown;
        try {
          await storage.guaranteedUpdate(key('a'), {}, () => {
            throw boom;
          });
        } catch (err) {
          caught = err;
        }
        expect(caught).to.equal(boom);
        expect(await storage.get(key('a'), {})).to.deep.equal(created);
      });

      it('dryRun returns the updated object and writes nothing', async () => {
        const [created] = await createAll('a');
        const out = await storage.guaranteedUpdate(key('a'), { dryRun: true }, (cur) => ({ ...cur, data: { v: 'dry' } }));
        expect(out.data).to.deep.equal({ v: 'dry' });
        expect(await storage.get(key('a'), {})).to.deep.equal(created);
      });
    });

    describe('delete (spec 000 § Object deletion lifecycle)', () => {
      it('removes the object and returns its last state', async () => {
        await createAll('a');
        const last = await setV('a', 'last');
        const out = await storage.delete(key('a'), {});
        expect(out).to.deep.equal(last);
        expect(await storage.get(key('a'), { ignoreNotFound: true })).to.equal(null);
      });

      it('a missing key is KeyNotFound', async () => {
        await expectStorageError(storage.delete(key('missing'), {}), 'KeyNotFound');
      });

      it('a uid precondition that does not match is InvalidPreconditions and deletes nothing', async () => {
        const [created] = await createAll('a');
        await expectStorageError(storage.delete(key('a'), { preconditions: { uid: 'other' } }), 'InvalidPreconditions');
        expect(await storage.get(key('a'), {})).to.deep.equal(created);
      });

      it('a stale resourceVersion precondition is InvalidPreconditions', async () => {
        const [created] = await createAll('a');
        await setV('a', '2');
        await expectStorageError(storage.delete(key('a'), { preconditions: { resourceVersion: String(rvOf(created)) } }), 'InvalidPreconditions');
        expect(await storage.count(dir)).to.equal(1);
      });

      it('matching preconditions let the delete through', async () => {
        const [created] = await createAll('a');
        await storage.delete(key('a'), { preconditions: { uid: created!.metadata!.uid as string, resourceVersion: String(rvOf(created)) } });
        expect(await storage.count(dir)).to.equal(0);
      });

      it('validateDeletion sees the current object and, by throwing, aborts the delete', async () => {
        const [created] = await createAll('a');
        const seen: StoredObject[] = [];
        const veto = new Error('vetoed');
        let caught: unknown;
        try {
          await storage.delete(key('a'), {
            validateDeletion: (cur) => {
              seen.push(cur);
              throw veto;
            },
          });
        } catch (err) {
          caught = err;
        }
        expect(caught).to.equal(veto);
        expect(seen).to.deep.equal([created]);
        expect(await storage.get(key('a'), {})).to.deep.equal(created);
      });

      it('a concurrent modification is retried: validateDeletion runs again on the newer object, which is returned', async () => {
        await createAll('a');
        const seen: unknown[] = [];
        const out = await storage.delete(key('a'), {
          validateDeletion: async (cur) => {
            seen.push(cur.data);
            if (seen.length === 1) await setV('a', 'concurrent');
          },
        });
        expect(seen).to.deep.equal([{ v: '1' }, { v: 'concurrent' }]);
        expect(out.data).to.deep.equal({ v: 'concurrent' });
        expect(await storage.count(dir)).to.equal(0);
      });

      it('dryRun returns the object and deletes nothing', async () => {
        const [created] = await createAll('a');
        const out = await storage.delete(key('a'), { dryRun: true });
        expect(out).to.deep.equal(created);
        expect(await storage.get(key('a'), {})).to.deep.equal(created);
      });
    });

    describe('watch (spec 000 § Resource versions, Watch semantics; spec 001 § Events)', () => {
      it('from a resourceVersion: only the changes after it, including those made before the watch started', async () => {
        const [a] = await createAll('a');
        await createAll('b');
        const reader = await watch(dir, { resourceVersion: String(rvOf(a)) });
        await setV('a', '2');
        expect(await reader.take(2)).to.deep.equal([['ADDED', 'b'], ['MODIFIED', 'a']]);
      });

      it('unset resourceVersion: synthetic ADDED for every existing object, then the changes', async () => {
        await createAll('a', 'b');
        const reader = await watch(dir, { resourceVersion: '' });
        expect(await reader.take(2)).to.deep.equal([['ADDED', 'a'], ['ADDED', 'b']]);
        await setV('a', '2');
        await createAll('c');
        expect(await reader.take(2)).to.deep.equal([['MODIFIED', 'a'], ['ADDED', 'c']]);
      });

      it('resourceVersion "0": every existing object arrives once as ADDED, then the changes', async () => {
        await createAll('a', 'b');
        const reader = await watch(dir, { resourceVersion: '0' });
        await setV('a', '2');
        const added = new Set<string>();
        for (;;) {
          const ev = await reader.next();
          if (ev.type === 'MODIFIED') {
            expect(nameOf(ev.object)).to.equal('a');
            expect(ev.object.data).to.deep.equal({ v: '2' });
            break;
          }
          expect(ev.type).to.equal('ADDED');
          expect(added.has(nameOf(ev.object)), `duplicate ADDED ${nameOf(ev.object)}`).to.equal(false);
          added.add(nameOf(ev.object));
        }
        expect([...added].sort()).to.deep.equal(['a', 'b']);
      });

      it('ADDED and MODIFIED carry the object at the revision of the write', async () => {
        const reader = await watch(dir, { resourceVersion: await storage.currentRevision() });
        const created = await storage.create(key('a'), fixture('a'));
        const updated = await setV('a', '2');
        const added = await reader.next();
        const modified = await reader.next();
        // The contract's fields (an implementation may add its own, as etcd3's storedJSONBody).
        const fields = (ev: WatchEvent | undefined) => ev && { type: ev.type, object: ev.object, key: ev.key };
        expect(fields(added)).to.deep.equal({ type: 'ADDED', object: created, key: key('a') });
        expect(fields(modified)).to.deep.equal({ type: 'MODIFIED', object: updated, key: key('a') });
      });

      it('DELETED carries the last state at the revision of the deletion', async () => {
        await createAll('a');
        const last = await setV('a', 'last');
        const reader = await watch(dir, { resourceVersion: String(rvOf(last)) });
        await storage.delete(key('a'), {});
        const after = Number(await storage.currentRevision());
        const ev = await reader.next();
        expect(ev.type).to.equal('DELETED');
        expect(ev.object.data).to.deep.equal({ v: 'last' });
        expect(ev.object.metadata?.uid).to.equal(last.metadata?.uid);
        expect(rvOf(ev.object)).to.be.greaterThan(rvOf(last)).and.at.most(after);
      });

      it('with a predicate: non-matching objects are not seen; one that stops matching is DELETED, one that starts matching is ADDED', async () => {
        const reader = await watch(dir, { resourceVersion: await storage.currentRevision(), predicate: labelPredicate('app', 'x') });
        await storage.create(key('a'), fixture('a', {}, { app: 'x' }));
        await storage.create(key('b'), fixture('b', {}, { app: 'y' }));
        const relabel = (nm: string, app: string) =>
          storage.guaranteedUpdate(key(nm), {}, (cur) => ({ ...cur, metadata: { ...cur.metadata, labels: { app } } }));
        await relabel('a', 'y');
        await relabel('b', 'x');
        await setV('b', 'still-x');
        await storage.delete(key('a'), {});
        await storage.delete(key('b'), {});
        expect(await reader.take(5)).to.deep.equal([
          ['ADDED', 'a'],
          ['DELETED', 'a'],
          ['ADDED', 'b'],
          ['MODIFIED', 'b'],
          ['DELETED', 'b'],
        ]);
      });

      it('an object that stops matching arrives as DELETED with its last matching state', async () => {
        const created = await storage.create(key('a'), fixture('a', {}, { app: 'x' }));
        const reader = await watch(dir, { resourceVersion: String(rvOf(created)), predicate: labelPredicate('app', 'x') });
        await storage.guaranteedUpdate(key('a'), {}, (cur) => ({ ...cur, metadata: { ...cur.metadata, labels: { app: 'y' } } }));
        const ev = await reader.next();
        expect(ev.type).to.equal('DELETED');
        expect(ev.object.metadata?.labels).to.deep.equal({ app: 'x' });
      });

      it('unset resourceVersion with a predicate: synthetic ADDED only for matching objects', async () => {
        await storage.create(key('a'), fixture('a', {}, { app: 'y' }));
        await storage.create(key('b'), fixture('b', {}, { app: 'x' }));
        const reader = await watch(dir, { predicate: labelPredicate('app', 'x') });
        await storage.create(key('c'), fixture('c', {}, { app: 'x' }));
        expect(await reader.take(2)).to.deep.equal([['ADDED', 'b'], ['ADDED', 'c']]);
      });

      it('a single-key watch sees only that key, not keys it is a prefix of', async () => {
        const [a] = await createAll('a');
        const reader = await watch(key('a'), { resourceVersion: String(rvOf(a)) });
        await createAll('a2', 'b');
        await setV('a2', '2');
        await setV('a', '2');
        await storage.delete(key('a'), {});
        expect(await reader.take(2)).to.deep.equal([['MODIFIED', 'a'], ['DELETED', 'a']]);
      });

      it('a single-key watch from unset resourceVersion starts with a synthetic ADDED for the object', async () => {
        await createAll('a', 'b');
        const reader = await watch(key('a'));
        await setV('b', '2');
        await setV('a', '2');
        expect(await reader.take(2)).to.deep.equal([['ADDED', 'a'], ['MODIFIED', 'a']]);
      });

      it('a non-numeric resourceVersion is InvalidResourceVersion', async () => {
        await expectStorageError(storage.watch(dir, { predicate: EVERYTHING, resourceVersion: 'abc' }), 'InvalidResourceVersion');
      });

      it('sendInitialEvents with bookmarks: synthetic ADDED, then a BOOKMARK marking the end of the initial events, then changes', async () => {
        await createAll('a', 'b');
        const reader = await watch(dir, { resourceVersion: '', sendInitialEvents: true, allowWatchBookmarks: true });
        expect(await reader.take(2)).to.deep.equal([['ADDED', 'a'], ['ADDED', 'b']]);
        const bookmark = await reader.next();
        expect(bookmark.type).to.equal('BOOKMARK');
        expect(rvOf(bookmark.object)).to.be.at.least(rvOf(await storage.get(key('b'), {})));
        expect(bookmark.object.metadata?.annotations).to.deep.equal({ [INITIAL_EVENTS_END_ANNOTATION]: 'true' });
        await setV('a', '2');
        let ev = await reader.next();
        while (ev.type === 'BOOKMARK') ev = await reader.next();
        expect([ev.type, nameOf(ev.object)]).to.deep.equal(['MODIFIED', 'a']);
      });

      it('timeoutMs ends the stream', async () => {
        const reader = await watch(dir, { resourceVersion: await storage.currentRevision(), timeoutMs: 200 });
        let ev = await reader.nextOrEnd();
        while (ev !== null && ev.type === 'BOOKMARK') ev = await reader.nextOrEnd();
        expect(ev).to.equal(null);
      });

      it('stop() ends the iteration, also while a consumer is waiting', async () => {
        const reader = await watch(dir, { resourceVersion: await storage.currentRevision() });
        const pending = reader.nextOrEnd(EVENT_DEADLINE_MS);
        reader.watcher.stop();
        expect(await pending).to.equal(null);
        expect(await reader.nextOrEnd()).to.equal(null);
      });

      it('stop() is idempotent', async () => {
        const reader = await watch(dir);
        reader.watcher.stop();
        reader.watcher.stop();
        expect(await reader.nextOrEnd()).to.equal(null);
      });

      it('a start revision older than the compaction gives one ERROR event with a 410 Expired Status, then the end', async () => {
        const [a] = await createAll('a');
        const start = String(rvOf(a));
        await setV('a', '2');
        await setV('a', '3');
        await createAll('b');
        const compactedAt = await storage.currentRevision();
        await t.compact(compactedAt);
        const reader = await watch(dir, { resourceVersion: start });
        const ev = await reader.next();
        if (t.historyOutlivesCompaction) {
          expect([ev.type, (ev.object.data as { v: string }).v]).to.deep.equal(['MODIFIED', '2']);
          return;
        }
        expect(ev.type).to.equal('ERROR');
        expect(ev.object).to.include({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410 });
        if (t.compactedWatchMessage !== undefined) {
          expect(ev.object.message).to.equal(t.compactedWatchMessage);
          expect(await reader.nextOrEnd()).to.equal(null);
          return;
        }
        const m = /^too old resource version: (\d+) \((\d+)\)$/.exec(ev.object.message as string);
        expect(m, `message ${String(ev.object.message)}`).to.not.equal(null);
        expect(m![1]).to.equal(start);
        expect(Number(m![2])).to.be.greaterThan(Number(start));
        expect(await reader.nextOrEnd()).to.equal(null);
      });

      it('allowWatchBookmarks: BOOKMARK events carry only a resourceVersion not older than the start', async function () {
        this.timeout(BOOKMARK_DEADLINE_MS + 10_000);
        const start = await storage.currentRevision();
        const reader = await watch(dir, { resourceVersion: start, allowWatchBookmarks: true });
        const ev = await reader.next(BOOKMARK_DEADLINE_MS);
        expect(ev.type).to.equal('BOOKMARK');
        expect(Object.keys(ev.object.metadata ?? {})).to.deep.equal(['resourceVersion']);
        expect(rvOf(ev.object)).to.be.at.least(Number(start));
      });
    });

    describe('count and currentRevision', () => {
      it('count is the number of objects under the prefix', async () => {
        await createAll('a', 'b', 'c');
        await storage.delete(key('b'), {});
        expect(await storage.count(dir)).to.equal(2);
      });

      it('count of an empty prefix is 0', async () => {
        expect(await storage.count(dir)).to.equal(0);
      });

      it('currentRevision is at least the revision of the last write and grows with writes', async () => {
        const before = Number(await storage.currentRevision());
        const [a] = await createAll('a');
        const now = Number(await storage.currentRevision());
        expect(now).to.be.at.least(rvOf(a));
        expect(now).to.be.greaterThan(before);
      });
    });
  });
}
