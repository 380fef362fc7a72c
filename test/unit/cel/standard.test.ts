import { Duration } from '@marcbachmann/cel-js/evaluator';
import { fails, plainEnv, rejects, table, uint } from './helpers.js';

describe('standard library, macros and overflow (spec 000 § Expression language (CEL) in fields)', () => {
  describe('integer overflow and division', () => {
    table(
      [
        ['9223372036854775807 + 1', fails(/overflow/)],
        ['-9223372036854775807 - 2', fails(/overflow/)],
        ['9223372036854775807 * 2', fails(/overflow/)],
        ['-(-9223372036854775807 - 1)', fails(/^integer overflow$/)],
        ['(-9223372036854775807 - 1) / -1', fails(/^integer overflow$/)],
        ['(-9223372036854775807 - 1) % -1', fails(/^integer overflow$/)],
        ['-9 % -1', 0n],
        ['1 / 0', fails(/division by zero/)],
        ['1 % 0', fails(/modulo by zero/)],
        ['7 / 2', 3n],
        ['-7 / 2', -3n],
        ['-7 % 3', -1n],
        ['18446744073709551615u + 1u', fails(/overflow/)],
        ['0u - 1u', fails(/overflow/)],
        ['1.0 / 0.0', Infinity],
        ['9223372036854775807', 9223372036854775807n],
      ],
      plainEnv,
    );
  });

  describe('conversions', () => {
    table(
      [
        ['int(1u)', 1n],
        ['int(18446744073709551615u)', fails(/integer overflow/)],
        ['int(2.9)', 2n],
        ['int(-2.9)', -2n],
        ['int(1e30)', fails(/range error/)],
        ['int(-9223372036854775808.0)', fails(/range error/)],
        ["int('42')", 42n],
        ["int('x')", fails(/cannot convert/)],
        ["int(timestamp('1970-01-01T00:01:00Z'))", 60n],
        ['uint(2.5)', uint(2n)],
        ['uint(-1.0)', fails(/range error/)],
        ['uint(1e20)', fails(/range error/)],
        ['double(3)', 3],
        ["string(b'abc')", 'abc'],
        ["string(b'\\xff')", fails(/invalid UTF-8/)],
        ['string(12)', '12'],
        ["string(timestamp('2009-02-13T23:31:30Z'))", '2009-02-13T23:31:30Z'],
        ["string(timestamp('2009-02-13T23:31:30.120Z'))", '2009-02-13T23:31:30.12Z'],
        ["string(duration('1.5s'))", '1.5s'],
        ["duration(duration('1s')) == duration('1s')", true],
        ["timestamp(timestamp('2020-01-01T00:00:00Z')) == timestamp('2020-01-01T00:00:00Z')", true],
        ["bool('true')", true],
        ["bytes('abc') == b'abc'", true],
        ['type(1) == int', true],
        ["type('a') == string", true],
        ['type(1u) == uint', true],
        ['dyn(1) == 1', true],
      ],
      plainEnv,
    );
  });

  describe('timestamps and durations (default UTC time zone)', () => {
    table(
      [
        ["timestamp('2023-01-01T00:30:00Z').getFullYear()", 2023n],
        ["timestamp('2023-01-01T00:30:00Z').getHours()", 0n],
        ["timestamp('2023-01-01T00:30:00Z').getHours('America/New_York')", 19n],
        ["timestamp('2023-03-05T00:00:00Z').getDayOfWeek()", 0n],
        ["timestamp('2023-03-05T00:00:00Z').getMonth()", 2n],
        ["duration('1h30m').getMinutes()", 90n],
        ["duration('1h30m')", new Duration(5400n, 0)],
        ["timestamp('2023-01-01T00:00:00Z') + duration('1h') == timestamp('2023-01-01T01:00:00Z')", true],
        ["timestamp('2023-01-01T01:00:00Z') - timestamp('2023-01-01T00:00:00Z') == duration('1h')", true],
        ["duration('1s') < duration('2s')", true],
        ["duration('320000000000s')", fails(/duration out of range/)],
        ["timestamp('9999-12-31T23:59:59Z') + duration('1s')", fails(/timestamp out of range/)],
        ["timestamp('0001-01-01T00:00:00Z') - duration('1s')", fails(/timestamp out of range/)],
        ["duration('200000000000s') + duration('200000000000s')", fails(/duration out of range/)],
        ["timestamp('not a time')", fails(/timestamp/)],
      ],
      plainEnv,
    );
  });

  describe('equality across numeric types and membership', () => {
    table(
      [
        ['dyn(1.0) == dyn(1)', true],
        ['dyn(1u) == dyn(1)', true],
        ['dyn(1) == dyn(1.5)', false],
        ["dyn(1) == dyn('1')", false],
        ['dyn(1u) in [1, 2]', true],
        ['dyn(2.0) in [1, 2]', true],
        ['dyn(3) in [1, 2]', false],
        ['[1, 2][dyn(1u)]', 2n],
        ['[[1, 2], [3]] == [[1, 2], [3]]', true],
        ["{'a': [1]} == {'a': [1]}", true],
        ["{'a': 1} == {'a': 2}", false],
        ["b'abc' < b'abd'", true],
        ["b'abc' >= b'abc'", true],
        ["b'' > b'a'", false],
        ['0.0 / 0.0 == 0.0 / 0.0', false],
        ['1 == 1.0', rejects(/no such overload/)],
      ],
      plainEnv,
    );
  });

  describe('macros and bindings', () => {
    table(
      [
        ['[1, 2, 3].all(x, x > 0)', true],
        ['[1, 2, 3].all(x, x > 1)', false],
        ['[1, 2, 3].exists(x, x == 2)', true],
        ['[1, 2, 3].exists_one(x, x == 2)', true],
        ['[0, 1, 2].all(x, 10 / x > 1)', fails(/division by zero/)],
        ['[0, 1, 2].exists(x, 10 / x > 6)', true],
        ['[1, 0].all(x, 1 / x > 5)', false],
        ["{'a': 1, 'b': 2}.all(k, k.size() == 1)", true],
        ["{'a': 1, 'b': 2}.map(k, k + k)", ['aa', 'bb']],
        ['cel.bind(x, 2, x * x)', 4n],
        ['cel.bind(x, [1, 2], cel.bind(y, 3, x.map(e, e * y)))', [3n, 6n]],
        ["has({'a': 1}.a)", rejects(/has\(\) invalid argument/)],
        ['true ? 1 : 2', 1n],
        ['false || (1 / 0 > 0)', fails(/division by zero/)],
        ['true || (1 / 0 > 0)', true],
        ['(1 / 0 > 0) && false', false],
      ],
      plainEnv,
    );
  });

  describe('optional types', () => {
    table(
      [
        ['optional.of(1).hasValue()', true],
        ['optional.none().hasValue()', false],
        ['optional.of(1).value()', 1n],
        ['optional.none().value()', fails(/not present/)],
        ['optional.none().orValue(5)', 5n],
        ['optional.of(1).or(optional.of(2)).value()', 1n],
        ['optional.none().or(optional.of(2)).value()', 2n],
        ["{'a': 1}.?a.orValue(0)", 1n],
        ["{'a': 1}.?b.orValue(0)", 0n],
        ["{'a': 1}.?b.hasValue()", false],
        ["{'a': {'b': 2}}.?a.?b.orValue(0)", 2n],
        ['[1, 2][?1].orValue(0)', 2n],
        ['[1, 2][?5].orValue(0)', 0n],
        ['optional.of(1) == optional.of(1)', true],
        ['optional.of(1) == optional.of(2)', false],
        ['optional.none() == optional.none()', true],
      ],
      plainEnv,
    );
  });
});
