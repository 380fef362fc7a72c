import { expect } from 'chai';
import { LabelSelector, parseLabelSelector, Requirement, SelectorParseError } from '../../../lib/apimachinery/labels/selector.js';
import { LABEL_VALUE, NAME_PART } from './label-messages.js';

const OPS = 'in, notin, =, ==, !=, gt, lt';

describe('labels: parseLabelSelector canonical form', () => {
  const cases: [string, string][] = [
    ['', ''],
    ['   ', ''],
    ['\t\r\n', ''],
    ['x=a', 'x=a'],
    ['x==a', 'x==a'],
    ['x!=a', 'x!=a'],
    [' x = a ', 'x=a'],
    ['x=', 'x='],
    ['x==', 'x=='],
    ['x!=', 'x!='],
    ['x=,y=b', 'x=,y=b'],
    ['x', 'x'],
    ['!x', '!x'],
    ['! x', '!x'],
    ['x in (a)', 'x in (a)'],
    ['x in (b,a)', 'x in (a,b)'],
    ['x in (a,a,b)', 'x in (a,b)'],
    ['x notin (c, b ,a)', 'x notin (a,b,c)'],
    ['x in ()', 'x in ()'],
    ['x in (,)', 'x in ()'],
    ['x in (,a)', 'x in (,a)'],
    ['x in (a,)', 'x in (,a)'],
    ['x in (a,,b)', 'x in (,a,b)'],
    ['x in(a)', 'x in (a)'],
    ['x>1', 'x>1'],
    ['x<1', 'x<1'],
    ['x > 10', 'x>10'],
    ['x>007', 'x>007'],
    ['z=1,a=2,m', 'a=2,m,z=1'],
    ['b,!a', '!a,b'],
    ['x=a,x!=b', 'x=a,x!=b'],
    ['x!=b,x=a', 'x!=b,x=a'],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    ['in=in', 'in=in'],
    ['notin in (in,notin)', 'notin in (in,notin)'],
    ['in', 'in'],
    ['!notin', '!notin'],
    ['example.com/app=web', 'example.com/app=web'],
    ['a.b-c_d=A.b-C_9', 'a.b-c_d=A.b-C_9'],
    ['k=v,k2 in (x),!k3,k4', 'k=v,k2 in (x),!k3,k4'],
  ];
  for (const [input, canonical] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(canonical)}`, () => {
      const sel = parseLabelSelector(input);
      expect(sel.toString()).to.equal(canonical);
      expect(parseLabelSelector(sel.toString()).toString()).to.equal(canonical);
    });
  }

  it('exposes sorted requirements with operators and values', () => {
    const sel = parseLabelSelector('z notin (b,a), !y, x>3, w==1, v!=2, u in (q), t');
    expect(sel.requirements.map((r) => [r.key, r.operator, [...r.values]])).to.deep.equal([
      ['t', 'exists', []],
      ['u', 'in', ['q']],
      ['v', '!=', ['2']],
      ['w', '==', ['1']],
      ['x', 'gt', ['3']],
      ['y', '!', []],
      ['z', 'notin', ['a', 'b']],
    ]);
  });
});

describe('labels: matching', () => {
  const L = { app: 'web', tier: 'front', n: '5', neg: '-3', big: '9223372036854775807', s: 'abc', e: '' };
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ['', L, true],
    ['', undefined, true],
    ['app=web', L, true],
    ['app==web', L, true],
    ['app=db', L, false],
    ['missing=x', L, false],
    ['missing=', L, false],
    ['e=', L, true],
    ['app!=db', L, true],
    ['app!=web', L, false],
    ['missing!=x', L, true],
    ['missing!=x', undefined, true],
    ['app=web', undefined, false],
    ['app in (db,web)', L, true],
    ['app in (db)', L, false],
    ['missing in (a)', L, false],
    ['e in ()', L, true],
    ['app notin (db)', L, true],
    ['app notin (web,db)', L, false],
    ['missing notin (a)', L, true],
    ['app', L, true],
    ['missing', L, false],
    ['!missing', L, true],
    ['!app', L, false],
    ['!app', undefined, true],
    ['n>4', L, true],
    ['n>5', L, false],
    ['n<6', L, true],
    ['n<5', L, false],
    ['neg<0', L, true],
    ['neg>0', L, false],
    ['neg<1', L, true],
    ['big>9223372036854775806', L, true],
    ['s>0', L, false],
    ['s<0', L, false],
    ['missing>0', L, false],
    ['missing<0', L, false],
    ['app=web,tier=front', L, true],
    ['app=web,tier=back', L, false],
    ['app in (web),tier notin (back),!x,n>1', L, true],
    ['constructor', {}, false],
    ['!constructor', {}, true],
    ['toString=x', {}, false],
    ['constructor=x', { constructor: 'x' }, true],
    ['k in (a,b,c,d,e,f,g,h,i,j)', { k: 'j' }, true],
    ['k in (a,b,c,d,e,f,g,h,i,j)', { k: 'z' }, false],
    ['k notin (a,b,c,d,e,f,g,h,i,j)', { k: 'z' }, true],
  ];
  for (const [input, labels, want] of cases) {
    it(`${JSON.stringify(input)} ${want ? 'matches' : 'does not match'} ${JSON.stringify(labels)}`, () => {
      expect(parseLabelSelector(input).matches(labels)).to.equal(want);
    });
  }

  it('null labels are no labels', () => {
    expect(parseLabelSelector('!a').matches(null)).to.equal(true);
    expect(parseLabelSelector('a').matches(null)).to.equal(false);
  });
});

describe('labels: parse errors', () => {
  const cases: [string, string][] = [
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    [',', "found ',', expected: !, identifier, or 'end of string'"],
    [')', "found ')', expected: !, identifier, or 'end of string'"],
    ['(', "found '(', expected: !, identifier, or 'end of string'"],
    ['x,', "found '', expected: identifier after ','"],
    ['x,,y', "found ',', expected: identifier after ','"],
    ['x,=a', "found '=', expected: identifier after ','"],
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    ['x=a=b', "found '=', expected: ',' or 'end of string'"],
    ['x in (a) b', "found 'b', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['!x in (a)', "found 'in', expected: ',' or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!!x', "unable to parse requirement: found '!', expected: identifier"],
    ['!=a', "found '!=', expected: !, identifier, or 'end of string'"],
    ['! =a', "unable to parse requirement: found '=', expected: identifier"],
    ['x a', `unable to parse requirement: found 'a', expected: ${OPS}`],
    ['x !a', `unable to parse requirement: found '!', expected: ${OPS}`],
    ['x (a)', `unable to parse requirement: found '(', expected: ${OPS}`],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in', "unable to parse requirement: found '' expected: '('"],
    ['x notin =', "unable to parse requirement: found '=' expected: '('"],
    ['x in (', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['x in (a,', "unable to parse requirement: found '', expected: ',', or identifier"],
    ['x in (a,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['x in (a,,)', "unable to parse requirement: found ')', expected: ',', or identifier"],
    ['x=(a)', "unable to parse requirement: found '(', expected: identifier"],
    ['x=)', "unable to parse requirement: found ')', expected: identifier"],
    ['x===a', "unable to parse requirement: found '=', expected: identifier"],
    ['x>=1', "unable to parse requirement: found '=', expected: identifier"],
    ['x=!a', "unable to parse requirement: found '!', expected: identifier"],
    ['-x', `unable to parse requirement: <nil>: Invalid value: "-x": ${NAME_PART}`],
    ['!x.', `unable to parse requirement: <nil>: Invalid value: "x.": ${NAME_PART}`],
    ['a/b/c=d', `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`],
    ['/a', 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty'],
    ['a/', `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; ${NAME_PART}`],
    [`${'k'.repeat(64)}=v`, `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`],
    ['x=-a', `unable to parse requirement: values[0][x]: Invalid value: "-a": ${LABEL_VALUE}`],
    ['x!=a_', `unable to parse requirement: values[0][x]: Invalid value: "a_": ${LABEL_VALUE}`],
    ['x in (b,-a)', `unable to parse requirement: values[0][x]: Invalid value: "-a": ${LABEL_VALUE}`],
    [
      'x in (-b,-a)',
      `unable to parse requirement: [values[0][x]: Invalid value: "-a": ${LABEL_VALUE}, values[1][x]: Invalid value: "-b": ${LABEL_VALUE}]`,
    ],
    [`x=${'v'.repeat(64)}`, `unable to parse requirement: values[0][x]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`],
    ['x>a', `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['x<', `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['x>1.5', `unable to parse requirement: values[0]: Invalid value: "1.5": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['x>9223372036854775808', `unable to parse requirement: values[0]: Invalid value: "9223372036854775808": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['x>+5', `unable to parse requirement: values[0][x]: Invalid value: "+5": ${LABEL_VALUE}`],
    ['x>-1', `unable to parse requirement: values[0][x]: Invalid value: "-1": ${LABEL_VALUE}`],
    [
      'x>-a',
      `unable to parse requirement: [values[0]: Invalid value: "-a": for 'Gt', 'Lt' operators, the value must be an integer, values[0][x]: Invalid value: "-a": ${LABEL_VALUE}]`,
    ],
    ['a=b,c d', "unable to parse requirement: found 'd', expected: " + OPS],
  ];
  for (const [input, message] of cases) {
    it(`${JSON.stringify(input)} fails`, () => {
      expect(() => parseLabelSelector(input)).to.throw(SelectorParseError).with.property('message', message);
    });
  }
});

describe('labels: empty, everything, nothing, requiresExactMatch', () => {
  it('empty() is true only for a selector without requirements', () => {
    expect(parseLabelSelector('').empty()).to.equal(true);
    expect(parseLabelSelector(' ').empty()).to.equal(true);
    expect(parseLabelSelector('a').empty()).to.equal(false);
    expect(LabelSelector.everything().empty()).to.equal(true);
    expect(LabelSelector.nothing().empty()).to.equal(false);
  });

  it('nothing() matches no label set and is not selectable', () => {
    const n = LabelSelector.nothing();
    expect(n.matches({})).to.equal(false);
    expect(n.matches(undefined)).to.equal(false);
    expect(n.selectable).to.equal(false);
    expect(n.requirements).to.deep.equal([]);
    expect(n.requiresExactMatch('a')).to.equal(undefined);
    expect(LabelSelector.everything().matches(undefined)).to.equal(true);
  });

  const cases: [string, string, string | undefined][] = [
    ['a=1', 'a', '1'],
    ['a==1', 'a', '1'],
    ['a in (1)', 'a', '1'],
    ['a=', 'a', ''],
    ['a in (1,2)', 'a', undefined],
    ['a!=1', 'a', undefined],
    ['a notin (1)', 'a', undefined],
    ['a', 'a', undefined],
    ['!a', 'a', undefined],
    ['a>1', 'a', undefined],
    ['b=1', 'a', undefined],
    ['a=1,b=2', 'b', '2'],
    ['a!=1,a=2', 'a', undefined],
    ['', 'a', undefined],
  ];
  for (const [input, key, want] of cases) {
    it(`requiresExactMatch(${JSON.stringify(key)}) of ${JSON.stringify(input)} is ${JSON.stringify(want)}`, () => {
      expect(parseLabelSelector(input).requiresExactMatch(key)).to.equal(want);
    });
  }
});

describe('labels: Requirement construction', () => {
  const cases: [string, Requirement['operator'], string[], string][] = [
    ['a', 'in', [], "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"],
    ['a', 'notin', [], "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"],
    ['a', '=', ['x', 'y'], 'values: Invalid value: []string{"x", "y"}: exact-match compatibility requires one single value'],
    ['a', '!=', [], 'values: Invalid value: []string(nil): exact-match compatibility requires one single value'],
    ['a', 'exists', ['x'], 'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist'],
    ['a', '!', ['x'], 'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist'],
    [
      'a',
      'gt',
      ['1', '2'],
      `values: Invalid value: []string{"1", "2"}: for 'Gt', 'Lt' operators, exactly one value is required`,
    ],
    ['-a', '=', ['x'], `key: Invalid value: "-a": ${NAME_PART}`],
    ['-a', '=', ['-x'], `[key: Invalid value: "-a": ${NAME_PART}, values[0][-a]: Invalid value: "-x": ${LABEL_VALUE}]`],
  ];
  for (const [key, op, values, message] of cases) {
    it(`${key} ${op} ${JSON.stringify(values)} fails`, () => {
      expect(() => new Requirement(key, op, values)).to.throw(SelectorParseError).with.property('message', message);
    });
  }

  it('LabelSelector.of sorts by key, stably', () => {
    const sel = LabelSelector.of([new Requirement('b', '=', ['1']), new Requirement('a', '!=', ['2']), new Requirement('a', 'exists', [])]);
    expect(sel.toString()).to.equal('a!=2,a,b=1');
  });
});
