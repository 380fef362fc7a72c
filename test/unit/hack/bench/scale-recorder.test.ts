/**
 * The scale benchmark's bookkeeping (hack/bench/scale/recorder.ts; issue #24 item 5): watch lag
 * from a write's acknowledgement to its kubelet's event, events lost, percentiles.
 */
import { expect } from 'chai';
import { percentile, WatchLag } from '../../../../hack/bench/scale/recorder.js';
import { microTime, podStatusPatch } from '../../../../hack/bench/scale/objects.js';

describe('hack/bench/scale: recorder', () => {
  it('measures the lag from acknowledgement to the event of the same object and resourceVersion', () => {
    const lag = new WatchLag();
    lag.acknowledged('ns', 'p1', '10', 1000);
    lag.acknowledged('ns', 'p2', '11', 1005);
    lag.seen('ns', 'p1', '10', 1030);
    lag.seen('ns', 'p1', '12', 1040); // another write of p1, never acknowledged here: not a lag
    expect(lag.lags).to.deep.equal([30]);
    expect(lag.pending).to.equal(1); // p2@11 was never seen: lost if it stays so
  });

  it('counts an event that arrived before its write was acknowledged as a lag of 0', () => {
    const lag = new WatchLag();
    lag.seen('ns', 'p1', '7', 500);
    lag.acknowledged('ns', 'p1', '7', 510);
    expect(lag.lags).to.deep.equal([0]);
    expect(lag.pending).to.equal(0);
  });

  it('keeps the latest 100,000 events seen early: events no acknowledgement closes do not crowd out the ones that come', () => {
    const lag = new WatchLag();
    for (let i = 0; i < 100_000; i++) lag.seen('ns', `unacknowledged-${i}`, '1', i);
    lag.seen('ns', 'p1', '7', 200_000);
    lag.acknowledged('ns', 'p1', '7', 215_000);
    expect(lag.lags).to.deep.equal([0]);
    expect(lag.pending).to.equal(0);
  });

  it('takes percentiles of the values, 0 when there are none', () => {
    expect(percentile([], 99)).to.equal(0);
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).to.equal(51);
    expect(percentile(values, 99)).to.equal(100);
  });

  it('writes MicroTime with six fractional digits and changes a Pod with every status update', () => {
    expect(microTime(new Date('2026-11-29T13:40:01.234Z'))).to.equal('2026-11-29T13:40:01.234000Z');
    const now = new Date('2026-11-29T13:40:01Z');
    expect(podStatusPatch(3, 4, 1, now)).to.not.deep.equal(podStatusPatch(3, 4, 2, now));
  });
});
