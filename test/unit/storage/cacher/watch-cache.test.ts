import { expect } from 'chai';
import { CacheWatcher } from '../../../../lib/storage/cacher/cache-watcher.js';
import { type CacheEvent, PACK_AFTER_MS, TooOldError, WatchCache } from '../../../../lib/storage/cacher/watch-cache.js';
import { EVERYTHING, type SelectionPredicate, type StoredObject, type WatchEvent } from '../../../../lib/storage/interface.js';

const P = '/r/core/configmaps/';
const obj = (ns: string, name: string, rv: number, labels: Record<string, string> = {}): StoredObject => ({
  metadata: { namespace: ns, name, resourceVersion: String(rv), labels },
});
const keyOf = (o: StoredObject) => `${P}${o.metadata!.namespace as string}/${o.metadata!.name as string}`;
const ev = (type: CacheEvent['type'], o: StoredObject, rv: number, prev?: StoredObject, at = Date.now()): CacheEvent => ({ type, key: keyOf(o), object: o, prevObject: prev, rv, at, seq: rv });
const labelIs = (k: string, v: string): SelectionPredicate => ({
  empty: () => false,
  matches: (o) => (o.metadata?.labels as Record<string, string> | undefined)?.[k] === v,
  matchesSingleName: () => undefined,
  matchesSingleField: () => undefined,
});

async function drain(w: CacheWatcher): Promise<WatchEvent[]> {
  w.stop();
  const out: WatchEvent[] = [];
  for await (const e of w) out.push(e);
  return out;
}

