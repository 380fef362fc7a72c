import { expect } from 'chai';
import { schemaExtension } from '../../../lib/apis/vendor.js';
import {
  authorizerValue,
  AUTHORIZER_TYPES,
  compile,
  CompileErrors,
  CostLimitExceededError,
  createEnvironment,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  type CelEnvironment,
  type Program,
} from '../../../lib/cel/index.js';
import { UNBOUNDED } from '../../../lib/cel/types.js';
import { covers } from '../../conformance/covers.js';

const SCHEMA = {
  type: 'object',
  properties: {
    tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 5 } },
    unboundedTags: { type: 'array', items: { type: 'string' } },
    name: { type: 'string', maxLength: 16 },
    matrix: { type: 'array', maxItems: 20, items: { type: 'array', maxItems: 30, items: { type: 'integer' } } },
    set: { type: 'array', maxItems: 4, items: { type: 'integer' }, [schemaExtension('list-type')]: 'set' },
    labels: { type: 'object', maxProperties: 8, additionalProperties: { type: 'string', maxLength: 10 } },
  },
};

let shared: CelEnvironment | undefined;
const env = (): CelEnvironment =>
  (shared ??= createEnvironment({
    variables: [
      { name: 'self', schema: SCHEMA },
      { name: 'items', type: 'list<int>' },
      { name: 'object', type: 'dyn' },
      { name: 'authorizer', type: AUTHORIZER_TYPES.authorizer },
    ],
  }));

function program(expression: string): Program {
  const p = compile(expression, env());
  if (p instanceof CompileErrors) throw new Error(p.message);
  return p;
}

const DATA = { tags: ['ab', 'cd'], unboundedTags: ['x'], name: 'abcd', matrix: [[1, 2], [3]], set: [1, 2], labels: { a: 'b' } };
const allow = authorizerValue({ username: 'u' }, () => ({ decision: 'Allow', reason: '' }));

function cost(expression: string, activation: Record<string, unknown> = { self: DATA, authorizer: allow }): number {
  const r = program(expression).evaluate(activation);
  if (!r.ok) throw new Error(r.error.message);
  return r.cost!;
}

