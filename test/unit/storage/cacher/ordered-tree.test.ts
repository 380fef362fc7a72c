import { expect } from 'chai';
import { OrderedStore, keyRange } from '../../../../lib/storage/cacher/ordered-store.js';
import { OrderedTree, type OrderedView } from '../../../../lib/storage/cacher/ordered-tree.js';
import { type UndoableChange, rewind } from '../../../../lib/storage/cacher/snapshots.js';
import type { StoredObject } from '../../../../lib/storage/interface.js';
import { seededRandom } from '../../../framework/fuzz.js';


/** The reference model: `[key, object]` pairs in key order. */
type Model = [string, StoredObject][];

const objectAt = (key: string, rv: number): StoredObject => ({ metadata: { name: key, resourceVersion: String(rv) } });

function entriesOf(v: OrderedView, from = '', to?: string): Model {
  const out: Model = [];
  for (const at = v.scan(from, to); at.key !== undefined; at.next()) out.push([at.key, at.value!]);
  return out;
}

function modelRange(m: Model, from: string, to?: string): Model {
  return m.filter(([k]) => k >= from && (to === undefined || k < to));
}

function modelSet(m: Model, key: string, obj: StoredObject | undefined): Model {
  const rest = m.filter(([k]) => k !== key);
  if (obj) rest.push([key, obj]);
  return rest.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Checks seeks, scans and counts of `v` over random ranges against `m`. */
function expectSameReads(v: OrderedView, m: Model, keyOf: () => string): void {
  expect(v.size).to.equal(m.length);
  expect(entriesOf(v)).to.deep.equal(m);
  for (let i = 0; i < 4; i++) {
    const bounds = [keyOf(), keyOf()].sort();
    const [from, to] = i === 0 ? keyRange(keyOf().slice(0, 5)) : i === 1 ? keyRange(keyOf()) : bounds;
    const expected = modelRange(m, from!, to);
    expect(entriesOf(v, from, to), `scan [${from}, ${to})`).to.deep.equal(expected);
    expect(v.count(from!, to), `count [${from}, ${to})`).to.equal(expected.length);
    expect(v.count(from!), `count [${from}, ∞)`).to.equal(modelRange(m, from!).length);
  }
}

describe('OrderedTree: the watch cache ordered store against a sorted-array model (issue #17 items 1 and 2)', () => {
  for (const seed of [1, 2, 3]) {
    it(`answers as the model through random inserts, replaces, deletes, snapshots and rewinds (node size 4, seed ${seed})`, () => {
      const rand = seededRandom(seed);
      // Keys over a few prefixes, so ranges of prefixes and single keys hold several keys.
      const keyOf = () => `/r/${'abcd'[Math.floor(rand() * 4)]}/${Math.floor(rand() * 300).toString(36)}`;
      const store = new OrderedStore(4);
      let model: Model = [];
      let rv = 0;
      const snapshots: { view: OrderedView; model: Model; changesAfter: UndoableChange[] }[] = [];
      const write = (key: string, obj: StoredObject | undefined) => {
        const prev = store.get(key);
        if (obj) store.set(key, obj);
        else store.delete(key);
        model = modelSet(model, key, obj);
        for (const s of snapshots) s.changesAfter.push({ key, prevObject: prev });
      };
      // Grows to ~600 keys, then shrinks to a few, so both splits and merges happen at every level.
      let most = 0;
      for (let op = 0; op < 6000; op++) {
        most = Math.max(most, model.length);
        const growing = op < 3000;
        const r = rand();
        if (op === 50) store.view();
        if (r < (growing ? 0.45 : 0.15)) {
          write(keyOf(), objectAt('new', ++rv));
        } else if (r < 0.6) {
          const existing = model[Math.floor(rand() * model.length)];
          if (existing) write(existing[0], objectAt(existing[0], ++rv));
        } else if (r < (growing ? 0.9 : 0.97)) {
          const existing = model[Math.floor(rand() * model.length)];
          write(existing && rand() < 0.9 ? existing[0] : keyOf(), undefined);
        } else if (op > 50) {
          snapshots.push({ view: store.snapshot(), model, changesAfter: [] });
          if (snapshots.length > 6) snapshots.shift();
        }
        if (op % 97 === 0 && op > 50) {
          expectSameReads(store.view(), model, keyOf);
          for (const s of snapshots) {
            expectSameReads(s.view, s.model, keyOf);
            const rewound = rewind(store.snapshot(), s.changesAfter);
            expectSameReads(rewound, s.model, keyOf);
          }
        }
      }
      expect(most).to.be.above(250);
      expect(model.length).to.be.below(100);
      expectSameReads(store.view(), model, keyOf);
      for (const s of snapshots) expectSameReads(s.view, s.model, keyOf);
    });
  }

  it('leaves a rewound view and its source unchanged by changes to either side', () => {
    const store = new OrderedStore(4);
    for (let i = 0; i < 40; i++) store.set(`k${String(i).padStart(2, '0')}`, objectAt(`k${i}`, i));
    const now = store.snapshot();
    const before = rewind(now, [{ key: 'k05', prevObject: objectAt('k05', 100) }, { key: 'k99' }, { key: 'k10' }]);
    store.delete('k06');
    store.set('k07', objectAt('k07', 200));
    expect(now.size).to.equal(40);
    expect(entriesOf(now, 'k06', 'k08').map(([, o]) => o.metadata!.resourceVersion)).to.deep.equal(['6', '7']);
    expect(before.size).to.equal(39);
    expect(entriesOf(before, 'k05', 'k06')[0]![1].metadata!.resourceVersion).to.equal('100');
    expect(entriesOf(before, 'k10', 'k11')).to.deep.equal([]);
  });

  it('builds a tree from sorted keys of any count, and empties back to nothing', () => {
    for (const n of [0, 1, 3, 4, 5, 16, 17, 63, 64, 65, 200]) {
      const keys = Array.from({ length: n }, (_, i) => `k${String(i).padStart(3, '0')}`);
      const tree = OrderedTree.fromSorted(
        keys,
        keys.map((k) => objectAt(k, 1)),
        4,
      );
      expect(entriesOf(tree.view()).map(([k]) => k)).to.deep.equal(keys);
      for (const k of keys) expect(tree.delete(k)).to.equal(true);
      expect(tree.delete('k000')).to.equal(false);
      expect(tree.size).to.equal(0);
      expect(entriesOf(tree.view())).to.deep.equal([]);
    }
  });

  it('costs a Map write per change while nothing reads in order, and orders the keys at the first ordered read', () => {
    const store = new OrderedStore(4);
    store.reset(new Map(['c', 'a', 'b'].map((k) => [k, objectAt(k, 1)])));
    store.set('0', objectAt('0', 2));
    store.delete('b');
    expect(entriesOf(store.view()).map(([k]) => k)).to.deep.equal(['0', 'a', 'c']);
  });
});
