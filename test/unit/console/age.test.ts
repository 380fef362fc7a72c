import { expect } from 'chai';
import { ageOf, humanDuration } from '../../../console/src/util/age.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

describe('console/age: AGE as kubectl prints it (issue #22 § Lists are live; upstream duration.HumanDuration)', () => {
  const rows: Array<[number, string]> = [
    [-2 * S, '<invalid>'],
    [-1 * S, '0s'],
    [-500, '0s'],
    [0, '0s'],
    [45 * S, '45s'],
    [119 * S, '119s'],
    [2 * M, '2m'],
    [3 * M + 12 * S, '3m12s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M + 30 * S, '10m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [5 * H + 7 * M, '5h7m'],
    [8 * H + 59 * M, '8h'],
    [47 * H, '47h'],
    [2 * D, '2d'],
    [2 * D + 3 * H, '2d3h'],
    [8 * D + 5 * H, '8d'],
    [729 * D, '729d'],
    [2 * Y, '2y'],
    [3 * Y + 40 * D, '3y40d'],
    [8 * Y + 40 * D, '8y'],
  ];
  for (const [ms, want] of rows) {
    it(`${ms} ms → ${want}`, () => expect(humanDuration(ms)).to.equal(want));
  }

  it('ageOf counts from an RFC 3339 timestamp, and leaves an unparsable one alone', () => {
    expect(ageOf('2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:03:12Z'))).to.equal('3m12s');
    expect(ageOf('not a time', Date.now())).to.equal(undefined);
  });
});
