import { expect } from 'chai';
import {
  compile,
  CompileErrors,
  createEnvironment,
  EnvironmentError,
  type CelEnvironment,
  type Program,
} from '../../../lib/cel/index.js';

const env = createEnvironment({
  variables: [
    { name: 'x', type: 'int' },
    { name: 'names', type: 'list<string>' },
    { name: 'claims', type: 'map<string, dyn>' },
    { name: 'user', type: 'dyn' },
  ],
});

function errors(expression: string, e: CelEnvironment = env): CompileErrors {
  const r = compile(expression, e);
  expect(r, `${expression} should not compile`).to.be.instanceOf(CompileErrors);
  return r as CompileErrors;
}

function ok(expression: string, e: CelEnvironment = env): Program {
  const r = compile(expression, e);
  if (r instanceof CompileErrors) expect.fail(r.message);
  return r;
}

describe('compilation (spec 000 § Expression language (CEL) in fields)', () => {
  describe('errors carry a position and a message fit for users', () => {
    const cases: Array<[string, number, number, RegExp]> = [
      ['x +', 1, 4, /^Syntax error: Unexpected token: EOF$/],
      ['x + "a"', 1, 1, /no such overload: int \+ string/],
      ['y > 1', 1, 1, /^undeclared reference to 'y'$/],
      ['names.size() > 0 &&\n  nope(1)', 2, 3, /found no matching overload for 'nope\(int\)'/],
      ['names.all(n, n.matches("(?=x)"))', 1, 24, /^error parsing regexp/],
      ["'a' == 'b' ? 1 : 'two'", 1, 1, /Ternary branches must have the same type/],
      ['[1, "a"]', 1, 5, /List elements must have the same type/],
      ['x.foo()', 1, 1, /found no matching overload for 'int.foo\(\)'/],
    ];
    for (const [expression, line, column, message] of cases) {
      it(`${JSON.stringify(expression)} → ${line}:${column}`, () => {
        const issue = errors(expression).issues[0]!;
        expect(issue.message).to.match(message);
        expect([issue.line, issue.column]).to.deep.equal([line, column]);
      });
    }
    it('formats like upstream with the line and a caret', () => {
      expect(errors('y > 1').message).to.equal("ERROR: <input>:1:1: undeclared reference to 'y'\n | y > 1\n | ^");
      expect(errors('x > 1 && y').message).to.match(/<input>:1:10: .*\n \| x > 1 && y\n \| \.{9}\^$/);
    });
  });

  describe('result types', () => {
    const cases: Array<[string, string]> = [
      ['x > 1', 'bool'],
      ['x + 1', 'int'],
      ['names', 'list<string>'],
      ["claims['sub']", 'dyn'],
      ["names.map(n, n + '!')", 'list<string>'],
      ['{"a": x}', 'map<string, int>'],
    ];
    for (const [expression, type] of cases) {
      it(`${expression} : ${type}`, () => expect(ok(expression).resultType).to.equal(type));
    }
    it('rejects an expression of the wrong result type', () => {
      const r = compile('x + 1', env, { resultTypes: ['bool'] });
      expect((r as CompileErrors).message).to.match(/expression must evaluate to bool, got int/);
      expect(compile("claims['sub']", env, { resultTypes: ['string'] })).to.be.instanceOf(CompileErrors);
      expect(compile("claims['sub']", env, { resultTypes: ['string', 'dyn'] })).to.not.be.instanceOf(CompileErrors);
      expect(compile('names', env, { resultTypes: ['string', 'list<string>'] })).to.not.be.instanceOf(CompileErrors);
    });
  });

  describe('declarations are validated eagerly', () => {
    const bad: Array<[string, Parameters<typeof createEnvironment>[0], RegExp]> = [
      ['a bad name', { variables: [{ name: 'not-ident', type: 'int' }] }, /invalid variable name/],
      ['a reserved word', { variables: [{ name: 'namespace', type: 'int' }] }, /invalid variable name/],
      ['a duplicate', { variables: [{ name: 'a', type: 'int' }, { name: 'a', type: 'string' }] }, /declared twice/],
      ['an unknown type', { variables: [{ name: 'a', type: 'widget' }] }, /unknown type "widget"/],
      ['a bad generic', { variables: [{ name: 'a', type: 'map<string>' }] }, /map takes two type arguments/],
      ['neither type nor schema', { variables: [{ name: 'a' }] }, /exactly one of type or schema/],
      ['an empty schema', { variables: [{ name: 'a', schema: {} }] }, /no type expressions can use/],
      ['a clash with a built-in name', { variables: [{ name: 'int', type: 'int' }] }, /already registered/],
      ['a bad version', { version: 'latest' }, /invalid compatibility version/],
    ];
    for (const [what, options, message] of bad) {
      it(`rejects ${what}`, () => expect(() => createEnvironment(options)).to.throw(message));
    }
    it('throws EnvironmentError for declaration problems', () => {
      expect(() => createEnvironment({ variables: [{ name: 'a', type: 'nope' }] })).to.throw(EnvironmentError);
    });
  });

  describe('activations', () => {
    it('converts JSON values by declared type, and prepared activations are reusable', () => {
      const a = ok('x * 2');
      const b = ok("names.join(',')");
      const prepared = env.prepare({ x: 21, names: ['a', 'b'] });
      expect(a.evaluate(prepared)).to.deep.include({ ok: true, value: 42n });
      expect(b.evaluate(prepared)).to.deep.include({ ok: true, value: 'a,b' });
    });
    it('rejects an activation prepared for another environment', () => {
      const other = createEnvironment({ variables: [{ name: 'x', type: 'int' }] });
      expect(() => ok('x').evaluate(other.prepare({ x: 1 }))).to.throw(/another environment/);
    });
    it('reports an unbound variable at runtime', () => {
      const r = ok('x + 1').evaluate({});
      expect(r.ok).to.equal(false);
      if (!r.ok) expect(r.error.message).to.match(/Unknown variable: x/);
    });
    it('locates runtime errors', () => {
      const r = ok("'abc'.substring(x)").evaluate({ x: 9 });
      expect(r.ok).to.equal(false);
      if (!r.ok) expect([r.error.message, 'start' in r.error ? r.error.start : undefined]).to.deep.equal(['index out of range: 9', 0]);
    });
    it('evaluates dynamic JSON with integers as ints and fractions as doubles', () => {
      const p = ok("user.age + 1 == 31 && user.score == 0.5 && user.tags[0] == 'x' && user.nested.ok");
      expect(p.evaluate({ user: { age: 30, score: 0.5, tags: ['x'], nested: { ok: true } } })).to.deep.include({ ok: true, value: true });
    });
  });
});