describe('WatchCache (issue #4 item 5)', () => {
  it('lists a prefix in key order and a single key', () => {
    const c = new WatchCache();
    c.replace([obj('b', 'x', 3), obj('a', 'z', 2), obj('a', 'y', 1)], 10, keyOf);
    expect(c.snapshot(`${P}a/`).map(([k]) => k)).to.deep.equal([`${P}a/y`, `${P}a/z`]);
    expect(c.snapshot(P).map(([k]) => k)).to.deep.equal([`${P}a/y`, `${P}a/z`, `${P}b/x`]);
    expect(c.snapshot(`${P}b/x`).map(([k]) => k)).to.deep.equal([`${P}b/x`]);
  });

  it('keeps key order through adds and deletes', () => {
    const c = new WatchCache();
    c.replace([obj('a', 'm', 1)], 1, keyOf);
    c.snapshot(P);
    c.apply(ev('ADDED', obj('a', 'c', 2), 2));
    c.apply(ev('ADDED', obj('a', 'x', 3), 3));
    c.apply(ev('DELETED', obj('a', 'm', 4), 4));
    expect(c.snapshot(P).map(([k]) => k)).to.deep.equal([`${P}a/c`, `${P}a/x`]);
    expect(c.resourceVersion).to.equal(4);
  });

  it('numbers changes in order, also the ones a relist produces at a single revision', () => {
    const c = new WatchCache();
    c.replace([obj('a', 'x', 1), obj('a', 'y', 2)], 2, keyOf);
    const e = ev('ADDED', obj('a', 'z', 3), 3);
    e.seq = undefined;
    c.apply(e);
    expect(e.seq).to.equal(1);
    const diff = c.replace([obj('a', 'q', 5)], 5, keyOf);
    expect(diff.map((d) => [d.rv, d.seq])).to.deep.equal([
      [5, 2],
      [5, 3],
      [5, 4],
      [5, 5],
    ]);
    expect(c.lastSeq).to.equal(5);
  });

  it('answers events after a revision within the window, and TooOld before it', () => {
    const c = new WatchCache();
    c.replace([], 10, keyOf);
    c.apply(ev('ADDED', obj('a', 'p', 11), 11));
    c.apply(ev('ADDED', obj('b', 'q', 12), 12));
    expect(c.eventsSince(10, P).map((e) => e.rv)).to.deep.equal([11, 12]);
    expect(c.eventsSince(11, `${P}b/`).map((e) => e.rv)).to.deep.equal([12]);
    expect(() => c.eventsSince(9, P)).to.throw(TooOldError, 'too old resource version: 9 (10)');
  });

  it('bounds the window by count and by age, moving its start forward', () => {
    const c = new WatchCache({ historyMs: 1000, maxEvents: 2 });
    c.replace([], 10, keyOf);
    for (let rv = 11; rv <= 14; rv++) c.apply(ev('ADDED', obj('a', `o${rv}`, rv), rv));
    expect(c.eventCount).to.equal(2);
    expect(c.oldestResourceVersion).to.equal(12);
    expect(() => c.eventsSince(11, P)).to.throw(TooOldError);
    const aged = new WatchCache({ historyMs: 1000, maxEvents: 100 });
    aged.replace([], 1, keyOf);
    aged.apply(ev('ADDED', obj('a', 'old', 2), 2, undefined, Date.now() - 5000));
    aged.apply(ev('ADDED', obj('a', 'new', 3), 3));
    expect(aged.eventCount).to.equal(1);
  });

  it('holds old versions packed once their events are older than PACK_AFTER_MS: replays and past states give them back equal, one parse per version; current objects stay as they are', () => {
    const c = new WatchCache();
    c.replace([], 10, keyOf);
    const old = Date.now() - PACK_AFTER_MS - 1000;
    const v1 = obj('a', 'x', 11, { v: '1' });
    const v2 = obj('a', 'x', 12, { v: '2' });
    const v3 = obj('a', 'x', 13, { v: '3' });
    const y = obj('a', 'y', 14);
    const yGone = obj('a', 'y', 15);
    c.apply(ev('ADDED', v1, 11, undefined, old));
    c.apply(ev('MODIFIED', v2, 12, v1, old));
    c.apply(ev('MODIFIED', v3, 13, v2, old));
    c.apply(ev('ADDED', y, 14, undefined, old));
    c.apply(ev('DELETED', yGone, 15, y, old));
    const fresh = obj('b', 'z', 16);
    c.apply(ev('ADDED', fresh, 16));
    c.advance(16);

    const replay = c.eventsSince(10, P);
    expect(replay.map((e) => e.object)).to.deep.equal([v1, v2, v3, y, yGone, fresh]);
    expect(replay.map((e) => e.prevObject)).to.deep.equal([undefined, v1, v2, undefined, y, undefined]);
    expect(replay[0]!.object, 'an old version comes back parsed again').to.not.equal(v1);
    expect(replay[1]!.prevObject, 'one parse serves both events that hold a version').to.equal(replay[0]!.object);
    expect(replay[2]!.object, 'the current object is never packed').to.equal(v3);
    expect(replay[5]!.object, 'a recent event is not packed').to.equal(fresh);
    expect(c.get(`${P}a/x`)).to.equal(v3);

    const at = (rv: number) => {
      const view = c.snapshotAt(rv)!;
      const out: StoredObject[] = [];
      for (const it = view.scan(''); it.key !== undefined; it.next()) out.push(it.value!);
      return out;
    };
    expect(at(12)).to.deep.equal([v2]);
    expect(at(14)).to.deep.equal([v3, y]);
    expect(at(15)).to.deep.equal([v3]);
  });

  it('packs an old version as the JSON body it was handed for it, without serializing it again', () => {
    const c = new WatchCache();
    c.replace([], 10, keyOf);
    const old = Date.now() - PACK_AFTER_MS - 1000;
    const v1: StoredObject = { kind: 'K', ...obj('a', 'x', 11) };
    const v2: StoredObject = { kind: 'K', ...obj('a', 'x', 12) };
    c.apply(ev('ADDED', v1, 11, undefined, old));
    // A body that is not JSON.stringify(v1) (its keys in another order) shows which bytes the window kept.
    c.packedAs(v1, Buffer.from(`${JSON.stringify({ metadata: v1.metadata, kind: 'K' })}\n`));
    c.apply(ev('MODIFIED', v2, 12, v1, old));
    c.apply(ev('ADDED', obj('b', 'z', 13), 13));
    const replay = c.eventsSince(10, P);
    expect(replay[0]!.object).to.deep.equal(v1);
    expect(Object.keys(replay[0]!.object), 'the handed bytes, parsed').to.deep.equal(['metadata', 'kind']);
    expect(replay[1]!.prevObject).to.equal(replay[0]!.object);
  });

  it('turns a relist into the events between the old and the new state', () => {
    const c = new WatchCache();
    c.replace([obj('a', 'kept', 1), obj('a', 'changed', 2), obj('a', 'gone', 3)], 5, keyOf);
    const diff = c.replace([obj('a', 'kept', 1), obj('a', 'changed', 7), obj('a', 'born', 8)], 9, keyOf);
    expect(diff.map((e) => [e.type, e.object.metadata!.name, e.rv])).to.deep.equal([
      ['DELETED', 'gone', 9],
      ['MODIFIED', 'changed', 9],
      ['ADDED', 'born', 9],
    ]);
    expect(diff[0]!.object.metadata!.resourceVersion).to.equal('9');
  });

  it('holds one frozen copy of equal fieldsV1 trees across the objects it lists and applies (issue #24 item 2)', () => {
    const fieldsV1 = '{"f:data":{".":{},"f:a":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}';
    const withFields = (name: string, rv: number): StoredObject => ({
      metadata: { namespace: 'a', name, resourceVersion: String(rv), managedFields: [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: JSON.parse(fieldsV1) }] },
    });
    const treeOf = (o: StoredObject | undefined) => (o!.metadata!.managedFields as Array<{ fieldsV1: object }>)[0]!.fieldsV1;
    const c = new WatchCache();
    c.replace([withFields('listed', 1)], 1, keyOf);
    c.apply(ev('ADDED', withFields('added', 2), 2));
    c.apply(ev('MODIFIED', withFields('listed', 3), 3, c.get(`${P}a/listed`)));
    const trees = ['listed', 'added'].map((n) => treeOf(c.get(`${P}a/${n}`)));
    expect(trees[0]).to.equal(trees[1]);
    expect(Object.isFrozen(trees[0])).to.equal(true);
    expect(JSON.stringify(trees[0])).to.equal(fieldsV1);
  });
});

