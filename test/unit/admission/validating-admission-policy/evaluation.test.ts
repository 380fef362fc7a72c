import { expect } from 'chai';
import { admissionAttrs } from '../attrs.js';
import { admissionActivation, admissionRequestValue } from '../../../../lib/admission/cel/activation.js';
import { compilePolicy } from '../../../../lib/admission/plugins/validating-admission-policy/compile.js';
import { validatePolicy } from '../../../../lib/admission/plugins/validating-admission-policy/evaluate.js';
import { binding, createConfigMap, FakeResource, Fixture, namespaceObj, policy, USER } from './fixture.js';

const CM_PARAMS = { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } };
const MAX_RULE = { expression: 'size(object.data) <= int(params.data.max)', messageExpression: "'at most ' + params.data.max + ' keys'" };

function fixture(spec: Record<string, unknown>, bindingSpec: Record<string, unknown> = {}): Fixture {
  const f = new Fixture();
  f.namespaces.put(namespaceObj('default', { env: 'prod' }));
  f.policies.put(policy('p', spec));
  f.bindings.put(binding('b', 'p', bindingSpec));
  return f;
}

const limits = (name: string, ns: string, max: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels }, data: { max } });
const twoKeys = (ns = 'default') => createConfigMap('cm', { a: '1', b: '2' }, { ns });

