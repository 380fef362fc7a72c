import { expect } from 'chai';
import { mandatoryPriorityLevels, suggestedPriorityLevels } from '../../../lib/apis/flowcontrol/v1/index.js';
import { computeConcurrencyAllocation, computeLimits, maxSeatsOf } from '../../../lib/flowcontrol/concurrency.js';
import { digestConfig } from '../../../lib/flowcontrol/config.js';

describe('flowcontrol concurrency limits and borrowing', () => {
  it('computes the nominal, lendable and bounds of the bootstrap levels under 600 seats as upstream (no borrowing limit: nominal + 600)', () => {
    const cfg = digestConfig([], [...suggestedPriorityLevels(), ...mandatoryPriorityLevels()], 600);
    const got = Object.fromEntries([...cfg.levels.values()].map((l) => [l.name, l.limits]));
    expect(got['system']).to.deep.equal({ nominal: 74, lendable: 24, min: 50, max: 674 });
    expect(got['node-high']).to.deep.equal({ nominal: 98, lendable: 25, min: 73, max: 698 });
    expect(got['leader-election']).to.deep.equal({ nominal: 25, lendable: 0, min: 25, max: 625 });
    expect(got['workload-high']).to.deep.equal({ nominal: 98, lendable: 49, min: 49, max: 698 });
    expect(got['workload-low']).to.deep.equal({ nominal: 245, lendable: 221, min: 24, max: 845 });
    expect(got['global-default']).to.deep.equal({ nominal: 49, lendable: 25, min: 24, max: 649 });
    expect(got['catch-all']).to.deep.equal({ nominal: 13, lendable: 0, min: 13, max: 613 });
    expect(got['exempt']).to.deep.equal({ nominal: 0, lendable: 0, min: 0, max: 0 });
  });

  it('bounds borrowing by borrowingLimitPercent', () => {
    const [a, b] = computeLimits(100, [
      { shares: 1, lendablePercent: 0, borrowingLimitPercent: 50, exempt: false },
      { shares: 3, lendablePercent: 100, borrowingLimitPercent: 0, exempt: false },
    ]);
    expect(a).to.deep.equal({ nominal: 25, lendable: 0, min: 25, max: 38 });
    expect(b).to.deep.equal({ nominal: 75, lendable: 75, min: 0, max: 75 });
  });

  // The expected figures below are worked by hand through upstream's computeConcurrencyAllocation
  // (conc_alloc.go): fairProp = required / Σ targets when no bound binds, else the walk over the
  // sorted relative bounds (bound / target) from the least lower one.
  it('lets an idle level lend to a busy one', () => {
    const [busy, idle] = computeLimits(100, [
      { shares: 50, lendablePercent: 50, exempt: false },
      { shares: 50, lendablePercent: 50, exempt: false },
    ]);
    expect(busy).to.deep.equal({ nominal: 50, lendable: 25, min: 25, max: 150 });
    // Relative bounds 0.25 (busy lower) < 1 (idle lower): f rises from 0.25 with busy alone
    // sensitive; 50 + (f − 0.25) × 100 = 100 at f = 0.75 < 1, so idle stays at its lower bound.
    const got = computeConcurrencyAllocation(100, [
      { lower: busy!.min, upper: busy!.max, target: 100 },
      { lower: idle!.min, upper: idle!.max, target: idle!.min },
    ]);
    expect(got).to.deep.equal({ allocs: [75, 25], fairFrac: 0.75 });
  });

  it('allocates in proportion to the targets when no bound binds', () => {
    // f = 100 / (30 + 10) = 2.5 lies within [max lower/target = 1, min upper/target = 3.33].
    expect(computeConcurrencyAllocation(100, [
      { lower: 10, upper: 100, target: 30 },
      { lower: 10, upper: 100, target: 10 },
    ])).to.deep.equal({ allocs: [75, 25], fairFrac: 2.5 });
  });

  it('walks the bounds when some bind, as upstream', () => {
    // Relative bounds: 0.111 (L0), 0.444 (U0), 1 (L1), 10 (U1); sum starts at the lower bounds, 20.
    // f 0.111→0.444 with class 0 sensitive: sum 20 + 0.333 × 90 = 50; none sensitive up to 1;
    // then class 1 alone: 50 + (f − 1) × 10 = 100 at f = 6 → [clamp(540) = 40, 60].
    const got = computeConcurrencyAllocation(100, [
      { lower: 10, upper: 40, target: 90 },
      { lower: 10, upper: 100, target: 10 },
    ]);
    expect(got.allocs[0]).to.be.closeTo(40, 1e-9);
    expect(got.allocs[1]).to.be.closeTo(60, 1e-9);
    expect(got.fairFrac).to.be.closeTo(6, 1e-9);
  });

  it('answers the lower or upper bounds when they already make the sum, zeros for 0', () => {
    expect(computeConcurrencyAllocation(16, [
      { lower: 8, upper: 20, target: 20 },
      { lower: 8, upper: 20, target: 20 },
    ])).to.deep.equal({ allocs: [8, 8], fairFrac: 0.4 });
    expect(computeConcurrencyAllocation(30, [
      { lower: 0, upper: 10, target: 5 },
      { lower: 0, upper: 20, target: 5 },
    ])).to.deep.equal({ allocs: [10, 20], fairFrac: 4 });
    expect(computeConcurrencyAllocation(0, [{ lower: 0, upper: 10, target: 5 }])).to.deep.equal({ allocs: [0], fairFrac: 0 });
  });

  it('treats a zero target as MinTarget (0.001)', () => {
    // f = 10 / 0.002 = 5000 → 0.001 × 5000 = 5 each.
    const got = computeConcurrencyAllocation(10, [
      { lower: 0, upper: 10, target: 0 },
      { lower: 0, upper: 10, target: 0 },
    ]);
    expect(got.allocs.map((a) => Math.round(a * 1e9) / 1e9)).to.deep.equal([5, 5]);
    expect(got.fairFrac).to.be.closeTo(5000, 1e-6);
  });

  it('rejects an impossible problem with upstream wording', () => {
    expect(() => computeConcurrencyAllocation(10, [{ lower: 8, upper: 20, target: 8 }, { lower: 8, upper: 20, target: 8 }])).to.throw(
      'lower bounds sum to 16, which is higher than the required sum of 10',
    );
    expect(() => computeConcurrencyAllocation(50, [{ lower: 0, upper: 20, target: 8 }])).to.throw('upper bounds sum to 20, which is lower than the required sum of 50');
    expect(() => computeConcurrencyAllocation(10, [{ lower: 5, upper: 20, target: 1 }])).to.throw('target 0 is 1, which is below its lower bound of 5');
    expect(() => computeConcurrencyAllocation(-1, [])).to.throw('negative sums are not supported');
  });

  it('caps the seats of one request per level as upstream', () => {
    expect(maxSeatsOf(49, 6)).to.equal(8);
    expect(maxSeatsOf(245, 6)).to.equal(10);
    expect(maxSeatsOf(1, 6)).to.equal(1);
    expect(maxSeatsOf(13, undefined)).to.equal(10);
  });
});