describe('CacheWatcher (spec 000 § Watch parameters)', () => {
  const mk = (predicate: SelectionPredicate = EVERYTHING, allowBookmarks = false, scope = P) =>
    new CacheWatcher({ scope, predicate, allowBookmarks, onStop: () => undefined, currentRV: () => 99 });

  it('delivers changes of its scope once, skipping those already passed', async () => {
    const w = mk(EVERYTHING, false, `${P}a/`);
    w.advanceTo(5, 5);
    w.offer(ev('ADDED', obj('a', 'old', 5), 5));
    w.offer(ev('ADDED', obj('b', 'other', 6), 6));
    w.offer(ev('ADDED', obj('a', 'new', 7), 7));
    w.offer(ev('ADDED', obj('a', 'new', 7), 7));
    expect((await drain(w)).map((e) => e.object.metadata!.name)).to.deep.equal(['new']);
  });

  it('sends DELETED (previous content, new revision) when an object stops matching and ADDED when it starts', async () => {
    const w = mk(labelIs('on', 'yes'));
    const a1 = obj('a', 'x', 1, { on: 'yes' });
    const a2 = obj('a', 'x', 2, { on: 'no' });
    const a3 = obj('a', 'x', 3, { on: 'yes' });
    w.offer(ev('MODIFIED', a2, 2, a1));
    w.offer(ev('MODIFIED', a3, 3, a2));
    w.offer(ev('MODIFIED', obj('a', 'y', 4, { on: 'no' }), 4, obj('a', 'y', 1, { on: 'no' })));
    const out = await drain(w);
    expect(out.map((e) => [e.type, e.object.metadata!.resourceVersion, (e.object.metadata!.labels as Record<string, string>).on])).to.deep.equal([
      ['DELETED', '2', 'yes'],
      ['ADDED', '3', 'yes'],
    ]);
  });

  it('hands one event object per change to every watcher without a predicate, and takes without waiting', () => {
    const [a, b, filtered] = [mk(), mk(), mk(labelIs('on', 'yes'))];
    const change = ev('ADDED', obj('a', 'x', 8, { on: 'yes' }), 8);
    for (const w of [a, b, filtered]) w.offer(change);
    const [ea, eb, ef] = [a.take(), b.take(), filtered.take()];
    expect(ea).to.equal(eb);
    expect(ea).to.deep.equal({ type: 'ADDED', object: change.object, key: change.key });
    expect(ef).to.deep.equal(ea);
    expect(a.take()).to.equal(undefined);
    a.stop();
    expect(a.take()).to.equal(null);
  });

  it('sends BOOKMARKs only when asked for, and a last one on a graceful stop', async () => {
    const quiet = mk();
    quiet.bookmark(10);
    quiet.stop(true);
    expect(await drain(quiet)).to.deep.equal([]);
    const w = mk(EVERYTHING, true);
    w.bookmark(10);
    w.stop(true);
    const out = await drain(w);
    expect(out.map((e) => [e.type, e.object.metadata!.resourceVersion])).to.deep.equal([
      ['BOOKMARK', '10'],
      ['BOOKMARK', '99'],
    ]);
  });
});
