import { expect } from 'chai';
import {
  celToJSON,
  compile,
  CompileErrors,
  createEnvironment,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  type CelEnvironment,
  type OpenAPISchema,
} from '../../../lib/cel/index.js';
import { covers } from '../../conformance/covers.js';

function run(expression: string, env: CelEnvironment, activation: Record<string, unknown>, resultTypes?: string[]): unknown {
  const p = compile(expression, env, resultTypes ? { resultTypes } : {});
  if (p instanceof CompileErrors) throw new Error(p.message);
  const r = p.evaluate(activation);
  if (!r.ok) throw new Error(r.error.message);
  return celToJSON(r.value);
}

describe('expressions as the server uses them', () => {
  describe('claim validation and mappings (spec 001 § Authentication configuration file)', () => {
    const env = createEnvironment({ variables: [{ name: 'claims', type: 'map<string, dyn>' }] });
    const claims = { sub: 'u1', email: 'a@example.com', email_verified: true, groups: ['dev', 'ops'], exp: 1700000000, nested: { team: 'x' } };
    const cases: Array<[string, string[], unknown]> = [
      ["claims.email_verified && claims.email.endsWith('@example.com')", ['bool'], true],
      ["'oidc:' + claims.sub", ['string'], 'oidc:u1'],
      ["claims.groups.map(g, 'oidc:' + g)", ['list<string>', 'list<dyn>', 'dyn'], ['oidc:dev', 'oidc:ops']],
      ['claims.exp > 1600000000', ['bool'], true],
      ["has(claims.nested) ? claims.nested.team : ''", ['dyn', 'string'], 'x'],
      ["claims.?missing.orValue('none')", ['dyn', 'string'], 'none'],
    ];
    for (const [expression, types, expected] of cases) {
      it(`${expression} → ${JSON.stringify(expected)}`, () => expect(run(expression, env, { claims }, types)).to.deep.equal(expected));
    }
    it('a user validation rule over the mapped user', () => {
      const userEnv = createEnvironment({ variables: [{ name: 'user', type: 'map<string, dyn>' }] });
      expect(run("!user.username.startsWith('system:')", userEnv, { user: { username: 'oidc:u1', groups: [] } }, ['bool'])).to.equal(true);
    });
  });

  describe('authorization match conditions over a typed review (spec 001 § Authorization)', () => {
    const review: OpenAPISchema = {
      type: 'object',
      properties: {
        resourceAttributes: {
          type: 'object',
          properties: { verb: { type: 'string' }, resource: { type: 'string' }, namespace: { type: 'string' }, group: { type: 'string' } },
        },
        nonResourceAttributes: { type: 'object', properties: { path: { type: 'string' }, verb: { type: 'string' } } },
        user: { type: 'string' },
        groups: { type: 'array', items: { type: 'string' } },
      },
    };
    const env = createEnvironment({ variables: [{ name: 'request', schema: review }] });
    const request = { resourceAttributes: { verb: 'get', resource: 'pods', namespace: '__proto__', group: '' }, user: 'alice', groups: ['system:authenticated'] };
    it('matches on typed fields', () => {
      expect(run("has(request.resourceAttributes) && request.resourceAttributes.__namespace__ != 'kube-system'", env, { request }, ['bool'])).to.equal(true);
      expect(run("'system:authenticated' in request.groups", env, { request }, ['bool'])).to.equal(true);
      expect(run('has(request.nonResourceAttributes)', env, { request }, ['bool'])).to.equal(false);
    });
    it('rejects a misspelt field at compile time', () => {
      expect(compile('request.resourceAtributes.verb', env)).to.be.instanceOf(CompileErrors);
    });
  });

  describe('validation rules with transition rules (spec 000 § Expression language (CEL) in fields)', () => {
    const schema: OpenAPISchema = { type: 'object', properties: { replicas: { type: 'integer' }, mode: { type: 'string' } } };
    const env = createEnvironment({
      variables: [
        { name: 'self', schema },
        { name: 'oldSelf', schema, optional: true },
      ],
    });
    const rule = '!oldSelf.hasValue() || self.replicas >= oldSelf.value().replicas';
    it('an optional oldSelf lets the rule run on create', () => {
      expect(run(rule, env, { self: { replicas: 1 } }, ['bool'])).to.equal(true);
    });
    it('and compares with the old object on update', () => {
      expect(run(rule, env, { self: { replicas: 1 }, oldSelf: { replicas: 3 } }, ['bool'])).to.equal(false);
      expect(run('self.mode == oldSelf.value().mode', env, { self: { mode: 'a' }, oldSelf: { mode: 'a' } }, ['bool'])).to.equal(true);
    });
    it(`a per-object budget is spent across rules${covers('001 § Limits › Expression cost')}`, () => {
      const rules = ['self.replicas >= 0', "self.mode in ['a', 'b']", 'self.replicas < 10'].map((r) => compile(r, env));
      let remaining = RUNTIME_CEL_COST_BUDGET;
      const prepared = env.prepare({ self: { replicas: 2, mode: 'a' } });
      for (const p of rules) {
        if (p instanceof CompileErrors) throw new Error(p.message);
        const r = p.evaluate(prepared, { budget: Math.min(PER_CALL_LIMIT, remaining) });
        expect(r.ok && r.value).to.equal(true);
        remaining -= r.cost!;
      }
      // 3 + (2 selections + list literal 40 + membership over 2 items) + 3
      expect(RUNTIME_CEL_COST_BUDGET - remaining).to.equal(3 + 44 + 3);
    });
  });
});
