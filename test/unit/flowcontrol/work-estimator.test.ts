import { expect } from 'chai';
import { WatchCounts } from '../../../lib/flowcontrol/watch-tracker.js';
import { estimateSeats, estimateWork, ObjectCounts } from '../../../lib/flowcontrol/work-estimator.js';
import { requestInfoOf } from '../../../lib/request/request-info.js';

const info = (verb: string, resource = 'configmaps', apiGroup = '') => requestInfoOf({ isResourceRequest: true, verb, resource, apiGroup, namespace: 'ns' });
const q = (s: string) => new URLSearchParams(s);

describe('flowcontrol work estimator', () => {
  const counts = new ObjectCounts();
  counts.set('', 'configmaps', 950);
  counts.set('apps', 'deployments', 30);

  it('gives one seat to most requests', () => {
    expect(estimateSeats(info('get'), q(''), counts, 10)).to.equal(1);
    expect(estimateSeats(info('create'), q(''), counts, 10)).to.equal(1);
    expect(estimateSeats(requestInfoOf({ verb: 'get', path: '/healthz' }), q(''), counts, 10)).to.equal(1);
  });

  it('sizes a LIST by the objects it processes, one seat per 100, within [1, maxSeats]', () => {
    expect(estimateSeats(info('list'), q(''), counts, 20)).to.equal(19);
    expect(estimateSeats(info('list'), q(''), counts, 10)).to.equal(10);
    expect(estimateSeats(info('list'), q('resourceVersion=0'), counts, 20)).to.equal(10);
    expect(estimateSeats(info('list'), q('limit=100'), counts, 20)).to.equal(2);
    expect(estimateSeats(info('list'), q('limit=100&labelSelector=a%3Db'), counts, 20)).to.equal(11);
    expect(estimateSeats(info('list', 'deployments', 'apps'), q(''), counts, 10)).to.equal(1);
    expect(estimateSeats(info('list', 'secrets'), q(''), counts, 10)).to.equal(1);
    expect(estimateSeats(info('list'), q('limit=x'), counts, 7)).to.equal(7);
  });

  it('gives a watch one seat unless it asks for the initial events', () => {
    expect(estimateSeats(info('watch'), q(''), counts, 20)).to.equal(1);
    expect(estimateSeats(info('watch'), q('sendInitialEvents=false'), counts, 20)).to.equal(1);
    expect(estimateSeats(info('watch'), q('sendInitialEvents=true&resourceVersionMatch=NotOlderThan'), counts, 20)).to.equal(10);
  });

  describe('mutating requests (upstream mutating_work_estimator.go)', () => {
    const pod = (verb: string, namespace: string, name = '') => requestInfoOf({ isResourceRequest: true, verb, resource: 'pods', namespace, name });
    /** Registers `n` watches like `info` with query `query`. */
    const watch = (w: WatchCounts, n: number, namespace: string, name = '', query = '') => {
      const forgets = [];
      for (let i = 0; i < n; i++) forgets.push(w.register(pod('watch', namespace, name), q(query))!);
      return forgets;
    };

    it('takes one seat and no final phase with fewer than 10 interested watchers', () => {
      const w = new WatchCounts();
      expect(estimateWork(pod('create', 'a'), q(''), counts, w, 10)).to.deep.equal({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
      watch(w, 9, '');
      let seen = -1;
      expect(estimateWork(pod('update', 'a', 'p'), q(''), counts, w, 10, { observe: (n) => (seen = n) })).to.deep.equal({ initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
      expect(seen).to.equal(9);
    });

    it('adds ceil(watchers / 10) final seats for 5 ms, reshaped above the level maximum', () => {
      const w = new WatchCounts();
      watch(w, 10, '');
      watch(w, 10, 'a');
      watch(w, 5, 'a', 'p');
      watch(w, 100, 'b');
      // A create in a (no name): all-namespace 10 + namespace a 10 = 20 → 2 seats × 5 ms.
      expect(estimateWork(pod('create', 'a'), q(''), counts, w, 10)).to.deep.equal({ initialSeats: 1, finalSeats: 2, additionalLatencyMs: 5 });
      // A patch of a/p: 10 + 10 + 5 = 25 → 3 seats × 5 ms.
      expect(estimateWork(pod('patch', 'a', 'p'), q(''), counts, w, 10)).to.deep.equal({ initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 });
      // A delete in b: 10 + 100 = 110 → 11 seats, capped at the level's 8: 11 × 5 ms / 8 = 6.875 ms.
      expect(estimateWork(pod('delete', 'b', 'x'), q(''), counts, w, 8)).to.deep.equal({ initialSeats: 1, finalSeats: 8, additionalLatencyMs: 6.875 });
      // The cap is at most 10 (upstream MaximumMutatingSeatsLimit): 11 seats → 10 for 5.5 ms.
      expect(estimateWork(pod('delete', 'b', 'x'), q(''), counts, w, 20)).to.deep.equal({ initialSeats: 1, finalSeats: 10, additionalLatencyMs: 5.5 });
      // Truncated to whole nanoseconds: 11 × 5 ms / 3 = 18.333333 ms.
      expect(estimateWork(pod('delete', 'b', 'x'), q(''), counts, w, 3).additionalLatencyMs).to.equal(18.333333);
      // Reads, deletecollection and token requests produce no estimated event.
      expect(estimateWork(pod('get', 'b', 'x'), q(''), counts, w, 10).finalSeats).to.equal(0);
      expect(estimateWork(pod('deletecollection', 'b'), q(''), counts, w, 10).finalSeats).to.equal(0);
      const token = requestInfoOf({ isResourceRequest: true, verb: 'create', resource: 'serviceaccounts', subresource: 'token', namespace: 'b' });
      expect(estimateWork(token, q(''), counts, w, 10).finalSeats).to.equal(0);
    });

    it('counts watches until they are forgotten, and not pods watches of one node', () => {
      const w = new WatchCounts();
      const forgets = watch(w, 12, 'a');
      watch(w, 30, '', '', 'fieldSelector=spec.nodeName%3Dnode-1');
      watch(w, 3, '', '', 'fieldSelector=spec.nodeName%3D');
      expect(w.interested(pod('create', 'a'))).to.equal(15);
      expect(w.interested(pod('list', 'a'))).to.equal(0);
      forgets[0]!();
      forgets[0]!();
      expect(w.interested(pod('create', 'a'))).to.equal(14);
      for (const f of forgets) f();
      expect(w.interested(pod('create', 'a'))).to.equal(3);
      expect(w.register(pod('get', 'a'), q(''))).to.equal(undefined);
    });
  });
});
