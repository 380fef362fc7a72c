import { expect } from 'chai';
import { humanDuration, shortHumanDuration } from '../../../../lib/apimachinery/table/human-duration.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

describe('apimachinery/table/human-duration', () => {
  describe('humanDuration (upstream duration.HumanDuration)', () => {
    const cases: Array<[number, string]> = [
      [-2 * S, '<invalid>'],
      [-1999, '0s'],
      [-1 * S, '0s'],
      [-999, '0s'],
      [0, '0s'],
      [999, '0s'],
      [5 * S, '5s'],
      [119 * S + 999, '119s'],
      [2 * M, '2m'],
      [3 * M + 12 * S, '3m12s'],
      [9 * M + 59 * S, '9m59s'],
      [10 * M, '10m'],
      [10 * M + 30 * S, '10m'],
      [179 * M, '179m'],
      [3 * H, '3h'],
      [3 * H + 5 * M, '3h5m'],
      [7 * H + 59 * M, '7h59m'],
      [8 * H, '8h'],
      [47 * H + 59 * M, '47h'],
      [48 * H, '2d'],
      [2 * D + 3 * H, '2d3h'],
      [7 * D + 23 * H, '7d23h'],
      [8 * D, '8d'],
      [729 * D, '729d'],
      [2 * Y, '2y'],
      [2 * Y + 3 * D, '2y3d'],
      [7 * Y + 364 * D, '7y364d'],
      [8 * Y, '8y'],
      [9 * Y + 100 * D, '9y'],
    ];
    for (const [ms, text] of cases) {
      it(`${ms} ms → ${text}`, () => expect(humanDuration(ms)).to.equal(text));
    }
  });

  describe('shortHumanDuration (upstream duration.ShortHumanDuration)', () => {
    const cases: Array<[number, string]> = [
      [-3 * S, '<invalid>'],
      [-1 * S, '0s'],
      [0, '0s'],
      [59 * S, '59s'],
      [60 * S, '1m'],
      [3 * M + 12 * S, '3m'],
      [59 * M, '59m'],
      [H, '1h'],
      [23 * H + 59 * M, '23h'],
      [D, '1d'],
      [2 * D + 3 * H, '2d'],
      [364 * D, '364d'],
      [Y, '1y'],
      [3 * Y + 200 * D, '3y'],
    ];
    for (const [ms, text] of cases) {
      it(`${ms} ms → ${text}`, () => expect(shortHumanDuration(ms)).to.equal(text));
    }
  });
});
