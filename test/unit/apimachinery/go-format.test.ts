import { expect } from 'chai';
import { goFloatString, goJSONType, goSprint, goSyntaxString } from '../../../lib/apimachinery/go-format.js';

describe('go-format: Go fmt verbs of decoded JSON values', () => {
  it('goFloatString prints a float64 as %v', () => {
    const cases: Array<[number, string]> = [
      [1.5, '1.5'],
      [1e21, '1e+21'],
      [0.00001, '1e-05'],
      [1e6, '1e+06'],
      [123456789.5, '1.234567895e+08'],
      [99999.5, '99999.5'],
      [-0, '-0'],
      [Infinity, '+Inf'],
      [NaN, 'NaN'],
    ];
    for (const [v, want] of cases) expect(goFloatString(v), String(v)).to.equal(want);
  });

  it('goSprint prints %v: maps with sorted keys, lists space-separated, nil as <nil>', () => {
    const cases: Array<[unknown, string]> = [
      [{ replicas: 2, a: [1, 2] }, 'map[a:[1 2] replicas:2]'],
      [[1, 'x', true], '[1 x true]'],
      [{ b: null }, 'map[b:<nil>]'],
      [1.5, '1.5'],
      [1e-7, '1e-07'],
      ['s', 's'],
    ];
    for (const [v, want] of cases) expect(goSprint(v)).to.equal(want);
  });

  it('goSyntaxString prints %#v of a value held in interface{}', () => {
    expect(goSyntaxString({ b: 'x\n', a: [1, 1.5, null, true] })).to.equal('map[string]interface {}{"a":[]interface {}{1, 1.5, interface {}(nil), true}, "b":"x\\n"}');
    expect(goSyntaxString(null)).to.equal('interface {}(nil)');
  });

  it('goJSONType prints %T (whole numbers are int64)', () => {
    const cases: Array<[unknown, string]> = [
      [null, '<nil>'],
      ['s', 'string'],
      [true, 'bool'],
      [3, 'int64'],
      [3.5, 'float64'],
      [[], '[]interface {}'],
      [{}, 'map[string]interface {}'],
    ];
    for (const [v, want] of cases) expect(goJSONType(v)).to.equal(want);
  });
});