describe('expression cost (spec 001 § Limits, expression cost)', () => {
  describe('the limits have the upstream values', () => {
    it('per call, per object, match conditions, static estimates', () => {
      expect(PER_CALL_LIMIT).to.equal(1_000_000);
      expect(RUNTIME_CEL_COST_BUDGET).to.equal(10_000_000);
      expect(RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS).to.equal(2_500_000);
      expect(STATIC_ESTIMATED_COST_LIMIT).to.equal(10_000_000);
      expect(STATIC_ESTIMATED_CRD_COST_LIMIT).to.equal(100_000_000);
    });
  });

  describe('runtime figures', () => {
    const cases: Array<[string, number, string]> = [
      ['1 < 2', 1, 'a comparison costs 1'],
      ['1 == 1', 1, 'an equality of scalars costs 1'],
      ['[1, 2, 3]', 40, 'a list literal has base cost 40'],
      ['[]', 40, 'an empty list literal too'],
      ["{'a': 1}", 30, 'a map literal has base cost 30'],
      ["'abcd'.matches('ab')", 8, 'regex cost is pattern length × input length'],
      ["'abcd'.find('abc')", 12, 'find likewise'],
      ["'abcdefgh'.findAll('b')", 8, 'findAll likewise'],
      ['self.name', 2, 'a variable and a selection cost 1 each'],
      ['self.name.matches("^a")', 10, 'selections plus 4 × 2'],
      ['has(self.name)', 1, 'a presence test costs only its operand'],
      ['self.tags.all(t, t.size() < 3)', 14, 'each iteration: variable, call, comparison and loop overhead 3'],
      ["authorizer.group('').resource('pods').check('get').allowed()", 350_004, 'an authorization check costs 350000'],
      ["'abc' + 'def'", 1, 'a short concatenation'],
      ['self.set == [2, 1]', 43, 'selections 2, list literal 40, comparison 1'],
    ];
    /** The figures spec 001 § Limits › Expression cost states. */
    const specFigures = new Set(['1 < 2', '[1, 2, 3]', "'abcd'.matches('ab')"]);
    for (const [expression, expected, why] of cases) {
      const tag = specFigures.has(expression) ? covers('001 § Limits › Expression cost') : '';
      it(`${expression} costs ${expected}: ${why}${tag}`, () => expect(cost(expression)).to.equal(expected));
    }
  });

  describe('the budget halts evaluation', () => {
    const items = Array.from({ length: 300_000 }, (_, i) => i + 1);
    it(`items.all(x, x > 0) over 300000 items exceeds the per-call limit${covers('001 § Limits › Expression cost')}`, () => {
      const r = program('items.all(x, x > 0)').evaluate({ items });
      expect(r.ok).to.equal(false);
      if (r.ok) return;
      expect(r.error).to.be.instanceOf(CostLimitExceededError);
      expect(r.error.message).to.equal('operation cancelled: actual cost limit exceeded');
      expect(r.cost).to.be.greaterThan(PER_CALL_LIMIT);
    });
    it('[1, 2, 3].all(x, x > 0) exceeds a budget of 40', () => {
      const r = program('[1, 2, 3].all(x, x > 0)').evaluate({}, { budget: 40 });
      expect(r.ok).to.equal(false);
      if (!r.ok) expect(r.error).to.be.instanceOf(CostLimitExceededError);
    });
    it('[1, 2, 3].all(x, x > 0) fits a budget of its exact cost', () => {
      const p = program('[1, 2, 3].all(x, x > 0)');
      const exact = p.evaluate({}).cost!;
      expect(p.evaluate({}, { budget: exact }).ok).to.equal(true);
      expect(p.evaluate({}, { budget: exact - 1 }).ok).to.equal(false);
    });
    it('an exhausted budget is reported even when the expression absorbs the error', () => {
      const r = program('items.all(x, x > 0) || true').evaluate({ items });
      expect(r.ok).to.equal(false);
      if (!r.ok) expect(r.error).to.be.instanceOf(CostLimitExceededError);
    });
    it('three authorization checks exceed the per-call limit', () => {
      const check = "authorizer.group('').resource('pods').check('get').allowed()";
      const r = program(`${check} && ${check} && ${check}`).evaluate({ authorizer: allow });
      expect(r.ok).to.equal(false);
    });
    it('tracking can be turned off', () => {
      const r = program('items.all(x, x > 0)').evaluate({ items }, { budget: Infinity });
      expect(r.ok && r.value).to.equal(true);
      expect(r.cost).to.equal(undefined);
    });
    it('reports the cost of a successful evaluation', () => {
      const r = program('items.all(x, x > 0)').evaluate({ items: [1, 2] });
      expect(r).to.deep.include({ ok: true, value: true, cost: 11 });
    });
  });

  describe('static estimates from schema bounds', () => {
    const cases: Array<[string, number, number]> = [
      ['1 < 2', 1, 1],
      ['self.name', 2, 2],
      // maxLength 16 → 64 bytes; 64 × 2
      ['self.name.matches("^a")', 3, 130],
      // 10 items × (1 + 20 × 2 + 3) + 2
      ["self.tags.all(t, t.matches('^a'))", 2, 442],
      // 20 rows × (row 1 + 30 × (x 1 + comparison 1 + overhead 3) + overhead 3) + 2
      ['self.matrix.all(row, row.all(x, x > 0))', 2, 3082],
      // 4 × (x 1 + comparison 1 + overhead 3) + 2
      ['self.set.exists(x, x == 2)', 2, 22],
      // 8 entries × (self 1 + labels 1 + k 1 + index 1 + comparison 1 + overhead 3) + 2
      ["self.labels.all(k, self.labels[k] == 'x')", 2, 66],
    ];
    for (const [expression, min, max] of cases) {
      it(`${expression}: [${min}, ${max}]`, () => expect(program(expression).estimatedCost).to.deep.equal({ min, max }));
    }
    it('lists without maxItems are bounded by the request size', () => {
      const max = program("self.unboundedTags.all(t, t.matches('^a'))").estimatedCost.max;
      expect(max).to.be.greaterThan(STATIC_ESTIMATED_COST_LIMIT);
      expect(max).to.be.lessThan(UNBOUNDED);
    });
    it('dynamic data is unbounded', () => {
      expect(program('object.items.all(x, x > 0)').estimatedCost.max).to.equal(UNBOUNDED);
    });
    it(`a costLimit turns an excessive estimate into a compile error${covers('001 § Limits › Expression cost')}`, () => {
      const r = compile("self.unboundedTags.all(t, t.matches('^a'))", env(), { costLimit: STATIC_ESTIMATED_COST_LIMIT });
      expect(r).to.be.instanceOf(CompileErrors);
      expect((r as CompileErrors).message).to.match(/estimated cost exceeds budget by factor of \d+\.\dx/);
      expect(compile("self.tags.all(t, t.matches('^a'))", env(), { costLimit: STATIC_ESTIMATED_COST_LIMIT })).to.not.be.instanceOf(CompileErrors);
    });
    it('the runtime cost never exceeds the estimate', () => {
      for (const [expression] of cases) {
        const p = program(expression);
        expect(cost(expression), expression).to.be.at.most(p.estimatedCost.max);
      }
    });
  });
});
