import { expect } from 'chai';
import { createEnvironment } from '../../../lib/cel/index.js';
import { evaluate, fails, plainEnv, rejects, table, type Row } from './helpers.js';

describe('extended string library (spec 000 § Expression language (CEL) in fields)', () => {
  describe('charAt', () => {
    table(
      [
        ["'tacocat'.charAt(3)", 'o'],
        ["'tacocat'.charAt(0)", 't'],
        ["'tacocat'.charAt(7)", ''],
        ["'tacocat'.charAt(8)", fails(/^index out of range: 8$/)],
        ["'tacocat'.charAt(-1)", fails(/index out of range: -1/)],
        ["'©αT'.charAt(1)", 'α'],
        ["'😀x'.charAt(1)", 'x'],
        ["42.charAt(2)", rejects(/found no matching overload/)],
      ],
      plainEnv,
    );
  });

  describe('indexOf / lastIndexOf count code points', () => {
    const rows: Row[] = [
      ["'tacocat'.indexOf('ac')", 1n],
      ["'tacocat'.indexOf('')", 0n],
      ["'tacocat'.indexOf('none')", -1n],
      ["'tacocat'.indexOf('', 3)", 3n],
      ["'tacocat'.indexOf('a', 3)", 5n],
      ["'tacocat'.indexOf('at', 3)", 5n],
      ["'tacocat'.indexOf('a', 30)", fails(/index out of range: 30/)],
      ["'tacocat'.indexOf('a', -1)", fails(/index out of range: -1/)],
      ["'ta©o©αT'.indexOf('©')", 2n],
      ["'ta©o©αT'.indexOf('©', 3)", 4n],
      ["'ta©o©αT'.indexOf('©αT', 3)", 4n],
      ["'ta©o©αT'.indexOf('©α', 5)", -1n],
      ["'😀😀x'.indexOf('x')", 2n],
      ["'hello wello'.indexOf('ello', 6)", 7n],
      ["'tacocat'.lastIndexOf('at')", 5n],
      ["'tacocat'.lastIndexOf('')", 7n],
      ["'tacocat'.lastIndexOf('none')", -1n],
      ["''.lastIndexOf('@@')", -1n],
      ["'tacocat'.lastIndexOf('', 3)", 3n],
      ["'tacocat'.lastIndexOf('a', 3)", 1n],
      ["'tacocat'.lastIndexOf('a', -1)", fails(/index out of range: -1/)],
      ["'tacocat'.lastIndexOf('a', 30)", fails(/index out of range: 30/)],
      ["'ta©o©αT'.lastIndexOf('©')", 4n],
      ["'ta©o©αT'.lastIndexOf('©', 3)", 2n],
      ["'bananananana'.lastIndexOf('nana', 7)", 6n],
      ["'hello wello'.lastIndexOf('ello', 6)", 1n],
      ["'hello'.indexOf(true)", rejects(/found no matching overload/)],
    ];
    table(rows, plainEnv);
  });

  describe('ASCII case mapping and trim', () => {
    table(
      [
        ["'TacoCat'.lowerAscii()", 'tacocat'],
        ["'TacoCÆt Xii'.lowerAscii()", 'tacocÆt xii'],
        ["'tacoCαt'.upperAscii()", 'TACOCαT'],
        ["'ÀÉ'.lowerAscii()", 'ÀÉ'],
        ["'straße'.upperAscii()", 'STRAßE'],
        ["' \\f\\n\\r\\t\\vtext  '.trim()", 'text'],
        ["'\\u0085\\u00a0\\u1680text'.trim()", 'text'],
        ["'text\\u2000\\u2009\\u200a'.trim()", 'text'],
        ["'\\u2028\\u2029\\u202F\\u205F\\u3000text'.trim()", 'text'],
        ["'\\u200btext\\ufeff'.trim()", '\u200btext\ufeff'],
        ["'  inner space  '.trim()", 'inner space'],
        ["' \\u3000'.trim()", ''],
        ["''.trim()", ''],
      ],
      plainEnv,
    );

    it('trims in time linear in the string: a long inner run of spaces (quadratic with a regular expression)', () => {
      const inner = `a${' '.repeat(1_000_000)}b`;
      const env = createEnvironment({ variables: [{ name: 's', type: 'string' }] });
      const r = evaluate('s.trim()', env, { s: `  ${inner}\t` });
      expect(r.ok && r.value).to.equal(inner);
    });
  });

  describe('replace (Go strings.Replace)', () => {
    table(
      [
        ["'12 days 12 hours'.replace('{0}', '2')", '12 days 12 hours'],
        ["'{0} days {0} hours'.replace('{0}', '2')", '2 days 2 hours'],
        ["'{0} days {0} hours'.replace('{0}', '2', 1)", '2 days {0} hours'],
        ["'{0} days {0} hours'.replace('{0}', '2', 0)", '{0} days {0} hours'],
        ["'{0} days {0} hours'.replace('{0}', '2', -1)", '2 days 2 hours'],
        ["'1 ©αT taco'.replace('αT', 'o©α')", '1 ©o©α taco'],
        ["'abc'.replace('', '-')", '-a-b-c-'],
        ["'abc'.replace('', '-', 2)", '-a-bc'],
        ["'aaa'.replace('a', 'aa')", 'aaaaaa'],
      ],
      plainEnv,
    );
  });

  describe('split (Go strings.SplitN)', () => {
    table(
      [
        ["'hello world'.split(' ')", ['hello', 'world']],
        ["'hello world events!'.split(' ', 0)", []],
        ["'hello world events!'.split(' ', 1)", ['hello world events!']],
        ["'hello world events!'.split(' ', 2)", ['hello', 'world events!']],
        ["'o©o©o©o'.split('©', -1)", ['o', 'o', 'o', 'o']],
        ["'abc'.split('')", ['a', 'b', 'c']],
        ["'a©c'.split('', 2)", ['a', '©c']],
        ["''.split(',')", ['']],
        ["'a,,b'.split(',')", ['a', '', 'b']],
      ],
      plainEnv,
    );
  });

  describe('substring', () => {
    table(
      [
        ["'tacocat'.substring(4)", 'cat'],
        ["'tacocat'.substring(7)", ''],
        ["'tacocat'.substring(0, 4)", 'taco'],
        ["'tacocat'.substring(4, 4)", ''],
        ["'ta©o©αT'.substring(2, 6)", '©o©α'],
        ["'ta©o©αT'.substring(7, 7)", ''],
        ["'tacocat'.substring(40)", fails(/^index out of range: 40$/)],
        ["'tacocat'.substring(-1)", fails(/index out of range: -1/)],
        ["'tacocat'.substring(1, 50)", fails(/index out of range: 50/)],
        ["'tacocat'.substring(49, 50)", fails(/index out of range: 49/)],
        ["'tacocat'.substring(4, 3)", fails(/invalid substring range. start: 4, end: 3/)],
      ],
      plainEnv,
    );
  });

  describe('format (string library version 2)', () => {
    table(
      [
        ["'no substitution'.format([])", 'no substitution'],
        ["'%s and %s'.format(['a', 'b'])", 'a and b'],
        ["'100%%'.format([])", '100%'],
        ["'%.2f'.format([3.14159])", '3.14'],
        ["'%.0f'.format([2.5])", '2'],
        ["'%.0f'.format([1.5])", '2'],
        ["'%f'.format([2])", '2.000000'],
        ["'%e'.format([1052.032911275])", '1.052033e+03'],
        ["'%.2e'.format([0.000123])", '1.23e-04'],
        ["'%d'.format([-42])", '-42'],
        ["'%x'.format([255])", 'ff'],
        ["'%X'.format(['hi'])", '6869'],
        ["'%o'.format([8])", '10'],
        ["'%b'.format([5])", '101'],
        ["'%b'.format([true])", '1'],
        ["'%s'.format([[1, 2]])", '[1, 2]'],
        ["'%s'.format([{'b': 1, 'a': 2}])", '{a: 2, b: 1}'],
        ["'%s'.format([duration('2h')])", '7200s'],
        ["'%s'.format([timestamp('2023-02-03T23:31:20Z')])", '2023-02-03T23:31:20Z'],
        ["'%d'.format([1.5])", fails(/^error during formatting: decimal clause can only be used on integers, was given double$/)],
        ["'%x'.format([0.5])", fails(/only integers, byte buffers, and strings can be formatted as hex, was given double/)],
        ["'%a'.format([1])", fails(/unrecognized formatting clause "a"/)],
        ["'%s %s'.format(['a'])", fails(/^index 1 out of range$/)],
      ],
      plainEnv,
    );
  });

  describe('join, quote and the standard string functions', () => {
    table(
      [
        ["['x', 'y'].join()", 'xy'],
        ["['x', 'y'].join('-')", 'x-y'],
        ["[].join()", ''],
        ["[].join('-')", ''],
        ["['a'].join(', ')", 'a'],
        ['strings.quote("first\\nsecond")', '"first\\nsecond"'],
        ['strings.quote("bell\\a")', '"bell\\a"'],
        ["strings.quote('say \"hi\"')", '"say \\"hi\\""'],
        ['strings.quote("back\\\\slash")', '"back\\\\slash"'],
        ['strings.quote("verbatim")', '"verbatim"'],
        ["'hello'.startsWith('he')", true],
        ["'hello'.endsWith('lo')", true],
        ["'hello'.contains('ell')", true],
        ["'hello'.contains('xyz')", false],
        ["'©αT'.size()", 3n],
        ["size('😀')", 1n],
        ["'abc' + 'def'", 'abcdef'],
        ["'abc' < 'abd'", true],
        ["'a' + 1", rejects(/no such overload/)],
      ],
      plainEnv,
    );
  });
});
