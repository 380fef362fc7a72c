import { expect } from 'chai';
import { mandatoryPriorityLevels, suggestedPriorityLevels } from '../../../lib/apis/flowcontrol/v1/index.js';
import { allocateConcurrency, computeLimits, maxSeatsOf } from '../../../lib/flowcontrol/concurrency.js';
import { digestConfig } from '../../../lib/flowcontrol/config.js';

describe('flowcontrol concurrency limits and borrowing', () => {
  it('computes the nominal, lendable and bounds of the bootstrap levels under 600 seats as upstream', () => {
    const cfg = digestConfig([], [...suggestedPriorityLevels(), ...mandatoryPriorityLevels()], 600);
    const got = Object.fromEntries([...cfg.levels.values()].map((l) => [l.name, l.limits]));
    expect(got['system']).to.deep.equal({ nominal: 74, lendable: 24, min: 50, max: 600 });
    expect(got['node-high']).to.deep.equal({ nominal: 98, lendable: 25, min: 73, max: 600 });
    expect(got['leader-election']).to.deep.equal({ nominal: 25, lendable: 0, min: 25, max: 600 });
    expect(got['workload-high']).to.deep.equal({ nominal: 98, lendable: 49, min: 49, max: 600 });
    expect(got['workload-low']).to.deep.equal({ nominal: 245, lendable: 221, min: 24, max: 600 });
    expect(got['global-default']).to.deep.equal({ nominal: 49, lendable: 25, min: 24, max: 600 });
    expect(got['catch-all']).to.deep.equal({ nominal: 13, lendable: 0, min: 13, max: 600 });
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

  it('lets an idle level lend to a busy one', () => {
    const [busy, idle] = computeLimits(100, [
      { shares: 50, lendablePercent: 50, exempt: false },
      { shares: 50, lendablePercent: 50, exempt: false },
    ]);
    const alloc = allocateConcurrency(100, [
      { lower: busy!.min, upper: busy!.max, target: 100 },
      { lower: idle!.min, upper: idle!.max, target: idle!.min },
    ]);
    expect(alloc).to.deep.equal([75, 25]);
  });

  it('allocates in proportion to demand within the bounds', () => {
    expect(allocateConcurrency(100, [{ lower: 10, upper: 100, target: 30 }, { lower: 10, upper: 100, target: 10 }])).to.deep.equal([75, 25]);
    expect(allocateConcurrency(100, [{ lower: 10, upper: 40, target: 90 }, { lower: 10, upper: 100, target: 10 }])).to.deep.equal([40, 60]);
    expect(allocateConcurrency(10, [{ lower: 8, upper: 20, target: 20 }, { lower: 8, upper: 20, target: 20 }])).to.deep.equal([8, 8]);
    expect(allocateConcurrency(100, [{ lower: 0, upper: 10, target: 5 }, { lower: 0, upper: 20, target: 5 }])).to.deep.equal([10, 20]);
    expect(allocateConcurrency(10, [{ lower: 0, upper: 10, target: 0 }, { lower: 0, upper: 10, target: 0 }])).to.deep.equal([5, 5]);
  });

  it('caps the seats of one request per level as upstream', () => {
    expect(maxSeatsOf(49, 6)).to.equal(8);
    expect(maxSeatsOf(245, 6)).to.equal(10);
    expect(maxSeatsOf(1, 6)).to.equal(1);
    expect(maxSeatsOf(13, undefined)).to.equal(10);
  });
});
