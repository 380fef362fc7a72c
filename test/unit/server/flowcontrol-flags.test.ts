import { expect } from 'chai';
import { FlagError, parseServerFlags } from '../../../lib/server/options/flags.js';

describe('server/options/flowcontrol-flags', () => {
  it("defaults to APF over 400 + 200 seats, shedding from an event-loop delay of 100ms the levels of ordinary users' requests", () => {
    expect(parseServerFlags([]).flowControl).to.deep.equal({
      enablePriorityAndFairness: true,
      maxRequestsInFlight: 400,
      maxMutatingRequestsInFlight: 200,
      maxEventLoopDelayMs: 100,
      eventLoopShedLevels: ['catch-all', 'global-default', 'workload-low'],
    });
  });

  it('reads the five flags', () => {
    const o = parseServerFlags(['--enable-priority-and-fairness=false', '--max-requests-inflight=10', '--max-mutating-requests-inflight', '0', '--max-event-loop-delay=250ms', '--event-loop-shed-levels=bulk,catch-all']);
    expect(o.flowControl).to.deep.equal({ enablePriorityAndFairness: false, maxRequestsInFlight: 10, maxMutatingRequestsInFlight: 0, maxEventLoopDelayMs: 250, eventLoopShedLevels: ['bulk', 'catch-all'] });
    expect(parseServerFlags(['--event-loop-shed-levels=']).flowControl.eventLoopShedLevels).to.deep.equal([]);
    expect(parseServerFlags(['--max-event-loop-delay=0']).flowControl.maxEventLoopDelayMs).to.equal(0);
  });

  it('refuses a negative or malformed event-loop delay', () => {
    expect(() => parseServerFlags(['--max-event-loop-delay=-1s'])).to.throw(FlagError, '--max-event-loop-delay can not be negative');
    expect(() => parseServerFlags(['--max-event-loop-delay=soon'])).to.throw(FlagError, 'invalid argument "soon" for "--max-event-loop-delay" flag');
  });

  it('refuses negative limits with upstream messages', () => {
    expect(() => parseServerFlags(['--max-requests-inflight=-1'])).to.throw(FlagError, '--max-requests-inflight can not be negative value');
    expect(() => parseServerFlags(['--max-mutating-requests-inflight=-1'])).to.throw(FlagError, '--max-mutating-requests-inflight can not be negative value');
  });

  it('refuses a zero total under priority and fairness only', () => {
    expect(() => parseServerFlags(['--max-requests-inflight=0', '--max-mutating-requests-inflight=0'])).to.throw(
      FlagError,
      'invalid configuration: MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; they must add up to something positive',
    );
    expect(parseServerFlags(['--enable-priority-and-fairness=false', '--max-requests-inflight=0', '--max-mutating-requests-inflight=0']).flowControl.maxRequestsInFlight).to.equal(0);
  });

  it('refuses a non-integer', () => {
    expect(() => parseServerFlags(['--max-requests-inflight=many'])).to.throw(FlagError, 'invalid argument "many" for "--max-requests-inflight" flag: strconv.ParseInt: parsing "many": invalid syntax');
  });
});
