import { expect } from 'chai';
import { validateWorkers, workerCount } from '../../../../lib/server/options/workers-flags.js';

describe('server/options/workers-flags', () => {
  const counts: Array<[string, number, number, number]> = [
    ['an explicit count wins', 3, 2, 3],
    ['an explicit count may exceed the default cap', 12, 2, 12],
    ['0 on a 1-CPU machine: 1', 0, 1, 1],
    ['0 on a 2-CPU machine: 2', 0, 2, 2],
    ['0 takes the CPUs up to the cap', 0, 6, 6],
    ['0 caps the CPUs at 8', 0, 64, 8],
  ];
  for (const [name, flag, cpus, want] of counts) {
    it(`workerCount: ${name}`, () => {
      expect(workerCount(flag, cpus)).to.equal(want);
    });
  }

  it('validateWorkers refuses a negative count only', () => {
    expect(validateWorkers(-1)).to.deep.equal(['--workers can not be negative value']);
    expect(validateWorkers(0)).to.deep.equal([]);
    expect(validateWorkers(4)).to.deep.equal([]);
  });
});
