import { expect } from 'chai';
import {
  checkSupportedFields,
  escapeValue,
  FieldSelector,
  FieldSelectorError,
  parseFieldSelector,
  unescapeValue,
} from '../../../lib/apimachinery/fields/selector.js';

describe('fields: parseFieldSelector canonical form', () => {
  const cases: [string, string, [string, '=' | '!=', string][]][] = [
    ['', '', []],
    [',', '', []],
    [',,', '', []],
    ['a=b', 'a=b', [['a', '=', 'b']]],
    ['a==b', 'a=b', [['a', '=', 'b']]],
    ['a!=b', 'a!=b', [['a', '!=', 'b']]],
    ['a=', 'a=', [['a', '=', '']]],
    ['a!=', 'a!=', [['a', '!=', '']]],
    ['=b', '=b', [['', '=', 'b']]],
    ['a=b,', 'a=b', [['a', '=', 'b']]],
    [',a=b', 'a=b', [['a', '=', 'b']]],
    ['metadata.name=x', 'metadata.name=x', [['metadata.name', '=', 'x']]],
    ['b=2,a=1', 'a=1,b=2', [['a', '=', '1'], ['b', '=', '2']]],
    ['a=2,a=1', 'a=1,a=2', [['a', '=', '1'], ['a', '=', '2']]],
    ['a==2,a=1', 'a=1,a=2', [['a', '=', '1'], ['a', '=', '2']]],
    ['a\\=b', 'a\\=b', [['a\\', '=', 'b']]],
    ['x!=y,a=b', 'a=b,x!=y', [['a', '=', 'b'], ['x', '!=', 'y']]],
    ['a= b ', 'a= b ', [['a', '=', ' b ']]],
    [' a =b', ' a =b', [[' a ', '=', 'b']]],
    ['a=b\\,c', 'a=b\\,c', [['a', '=', 'b,c']]],
    ['a=b\\=c', 'a=b\\=c', [['a', '=', 'b=c']]],
    ['a=b\\\\c', 'a=b\\\\c', [['a', '=', 'b\\c']]],
    ['a=\\\\,b=c', 'a=\\\\,b=c', [['a', '=', '\\'], ['b', '=', 'c']]],
    ['a!=\\=', 'a!=\\=', [['a', '!=', '=']]],
    ['a=!b', 'a=!b', [['a', '=', '!b']]],
    ['a=b!', 'a=b!', [['a', '=', 'b!']]],
    ['a!b=c', 'a!b=c', [['a!b', '=', 'c']]],
    ['spec.nodeName=,status.phase!=Running', 'spec.nodeName=,status.phase!=Running', [['spec.nodeName', '=', ''], ['status.phase', '!=', 'Running']]],
    ['a=é', 'a=é', [['a', '=', 'é']]],
  ];
  for (const [input, canonical, reqs] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(canonical)}`, () => {
      const sel = parseFieldSelector(input);
      expect(sel.toString()).to.equal(canonical);
      expect(sel.requirements.map((r) => [r.field, r.operator, r.value])).to.deep.equal(reqs);
      expect(parseFieldSelector(canonical).toString()).to.equal(canonical);
    });
  }

  it('sorts terms by code point like upstream (UTF-8 byte order)', () => {
    expect(parseFieldSelector('a=\u{1F600},a=\uFF5E').toString()).to.equal('a=\uFF5E,a=\u{1F600}');
  });
});

describe('fields: parse errors', () => {
  const cases: [string, string][] = [
    ['x', "invalid selector: 'x'; can't understand 'x'"],
    ['a=b,x', "invalid selector: 'a=b,x'; can't understand 'x'"],
    ['a!b', "invalid selector: 'a!b'; can't understand 'a!b'"],
    [' ', "invalid selector: ' '; can't understand ' '"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a===b', 'invalid field selector: unescaped character in value: 61'],
    ['a!==b', 'invalid field selector: unescaped character in value: 61'],
    ['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\!', 'invalid field selector: invalid escape sequence: \\!'],
    ['a=b\\\u{1F600}', 'invalid field selector: invalid escape sequence: \\\u{1F600}'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=\\\\\\', 'invalid field selector: invalid escape sequence: \\'],
    ['b=ok,a=\\q', 'invalid field selector: invalid escape sequence: \\q'],
    ['z,a=\\q', 'invalid field selector: invalid escape sequence: \\q'],
    ['a=ok,z', "invalid selector: 'a=ok,z'; can't understand 'z'"],
  ];
  for (const [input, message] of cases) {
    it(`${JSON.stringify(input)} fails`, () => {
      expect(() => parseFieldSelector(input)).to.throw(FieldSelectorError).with.property('message', message);
    });
  }
});

describe('fields: matching', () => {
  const F = { 'metadata.name': 'web', 'metadata.namespace': 'default', 'status.phase': 'Running', 'spec.nodeName': '' };
  const cases: [string, Record<string, string>, boolean][] = [
    ['', F, true],
    ['', {}, true],
    ['metadata.name=web', F, true],
    ['metadata.name==web', F, true],
    ['metadata.name=db', F, false],
    ['metadata.name!=db', F, true],
    ['metadata.name!=web', F, false],
    ['spec.nodeName=', F, true],
    ['spec.nodeName!=', F, false],
    ['missing=', F, true],
    ['missing=x', F, false],
    ['missing!=x', F, true],
    ['missing!=', F, false],
    ['metadata.name=web,status.phase=Running', F, true],
    ['metadata.name=web,status.phase!=Running', F, false],
    ['metadata.name=web,metadata.name!=web', F, false],
    ['a=b\\,c', { a: 'b,c' }, true],
    ['a=b\\,c', { a: 'b\\,c' }, false],
    ['constructor=', {}, true],
    ['toString!=', {}, false],
  ];
  for (const [input, fields, want] of cases) {
    it(`${JSON.stringify(input)} ${want ? 'matches' : 'does not match'} ${JSON.stringify(fields)}`, () => {
      expect(parseFieldSelector(input).matches(fields)).to.equal(want);
    });
  }
});

describe('fields: empty, requiresExactMatch, transform, checkSupportedFields', () => {
  it('empty() is true only without terms', () => {
    expect(parseFieldSelector('').empty()).to.equal(true);
    expect(parseFieldSelector(',').empty()).to.equal(true);
    expect(FieldSelector.everything().empty()).to.equal(true);
    expect(parseFieldSelector('a=').empty()).to.equal(false);
  });

  const exact: [string, string, string | undefined][] = [
    ['a=1', 'a', '1'],
    ['a==1', 'a', '1'],
    ['a=', 'a', ''],
    ['a!=1', 'a', undefined],
    ['a!=1,a=2', 'a', '2'],
    ['b=1', 'a', undefined],
    ['a=1,b=2', 'b', '2'],
    ['a=x\\,y', 'a', 'x,y'],
    ['', 'a', undefined],
  ];
  for (const [input, field, want] of exact) {
    it(`requiresExactMatch(${JSON.stringify(field)}) of ${JSON.stringify(input)} is ${JSON.stringify(want)}`, () => {
      expect(parseFieldSelector(input).requiresExactMatch(field)).to.equal(want);
    });
  }

  it('transform renames fields and rewrites values, keeping operators', () => {
    const sel = parseFieldSelector('name=x,status.phase!=Failed');
    const out = sel.transform((field, value) => ({ field: field === 'name' ? 'metadata.name' : field, value: value.toLowerCase() }));
    expect(out.toString()).to.equal('metadata.name=x,status.phase!=failed');
    expect(sel.toString()).to.equal('name=x,status.phase!=Failed');
  });

  it('transform drops terms turned into an empty field and value', () => {
    const sel = parseFieldSelector('a=1,b=2');
    const out = sel.transform((field, value) => (field === 'a' ? { field: '', value: '' } : { field, value }));
    expect(out.toString()).to.equal('b=2');
    expect(sel.transform(() => ({ field: '', value: '' })).empty()).to.equal(true);
  });

  it('transform propagates errors', () => {
    expect(() =>
      parseFieldSelector('a=1').transform(() => {
        throw new FieldSelectorError('nope');
      }),
    ).to.throw(FieldSelectorError, 'nope');
  });

  const supported = new Set(['metadata.name', 'metadata.namespace']);
  const checks: [string, string | undefined][] = [
    ['', undefined],
    ['metadata.name=x', undefined],
    ['metadata.name=x,metadata.namespace!=y', undefined],
    ['spec.nodeName=n', 'field label not supported: spec.nodeName'],
    ['metadata.name=x,status.phase=Running', 'field label not supported: status.phase'],
    ['z=1,b=2', 'field label not supported: b'],
    ['=x', 'field label not supported: '],
  ];
  for (const [input, message] of checks) {
    it(`checkSupportedFields(${JSON.stringify(input)}) ${message ? 'throws' : 'passes'}`, () => {
      const run = () => checkSupportedFields(parseFieldSelector(input), supported);
      if (message === undefined) expect(run).not.to.throw();
      else expect(run).to.throw(FieldSelectorError).with.property('message', message);
    });
  }
});

describe('fields: escaping', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['plain', 'plain'],
    ['a,b', 'a\\,b'],
    ['a=b', 'a\\=b'],
    ['a\\b', 'a\\\\b'],
    ['\\,=', '\\\\\\,\\='],
    ['a!b', 'a!b'],
  ];
  for (const [raw, escaped] of cases) {
    it(`${JSON.stringify(raw)} ⇄ ${JSON.stringify(escaped)}`, () => {
      expect(escapeValue(raw)).to.equal(escaped);
      expect(unescapeValue(escaped)).to.equal(raw);
    });
  }
});
