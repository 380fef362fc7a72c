import { expect } from 'chai';
import { SEAT_DEMAND_SMOOTHING, SeatDemandIntegrator, SeatDemandStats } from '../../../lib/flowcontrol/seat-demand.js';

/** A clock the test advances (ms). */
function clock() {
  let t = 0;
  return { now: () => t, to: (ms: number) => (t = ms) };
}

describe('flowcontrol seat demand', () => {
  it('integrates the demand over time: average, population standard deviation, range', () => {
    const c = clock();
    const igr = new SeatDemandIntegrator(c.now);
    igr.set(2);
    c.to(1000);
    igr.set(6);
    c.to(3000);
    igr.set(0);
    c.to(4000);
    // 2 for 1 s, 6 for 2 s, 0 for 1 s: ∫x = 14, ∫x² = 76 over 4 s → avg 3.5, variance 19 − 12.25 = 6.75.
    const r = igr.reset();
    expect(r.duration).to.equal(4);
    expect(r.average).to.equal(3.5);
    expect(r.deviation).to.be.closeTo(Math.sqrt(6.75), 1e-12);
    expect([r.min, r.max]).to.deep.equal([0, 6]);
    // After a reset the range starts at the current value (0).
    igr.set(4);
    c.to(6000);
    expect(igr.reset()).to.deep.equal({ duration: 2, average: 4, deviation: 0, min: 0, max: 4 });
  });

  it('reports NaN moments for an empty period', () => {
    const c = clock();
    const igr = new SeatDemandIntegrator(c.now);
    igr.set(3);
    const r = igr.reset();
    expect(r.duration).to.equal(0);
    expect(Number.isNaN(r.average)).to.equal(true);
    expect(Number.isNaN(r.deviation)).to.equal(true);
    expect(r.max).to.equal(3);
  });

  it('smooths the envelope avg + stdDev as upstream seatDemandStats', () => {
    const stats = new SeatDemandStats();
    stats.update({ duration: 4, average: 3.5, deviation: Math.sqrt(6.75), min: 0, max: 6 });
    const first = 3.5 + Math.sqrt(6.75);
    expect(stats.highWatermark).to.equal(6);
    expect(stats.avg).to.equal(3.5);
    expect(stats.smoothed).to.be.closeTo(first, 1e-12);
    // A lower envelope decays the smoothed figure: max(4, 0.977 × first + 0.023 × 4).
    stats.update({ duration: 2, average: 4, deviation: 0, min: 0, max: 4 });
    expect(stats.smoothed).to.be.closeTo(SEAT_DEMAND_SMOOTHING * first + (1 - SEAT_DEMAND_SMOOTHING) * 4, 1e-12);
    expect(stats.smoothed).to.be.closeTo(6.0498, 1e-4);
    // A higher envelope replaces it at once; a NaN deviation counts as 0.
    stats.update({ duration: 10, average: 9, deviation: NaN, min: 9, max: 9 });
    expect([stats.avg, stats.stdDev, stats.smoothed]).to.deep.equal([9, 0, 9]);
    // An empty period only moves the high watermark.
    stats.update({ duration: 0, average: NaN, deviation: NaN, min: 1, max: 1 });
    expect([stats.highWatermark, stats.avg, stats.smoothed]).to.deep.equal([1, 9, 9]);
  });
});
