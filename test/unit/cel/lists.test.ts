import { fails, plainEnv, rejects, table, uint } from './helpers.js';

describe('list library (spec 000 § Expression language (CEL) in fields)', () => {
  describe('indexOf / lastIndexOf', () => {
    table(
      [
        ['[1, 2, 2, 3].indexOf(2)', 1n],
        ["['a', 'b', 'b', 'c'].lastIndexOf('b')", 2n],
        ['[1.0].indexOf(1.1)', -1n],
        ["[].indexOf('string')", -1n],
        ['[[1], [2]].indexOf([2])', 1n],
        ["[{'a': 1}, {'a': 2}].lastIndexOf({'a': 1})", 0n],
        ['[1, 2, 3].lastIndexOf(4)', -1n],
        ['[1, 2].indexOf("x")', rejects(/found no matching overload/)],
      ],
      plainEnv,
    );
  });

  describe('min / max over comparable types', () => {
    table(
      [
        ['[3, 1, 2].min()', 1n],
        ['[3, 1, 2].max()', 3n],
        ['[1].min()', 1n],
        ["['b', 'a', 'c'].min()", 'a'],
        ["['b', 'a', 'c'].max()", 'c'],
        ['[1.5, 0.5, -2.0].min()', -2],
        ['[1.5, 0.5].max()', 1.5],
        ['[2u, 1u].min()', uint(1n)],
        ['[false, true].max()', true],
        ["[b'b', b'a'].min() == b'a'", true],
        ["[duration('1m'), duration('1s')].max() == duration('1m')", true],
        ["[timestamp('2020-01-01T00:00:00Z'), timestamp('2019-01-01T00:00:00Z')].min() == timestamp('2019-01-01T00:00:00Z')", true],
        ['[].min()', fails(/^min called on empty list$/)],
        ['[].max()', fails(/^max called on empty list$/)],
        ['([0] + [1]).min()', 0n],
      ],
      plainEnv,
    );
  });

  describe('sum over numbers and durations', () => {
    table(
      [
        ['[1, 3].sum()', 4n],
        ['[1.0, 3.5].sum()', 4.5],
        ['[1u, 2u].sum()', uint(3n)],
        ["[duration('1m'), duration('1s')].sum() == duration('61s')", true],
        ['[].sum()', 0n],
        ['[9223372036854775807, 1].sum()', fails(/integer overflow/)],
        ['[-9223372036854775807, -2].sum()', fails(/integer overflow/)],
        ["['a'].sum()", rejects(/found no matching overload/)],
      ],
      plainEnv,
    );
  });

  describe('isSorted', () => {
    table(
      [
        ['[1, 2, 3].isSorted()', true],
        ["['a', 'b', 'b', 'c'].isSorted()", true],
        ['[2.0, 1.0].isSorted()', false],
        ['[1].isSorted()', true],
        ['[].isSorted()', true],
        ['[1u, 3u, 2u].isSorted()', false],
        ["['é', 'z'].isSorted()", false],
        ["[timestamp('2020-01-01T00:00:00Z'), timestamp('2021-01-01T00:00:00Z')].isSorted()", true],
      ],
      plainEnv,
    );
  });

  describe('standard list operations', () => {
    table(
      [
        ['[1, 2] + [3]', [1n, 2n, 3n]],
        ['size([1, 2, 3])', 3n],
        ['[1, 2, 3].size()', 3n],
        ['2 in [1, 2, 3]', true],
        ['[1, 2, 3][2]', 3n],
        ['[1, 2, 3][3]', fails(/index out of bounds|No such key/)],
        ['[1, 2, 3].all(x, x > 0)', true],
        ['[1, 2, 3].exists(x, x > 2)', true],
        ['[1, 2, 3].exists_one(x, x > 1)', false],
        ['[1, 2, 3].map(x, x * 2)', [2n, 4n, 6n]],
        ['[1, 2, 3].map(x, x > 1, x * 10)', [20n, 30n]],
        ['[1, 2, 3].filter(x, x != 2)', [1n, 3n]],
        ['[1, 2] == [1, 2]', true],
        ['[1, 2] == [2, 1]', false],
        ["[1, 'a']", rejects(/List elements must have the same type/)],
      ],
      plainEnv,
    );
  });
});
