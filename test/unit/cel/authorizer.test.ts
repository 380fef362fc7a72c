import { expect } from 'chai';
import {
  AUTHORIZER_TYPES,
  authorizerValue,
  bindAuthorizer,
  compile,
  CompileErrors,
  createEnvironment,
  withRequestResource,
  type AuthorizationAttributes,
  type AuthorizationDecision,
  type CelAuthorizer,
  type Program,
} from '../../../lib/cel/index.js';
import { fails, table } from './helpers.js';

const env = createEnvironment({ variables: [{ name: 'authorizer', type: AUTHORIZER_TYPES.authorizer }] });
const user = { username: 'alice', groups: ['dev'] };

/** Allows reads of pods in "default", the /healthz path, and anything for a named service account. */
function decide(a: AuthorizationAttributes): AuthorizationDecision {
  if (a.user?.username === 'system:serviceaccount:kube:builder') return { decision: 'Allow', reason: 'builder' };
  if (!a.resourceRequest) return a.path === '/healthz' && a.verb === 'get' ? { decision: 'Allow', reason: 'path' } : { decision: 'NoOpinion', reason: '' };
  if (a.resource === 'pods' && a.namespace === 'default' && a.verb === 'get' && a.subresource === '') return { decision: 'Allow', reason: 'reader' };
  if (a.resource === 'secrets') return { decision: 'Deny', reason: 'secrets are off limits' };
  return { decision: 'NoOpinion', reason: 'no rule' };
}

function program(expression: string): Program {
  const p = compile(expression, env);
  if (p instanceof CompileErrors) throw new Error(p.message);
  return p;
}

describe('authorizer library (spec 000 § Expression language (CEL) in fields)', () => {
  describe('checks against a synchronous decision function', () => {
    table(
      [
        ["authorizer.group('').resource('pods').namespace('default').check('get').allowed()", true],
        ["authorizer.group('').resource('pods').namespace('default').check('get').reason()", 'reader'],
        ["authorizer.group('').resource('pods').namespace('other').check('get').allowed()", false],
        ["authorizer.group('').resource('pods').namespace('default').subresource('log').check('get').allowed()", false],
        ["authorizer.group('').resource('pods').namespace('default').name('p1').check('get').allowed()", true],
        ["authorizer.group('').resource('secrets').check('get').allowed()", false],
        ["authorizer.group('').resource('secrets').check('get').reason()", 'secrets are off limits'],
        ["authorizer.path('/healthz').check('get').allowed()", true],
        ["authorizer.path('/metrics').check('get').allowed()", false],
        ["authorizer.serviceAccount('kube', 'builder').group('apps').resource('deployments').check('delete').allowed()", true],
        ["authorizer.serviceAccount('kube', 'builder').path('/x').check('post').reason()", 'builder'],
        ["authorizer.path('  ').check('get')", fails(/^path must not be empty$/)],
        ["authorizer.group('').resource('').check('get')", fails(/^resource must not be empty$/)],
        ["authorizer.serviceAccount('kube', 'Bad_Name')", fails(/^Invalid service account name$/)],
        ["authorizer.serviceAccount('Bad.NS', 'builder')", fails(/^Invalid service account namespace$/)],
      ],
      () => env,
      () => ({ authorizer: authorizerValue(user, decide) }),
    );

    it('passes the request attributes and the user to the decision function', () => {
      const seen: AuthorizationAttributes[] = [];
      const spy = authorizerValue(user, (a) => (seen.push(a), { decision: 'NoOpinion', reason: '' }));
      program("authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('web').check('update').allowed()").evaluate({ authorizer: spy });
      program("authorizer.serviceAccount('ns', 'sa').path('/api').check('get').allowed()").evaluate({ authorizer: spy });
      expect(seen).to.deep.equal([
        { user, verb: 'update', resourceRequest: true, group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'web', path: '' },
        {
          user: { username: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] },
          verb: 'get',
          resourceRequest: false,
          group: '',
          resource: '',
          subresource: '',
          namespace: '',
          name: '',
          path: '/api',
        },
      ]);
    });

    it('rejects checks on the wrong builder at compile time', () => {
      expect(compile("authorizer.group('').check('get')", env)).to.be.instanceOf(CompileErrors);
      expect(compile("authorizer.path('/x').namespace('n')", env)).to.be.instanceOf(CompileErrors);
    });

    it('authorizer.requestResource checks the request\'s own resource, chainable like any resource check', () => {
      const seen: AuthorizationAttributes[] = [];
      const spy = authorizerValue(user, (a) => (seen.push(a), decide(a)));
      const value = withRequestResource(spy, { group: '', resource: 'pods', subresource: '', namespace: 'default', name: 'p1' });
      expect(program("authorizer.requestResource.check('get').allowed()").evaluate({ authorizer: value })).to.include({ ok: true, value: true });
      expect(program("authorizer.requestResource.subresource('log').check('get').allowed()").evaluate({ authorizer: value })).to.include({ ok: true, value: false });
      expect(seen.map((a) => [a.group, a.resource, a.subresource, a.namespace, a.name, a.verb])).to.deep.equal([
        ['', 'pods', '', 'default', 'p1', 'get'],
        ['', 'pods', 'log', 'default', 'p1', 'get'],
      ]);
      expect(program("authorizer.requestResource.check('get').allowed()").evaluate({ authorizer: spy })).to.include({ ok: false });
    });
  });

  describe('an asynchronous authorizer resolved by evaluateAsync', () => {
    function counting(): CelAuthorizer & { calls: number } {
      const a = {
        calls: 0,
        async authorize(attrs: AuthorizationAttributes) {
          a.calls++;
          await new Promise((r) => setTimeout(r, 1));
          return decide(attrs);
        },
      };
      return a;
    }

    it('resolves every check the expression reaches', async () => {
      const authz = counting();
      const binding = bindAuthorizer(authz, user);
      const p = program(
        "authorizer.group('').resource('pods').namespace('default').check('get').allowed() && !authorizer.group('').resource('secrets').check('get').allowed()",
      );
      const r = await p.evaluateAsync({ authorizer: binding.value });
      expect(r).to.deep.include({ ok: true, value: true });
      expect(authz.calls).to.equal(2);
      expect(r.cost).to.be.greaterThan(700_000);
    });

    it('caches decisions across evaluations with the same binding', async () => {
      const authz = counting();
      const binding = bindAuthorizer(authz, user);
      const p = program("authorizer.path('/healthz').check('get').allowed()");
      await p.evaluateAsync({ authorizer: binding.value });
      const again = await p.evaluateAsync({ authorizer: binding.value });
      expect(again).to.deep.include({ ok: true, value: true });
      expect(authz.calls).to.equal(1);
    });

    it('reports pending decisions when evaluated synchronously', () => {
      const binding = bindAuthorizer(counting(), user);
      const r = program("authorizer.path('/healthz').check('get').allowed()").evaluate({ authorizer: binding.value });
      expect(r.ok).to.equal(false);
      if (!r.ok) expect(r.error.message).to.match(/authorization decisions are pending/);
    });

    it('does not ask about checks the expression never reaches', async () => {
      const authz = counting();
      const binding = bindAuthorizer(authz, user);
      const r = await program("false && authorizer.path('/healthz').check('get').allowed()").evaluateAsync({ authorizer: binding.value });
      expect(r).to.deep.include({ ok: true, value: false });
      expect(authz.calls).to.equal(0);
    });
  });
});
