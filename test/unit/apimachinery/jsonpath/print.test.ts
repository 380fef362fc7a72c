import { expect } from 'chai';
import { goJSON, goSprint, JSONPathSyntaxError, printJSONPathValue, relaxedJSONPathExpression } from '../../../../lib/apimachinery/jsonpath/index.js';

describe('apimachinery/jsonpath/print', () => {
  describe('printJSONPathValue (upstream PrintResults of one value)', () => {
    const cases: [unknown, string][] = [
      ['text', 'text'],
      [3, '3'],
      [-42, '-42'],
      [0.5, '0.5'],
      [1234567.5, '1.2345675e+06'],
      [0.00001, '1e-05'],
      [0.0001, '0.0001'],
      [true, 'true'],
      [null, '<no value>'],
      [{ b: 1, a: '<x&y>' }, '{"a":"\\u003cx\\u0026y\\u003e","b":1}'],
      [[1, 'a', null], '[1,"a",null]'],
    ];
    for (const [value, want] of cases) {
      it(`${JSON.stringify(value)} → ${want}`, () => expect(printJSONPathValue(value)).to.equal(want));
    }
  });

  it('goSprint prints maps and slices as fmt.Sprint', () => {
    expect(goSprint({ b: [1, 'x'], a: 1, c: null })).to.equal('map[a:1 b:[1 x] c:<nil>]');
    expect(goSprint(7)).to.equal('7');
  });

  it('goJSON sorts keys at every level', () => {
    expect(goJSON({ z: { b: 2, a: 1 }, y: [{ d: 1, c: 2 }] })).to.equal('{"y":[{"c":2,"d":1}],"z":{"a":1,"b":2}}');
  });

  describe('relaxedJSONPathExpression (kubectl)', () => {
    const cases: [string, string][] = [
      ['.spec.x', '{.spec.x}'],
      ['spec.x', '{.spec.x}'],
      ['{spec.x}', '{.spec.x}'],
      ['{.spec.x}', '{.spec.x}'],
      ['', ''],
    ];
    for (const [path, want] of cases) {
      it(`${JSON.stringify(path)} → ${JSON.stringify(want)}`, () => expect(relaxedJSONPathExpression(path)).to.equal(want));
    }
    it('rejects more than one action', () => {
      expect(() => relaxedJSONPathExpression('{.a}{.b}'))
        .to.throw(JSONPathSyntaxError)
        .with.property('message', "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'");
    });
  });
});
