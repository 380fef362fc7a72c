import { expect } from 'chai';
import { JSONPathSyntaxError, parseJSONPath, type JSONPathNode } from '../../../../lib/apimachinery/jsonpath/index.js';

/** The steps of the template's only action. */
function steps(text: string): readonly JSONPathNode[] {
  const root = parseJSONPath(text).root.nodes;
  expect(root).to.have.length(1);
  const action = root[0]!;
  if (action.type !== 'list') throw new Error(`not an action: ${action.type}`);
  return action.nodes;
}

describe('apimachinery/jsonpath/parser', () => {
  describe('syntax errors carry upstream messages', () => {
    const cases: [string, string][] = [
      ['{.a', 'unclosed action'],
      ['{.a\n}', 'unclosed action'],
      ['{.a[0}', 'unterminated array'],
      ['{.a[x]}', 'invalid array index x'],
      ['{.a["x"]}', 'invalid array index "x"'],
      ['{.a[1:2:3:4]}', 'invalid array index 1:2:3:4'],
      ['{.a[99999999999999999999]}', 'array index 99999999999999999999 is not a number'],
      ['{.a[-]}', 'array index - is not a number'],
      ['{.a[1,x]}', 'invalid array index x'],
      ['{#}', "unrecognized character in action: U+0023 '#'"],
      ['{.a]}', "unrecognized character in action: U+005D ']'"],
      ['{\t}', 'unrecognized character in action: U+0009'],
      ['{....a}', 'invalid multiple recursive descent'],
      ['{.a[?(@.x==1]}', 'unterminated filter'],
      ['{.a[?(@.x=="a)]}', 'unterminated filter'],
      ['{.a[?(@.x==1)x}', 'unclosed array expect ]'],
      ['{"abc}', 'unterminated quoted string'],
      ['{"\\q"}', 'unquote string "\\q" error invalid syntax'],
      ["{'a\\\"'}", 'unquote string \'a\\"\' error invalid syntax'],
      ['{+}', 'cannot parse number +'],
      ['{1.2.3}', 'cannot parse number 1.2.3'],
      ['{.a[?(@.x==~)]}', "unrecognized character in action: U+007E '~'"],
    ];
    for (const [text, message] of cases) {
      it(`${JSON.stringify(text)} → ${message}`, () => {
        expect(() => parseJSONPath(text)).to.throw(JSONPathSyntaxError).with.property('message', message);
      });
    }
  });

  it('keeps text around actions', () => {
    expect(parseJSONPath('name: {.a.b}!').root.nodes).to.deep.equal([
      { type: 'text', text: 'name: ' },
      { type: 'list', nodes: [{ type: 'field', name: 'a' }, { type: 'field', name: 'b' }] },
      { type: 'text', text: '!' },
    ]);
    expect(parseJSONPath('no action').root.nodes).to.deep.equal([{ type: 'text', text: 'no action' }]);
    expect(parseJSONPath('').root.nodes).to.deep.equal([]);
  });

  it('reads escaped dots in field names, and splits quoted keys at dots as upstream does', () => {
    expect(steps('{.labels.app\\.io/name}')).to.deep.equal([
      { type: 'field', name: 'labels' },
      { type: 'field', name: 'app.io/name' },
    ]);
    expect(steps("{['a.b']}")).to.deep.equal([
      { type: 'field', name: 'a' },
      { type: 'field', name: 'b' },
    ]);
  });

  it('parses indexes and slices into three bounds', () => {
    const unknown = { known: false, value: 0, derived: false };
    expect(steps('{[2]}')).to.deep.equal([{ type: 'array', params: [{ known: true, value: 2, derived: false }, { known: true, value: 3, derived: true }, unknown] }]);
    expect(steps('{[-1]}')).to.deep.equal([{ type: 'array', params: [{ known: true, value: -1, derived: false }, { known: true, value: 0, derived: true }, unknown] }]);
    expect(steps('{[*]}')).to.deep.equal([{ type: 'array', params: [unknown, unknown, unknown] }]);
    expect(steps('{[1::2]}')).to.deep.equal([{ type: 'array', params: [{ known: true, value: 1, derived: false }, unknown, { known: true, value: 2, derived: false }] }]);
  });

  it('parses filters, unions, literals, recursive descent, wildcards and identifiers', () => {
    expect(steps('{[?(@.type=="Ready")]}')).to.deep.equal([
      {
        type: 'filter',
        left: { type: 'list', nodes: [{ type: 'field', name: 'type' }] },
        right: { type: 'list', nodes: [{ type: 'text', text: 'Ready' }] },
        operator: '==',
      },
    ]);
    expect(steps('{[?(@.x)]}')).to.deep.equal([
      { type: 'filter', left: { type: 'list', nodes: [{ type: 'field', name: 'x' }] }, right: { type: 'list', nodes: [] }, operator: 'exists' },
    ]);
    expect(steps('{[0, 2]}')[0]).to.have.property('type', 'union');
    expect(steps('{true 3 -2.5 "s"}')).to.deep.equal([
      { type: 'bool', value: true },
      { type: 'int', value: 3 },
      { type: 'float', value: -2.5 },
      { type: 'text', text: 's' },
    ]);
    expect(steps('{..name.*}')).to.deep.equal([{ type: 'recursive' }, { type: 'field', name: 'name' }, { type: 'wildcard' }]);
    expect(steps('{range @.items}')).to.deep.equal([{ type: 'identifier', name: 'range' }, { type: 'field', name: 'items' }]);
  });
});