describe('ValidatingAdmissionPolicy evaluation (spec 001 § Admission control, § Limits)', () => {
  describe('parameters', () => {
    it('paramRef.name in paramRef.namespace', async () => {
      const f = fixture({ ...CM_PARAMS, validations: [MAX_RULE] }, { paramRef: { name: 'limits', namespace: 'cfg', parameterNotFoundAction: 'Deny' } });
      f.configMaps.put(limits('limits', 'cfg', '1'));
      expect((await f.run(twoKeys())).error?.message).to.match(/denied request: at most 1 keys$/);
      f.configMaps.put(limits('limits', 'cfg', '5'));
      expect((await f.run(twoKeys())).error).to.equal(undefined);
    });

    it('a namespaced paramKind without paramRef.namespace is read in the request namespace; a parameter only storage has is found', async () => {
      const f = fixture({ ...CM_PARAMS, validations: [MAX_RULE] }, { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } });
      f.namespaces.put(namespaceObj('team'));
      f.configMaps.put(limits('limits', 'default', '1'));
      f.configMaps.live.set('team/limits', limits('limits', 'team', '9'));
      expect((await f.run(twoKeys())).error?.code).to.equal(422);
      expect((await f.run(twoKeys('team'))).error).to.equal(undefined);
    });

    it('paramRef.selector evaluates once per selected parameter', async () => {
      const f = fixture({ ...CM_PARAMS, validations: [MAX_RULE] }, { paramRef: { selector: { matchLabels: { kind: 'limit' } }, namespace: 'cfg', parameterNotFoundAction: 'Allow' } });
      f.configMaps.put(limits('loose', 'cfg', '10', { kind: 'limit' }));
      f.configMaps.put(limits('other', 'cfg', '0'));
      expect((await f.run(twoKeys())).error).to.equal(undefined);
      f.configMaps.put(limits('strict', 'cfg', '1', { kind: 'limit' }));
      expect((await f.run(twoKeys())).error?.message).to.match(/at most 1 keys$/);
    });

    it('no parameter found: Allow admits, Deny is an error of the binding', async () => {
      const allow = fixture({ ...CM_PARAMS, validations: [MAX_RULE] }, { paramRef: { name: 'none', parameterNotFoundAction: 'Allow' } });
      expect((await allow.run(twoKeys())).error).to.equal(undefined);
      const deny = fixture({ ...CM_PARAMS, validations: [MAX_RULE] }, { paramRef: { name: 'none', parameterNotFoundAction: 'Deny' } });
      expect((await deny.run(twoKeys())).error?.message).to.equal(
        "configmaps \"cm\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
      );
    });

    it('a binding without paramRef evaluates with params null', async () => {
      const f = fixture({ ...CM_PARAMS, validations: [{ expression: 'params == null' , message: 'params set' }] });
      expect((await f.run(twoKeys())).error).to.equal(undefined);
    });

    it('namespaced parameters for a cluster-scoped request, a namespace for cluster-scoped parameters: binding errors', async () => {
      const rules = { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] };
      const f = fixture({ ...CM_PARAMS, matchConstraints: rules, validations: [{ expression: 'true' }] }, { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } });
      const nodeCreate = admissionAttrs(USER, { resource: 'nodes', kind: 'Node', name: 'n1', object: { metadata: { name: 'n1' } } });
      expect((await f.run(nodeCreate)).error?.message).to.contain('failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
      const g = fixture({ paramKind: { apiVersion: 'v1', kind: 'Namespace' }, validations: [{ expression: 'true' }] }, { paramRef: { name: 'x', namespace: 'ns', parameterNotFoundAction: 'Allow' } });
      expect((await g.run(twoKeys())).error?.message).to.contain('failed to configure binding: paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
    });

    it('a paramKind that is not served: the policy fails with upstream message under Fail, is skipped under Ignore', async () => {
      const spec = { paramKind: { apiVersion: 'example.com/v1', kind: 'Nope' }, validations: [{ expression: 'false' }] };
      const f = fixture(spec, { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } });
      expect((await f.run(twoKeys())).error?.message).to.equal(
        "configmaps \"cm\" is forbidden: ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Nope'",
      );
      const g = fixture({ ...spec, failurePolicy: 'Ignore' }, { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } });
      expect((await g.run(twoKeys())).error).to.equal(undefined);
    });
  });

  it('audit annotation values of several parameters are published once each, joined by ", "', async () => {
    const f = fixture(
      { ...CM_PARAMS, auditAnnotations: [{ key: 'limit', valueExpression: "'max ' + params.data.max" }] },
      { paramRef: { selector: {}, namespace: 'cfg', parameterNotFoundAction: 'Allow' } },
    );
    f.configMaps.put(limits('one', 'cfg', '1'));
    f.configMaps.put(limits('two', 'cfg', '2'));
    f.configMaps.put(limits('again', 'cfg', '1'));
    const out = await f.run(twoKeys());
    expect(out.error).to.equal(undefined);
    expect(out.annotations).to.deep.equal({ 'p/limit': 'max 1, max 2' });
  });

  describe('variables', () => {
    it('are typed for later expressions, usable in validations and message expressions', async () => {
      const f = fixture({
        variables: [
          { name: 'keys', expression: 'size(object.data)' },
          { name: 'tooMany', expression: 'variables.keys > 1' },
        ],
        validations: [{ expression: '!variables.tooMany', messageExpression: "'has ' + string(variables.keys) + ' keys'" }],
      });
      expect((await f.run(twoKeys())).error?.message).to.match(/denied request: has 2 keys$/);
      expect((await f.run(createConfigMap('one', { a: '1' }))).error).to.equal(undefined);
    });

    it('an error of a variable is an error of the expression reading it; unread variables are not evaluated', async () => {
      const f = fixture({
        variables: [
          { name: 'bad', expression: 'object.metadata.nothing' },
          { name: 'good', expression: "object.metadata.name == 'cm'" },
        ],
        validations: [{ expression: 'variables.good', message: 'not cm' }, { expression: 'variables.bad == 1' }],
      });
      expect((await f.run(twoKeys())).error?.message).to.match(
        /denied request: expression 'variables.bad == 1' resulted in error: composited variable "bad" fails to evaluate: .*nothing/,
      );
      const g = fixture({ variables: [{ name: 'bad', expression: 'object.metadata.nothing' }], validations: [{ expression: 'true' }] });
      expect((await g.run(twoKeys())).error).to.equal(undefined);
    });
  });

  describe('errors and the failure policy', () => {
    it('a runtime error: Fail denies with upstream text, Ignore admits', async () => {
      const rule = { expression: "object.data.missing == 'x'" };
      const f = fixture({ validations: [rule] });
      expect((await f.run(twoKeys())).error?.message).to.match(/denied request: expression 'object\.data\.missing == 'x'' resulted in error: .*missing/);
      const g = fixture({ validations: [rule], failurePolicy: 'Ignore' });
      expect((await g.run(twoKeys())).error).to.equal(undefined);
    });

    it('an error decision follows the validation actions too: Warn only warns', async () => {
      const f = fixture({ validations: [{ expression: 'object.data.missing == 1' }] }, { validationActions: ['Warn'] });
      const out = await f.run(twoKeys());
      expect(out.error).to.equal(undefined);
      expect(out.warnings[0]).to.match(/^Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': expression 'object\.data\.missing == 1' resulted in error: /);
    });

    it('an expression over the per-call cost limit fails with upstream text', async () => {
      const list = `[${Array.from({ length: 120 }, (_, i) => i).join(',')}]`;
      const expensive = `${list}.all(x, ${list}.all(y, ${list}.all(z, x + y + z >= 0)))`;
      const f = fixture({ validations: [{ expression: expensive }] });
      expect((await f.run(twoKeys())).error?.message).to.contain(`resulted in error: operation cancelled: actual cost limit exceeded`);
    });

    it('expressions over the runtime budget of one evaluation: no further validations run', async () => {
      const list = `[${Array.from({ length: 30 }, (_, i) => i).join(',')}]`;
      const costly = { expression: `${list}.all(x, ${list}.all(y, x + y >= 0))` };
      const compiled = compilePolicy(policy('p', { validations: [costly, costly, costly] }), () => undefined, () => new FakeResource());
      const attrs = twoKeys();
      const matched = { group: '', version: 'v1', resource: 'configmaps', subresource: '', kind: 'ConfigMap', exact: true };
      const activation = admissionActivation({ attrs, matched, request: admissionRequestValue(attrs, matched, ''), namespaceObject: null });
      const one = (await validatePolicy(compiled, { activation, pending: () => false, budget: 1e9 })).decisions;
      expect(one.map((d) => d.action)).to.deep.equal(['admit', 'admit', 'admit']);
      const { decisions } = await validatePolicy(compiled, { activation, pending: () => false, budget: 15_000 });
      expect(decisions).to.deep.equal([{ action: 'deny', error: true, message: 'validation failed due to running out of cost budget, no further validation rules will be run' }]);
    });

    it('an audit annotation error denies under Fail regardless of the validation actions', async () => {
      const f = fixture({ auditAnnotations: [{ key: 'k', valueExpression: 'string(object.data.missing)' }] }, { validationActions: ['Audit'] });
      expect((await f.run(twoKeys())).error?.message).to.contain("denied request: expression 'string(object.data.missing)' resulted in error:");
    });
  });

  describe('what expressions see', () => {
    it('request, namespaceObject and oldObject', async () => {
      const f = fixture({
        validations: [
          { expression: "request.operation == 'UPDATE' && request.userInfo.username == 'alice' && request.kind.kind == 'ConfigMap'", message: 'request' },
          { expression: "namespaceObject.metadata.labels.env == 'prod'", message: 'namespace' },
          { expression: "oldObject.data.a == '0'", message: 'old' },
        ],
      });
      const attrs = { ...twoKeys(), operation: 'UPDATE' as const, oldObject: { metadata: { name: 'cm', namespace: 'default' }, data: { a: '0' } } };
      expect((await f.run(attrs)).error).to.equal(undefined);
      f.namespaces.put(namespaceObj('default', { env: 'dev' }));
      expect((await f.run(attrs)).error?.message).to.match(/denied request: namespace$/);
    });

    it('authorizer checks of the requesting user', async () => {
      const f = fixture({ validations: [{ expression: "authorizer.group('').resource('secrets').namespace('default').check('get').allowed()", message: 'cannot read secrets' }] });
      expect((await f.run(twoKeys())).error?.message).to.match(/cannot read secrets$/);
      f.authorizer.allowed.add('get /secrets');
      expect((await f.run(twoKeys())).error).to.equal(undefined);
      expect(f.authorizer.asked.at(-1)).to.deep.include({ verb: 'get', isResourceRequest: true, namespace: 'default', resource: 'secrets' });
      expect(f.authorizer.asked.at(-1)!.user.name).to.equal('alice');
    });

    it('authorizer checks inside a variable are resolved before the variable is kept', async () => {
      const f = fixture({
        variables: [{ name: 'canRead', expression: "authorizer.group('').resource('secrets').check('get').allowed()" }],
        validations: [{ expression: 'variables.canRead', message: 'cannot read secrets' }],
      });
      expect((await f.run(twoKeys())).error?.message).to.match(/cannot read secrets$/);
      f.authorizer.allowed.add('get /secrets');
      expect((await f.run(twoKeys())).error).to.equal(undefined);
    });
  });
});
