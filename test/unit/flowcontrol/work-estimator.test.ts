import { expect } from 'chai';
import { estimateSeats, ObjectCounts } from '../../../lib/flowcontrol/work-estimator.js';
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
});
