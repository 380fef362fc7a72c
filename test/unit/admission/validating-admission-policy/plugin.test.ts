import { expect } from 'chai';
import { VALIDATION_FAILURE_ANNOTATION } from '../../../../lib/admission/plugins/validating-admission-policy/dispatch.js';
import { admissionAttrs } from '../attrs.js';
import { AR, binding, createConfigMap, Fixture, namespaceObj, policy, USER } from './fixture.js';

const NAME_RULE = { expression: "object.metadata.name.startsWith('ok')", message: 'name must start with ok' };

/** A fixture with namespace `default` and the policy `p` (spec `spec`) bound by `b` (spec `bindingSpec`). */
function withPolicy(spec: Record<string, unknown>, bindingSpec: Record<string, unknown> = {}): Fixture {
  const f = new Fixture();
  f.namespaces.put(namespaceObj('default', { env: 'prod' }));
  f.policies.put(policy('p', spec));
  f.bindings.put(binding('b', 'p', bindingSpec));
  return f;
}

describe('ValidatingAdmissionPolicy plugin (spec 001 § Admission control)', () => {
  describe('policies in force', () => {
    it('without bindings nothing is evaluated, a policy alone does nothing', async () => {
      const f = new Fixture();
      f.policies.put(policy('p', { validations: [{ expression: 'false' }] }));
      expect((await f.run(createConfigMap('x'))).error).to.equal(undefined);
      expect(f.namespaces.reads).to.equal(0);
    });

    it('a binding naming no existing policy does nothing', async () => {
      const f = new Fixture();
      f.bindings.put(binding('b', 'missing'));
      expect((await f.run(createConfigMap('x'))).error).to.equal(undefined);
    });

    it('requests on policies and bindings themselves are not validated', async () => {
      const f = withPolicy({
        matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] },
        validations: [{ expression: 'false' }],
      });
      const attrs = admissionAttrs(USER, { group: AR, resource: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy', name: 'q', object: policy('q', {}) });
      expect((await f.run(attrs)).error).to.equal(undefined);
      expect((await f.run(createConfigMap('x'))).error?.code).to.equal(422);
    });

    it('a new generation of the policy is compiled and in force; the same generation is not recompiled', async () => {
      const f = withPolicy({ validations: [{ expression: 'true' }] });
      expect((await f.run(createConfigMap('bad'))).error).to.equal(undefined);
      const uid = (f.policies.lister.get('', 'p')!.metadata as Record<string, unknown>).uid;
      const stale = policy('p', { validations: [NAME_RULE] }, 1);
      (stale.metadata as Record<string, unknown>).uid = uid;
      f.policies.put(stale);
      expect((await f.run(createConfigMap('bad'))).error, 'same uid and generation: the compiled policy is kept').to.equal(undefined);
      const next = policy('p', { validations: [NAME_RULE] }, 2);
      (next.metadata as Record<string, unknown>).uid = uid;
      f.policies.put(next);
      expect((await f.run(createConfigMap('bad'))).error?.message).to.contain('name must start with ok');
    });

    it('a removed binding takes the policy out of force', async () => {
      const f = withPolicy({ validations: [NAME_RULE] });
      expect((await f.run(createConfigMap('bad'))).error).to.not.equal(undefined);
      f.bindings.delete('', 'b');
      expect((await f.run(createConfigMap('bad'))).error).to.equal(undefined);
    });
  });

  describe('decisions', () => {
    it('Deny: 422 Invalid with upstream message, details and cause', async () => {
      const f = withPolicy({ validations: [NAME_RULE] });
      const { error } = await f.run(createConfigMap('bad'));
      const message = "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: name must start with ok";
      expect(error?.status).to.deep.equal({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `configmaps "bad" is forbidden: ${message}`,
        reason: 'Invalid',
        details: { name: 'bad', kind: 'configmaps', causes: [{ message }] },
        code: 422,
      });
      expect((await f.run(createConfigMap('ok-1'))).error).to.equal(undefined);
    });

    it('the reason sets the status code: Forbidden 403, RequestEntityTooLarge 413', async () => {
      for (const [reason, code] of [['Forbidden', 403], ['RequestEntityTooLarge', 413]] as const) {
        const f = withPolicy({ validations: [{ ...NAME_RULE, reason }] });
        const { error } = await f.run(createConfigMap('bad'));
        expect([error?.code, error?.reason]).to.deep.equal([code, reason]);
      }
    });

    it('without a message: `failed expression: <expression>`', async () => {
      const f = withPolicy({ validations: [{ expression: "  object.metadata.name == 'x'  " }] });
      expect((await f.run(createConfigMap('bad'))).error?.message).to.match(/denied request: failed expression: object\.metadata\.name == 'x'$/);
    });

    it('messageExpression gives the message; an empty, multi-line or failing one falls back to the message', async () => {
      const cases: Array<[string, string]> = [
        ["'name ' + object.metadata.name + ' is not allowed'", 'name bad is not allowed'],
        ["'  '", 'static'],
        ["'a\\nb'", 'static'],
        ["object.metadata.missing + 'x'", 'static'],
      ];
      for (const [messageExpression, want] of cases) {
        const f = withPolicy({ validations: [{ expression: 'false', message: 'static', messageExpression }] });
        expect((await f.run(createConfigMap('bad'))).error?.message, messageExpression).to.match(new RegExp(`denied request: ${want}$`));
      }
    });

    it('Warn adds a warning and admits; Audit records the failure annotation and admits', async () => {
      const f = withPolicy({ validations: [{ expression: 'true' }, NAME_RULE] }, { validationActions: ['Warn', 'Audit'] });
      const out = await f.run(createConfigMap('bad'));
      expect(out.error).to.equal(undefined);
      expect(out.warnings).to.deep.equal(["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': name must start with ok"]);
      expect(JSON.parse(out.annotations[VALIDATION_FAILURE_ANNOTATION]!)).to.deep.equal([
        { message: 'name must start with ok', policy: 'p', binding: 'b', expressionIndex: 1, validationActions: ['Warn', 'Audit'] },
      ]);
      expect(VALIDATION_FAILURE_ANNOTATION).to.match(/^validation\.policy\.admission\.[a-z]+\.io\/validation_failure$/);
    });

    it('the first denial, by policy name, is the rejection; warnings of every binding are kept', async () => {
      const f = new Fixture();
      f.namespaces.put(namespaceObj('default'));
      f.policies.put(policy('b-policy', { validations: [{ expression: 'false', message: 'from b' }] }));
      f.policies.put(policy('a-policy', { validations: [{ expression: 'false', message: 'from a' }] }));
      f.bindings.put(binding('z', 'b-policy'));
      f.bindings.put(binding('y', 'a-policy', { validationActions: ['Warn'] }));
      f.bindings.put(binding('x', 'a-policy'));
      const out = await f.run(createConfigMap('c'));
      expect(out.error?.message).to.contain("ValidatingAdmissionPolicy 'a-policy' with binding 'x' denied request: from a");
      expect(out.warnings).to.deep.equal(["Validation failed for ValidatingAdmissionPolicy 'a-policy' with binding 'y': from a"]);
    });

    it('audit annotations are published as <policy>/<key>, empty and null values left out', async () => {
      const f = withPolicy({
        auditAnnotations: [
          { key: 'name', valueExpression: "'cm: ' + object.metadata.name" },
          { key: 'empty', valueExpression: "' '" },
          { key: 'none', valueExpression: 'null' },
        ],
      });
      const out = await f.run(createConfigMap('c1'));
      expect(out.error).to.equal(undefined);
      expect(out.annotations).to.deep.equal({ 'p/name': 'cm: c1' });
    });
  });

  describe('matching', () => {
    it('the policy matches only its resource rules and operations; excluded resources never', async () => {
      const f = withPolicy({
        validations: [{ expression: 'false' }],
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          excludeResourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['configmaps'], resourceNames: ['skip'] }],
        },
      });
      expect((await f.run(createConfigMap('x'))).error?.code).to.equal(422);
      expect((await f.run(createConfigMap('skip'))).error).to.equal(undefined);
      expect((await f.run({ ...createConfigMap('x'), operation: 'DELETE', object: null })).error).to.equal(undefined);
      expect((await f.run(admissionAttrs(USER, { resource: 'secrets', namespace: 'default', name: 's', namespaced: true, object: {} }))).error).to.equal(undefined);
    });

    it("the binding's matchResources narrow the policy: object and namespace selectors", async () => {
      const f = withPolicy({ validations: [{ expression: 'false' }] }, { matchResources: { objectSelector: { matchLabels: { check: 'yes' } } } });
      f.namespaces.put(namespaceObj('dev', { env: 'dev' }));
      expect((await f.run(createConfigMap('x'))).error).to.equal(undefined);
      expect((await f.run(createConfigMap('x', {}, { labels: { check: 'yes' } }))).error?.code).to.equal(422);
      f.bindings.put(binding('b', 'p', { matchResources: { namespaceSelector: { matchLabels: { env: 'dev' } } } }));
      expect((await f.run(createConfigMap('x'))).error).to.equal(undefined);
      expect((await f.run(createConfigMap('x', {}, { ns: 'dev' }))).error?.code).to.equal(422);
    });

    it('a namespace selector over a namespace that does not exist is an error of the failure policy', async () => {
      const f = withPolicy({ validations: [{ expression: 'true' }], matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['configmaps'] }], namespaceSelector: { matchLabels: { a: 'b' } } } });
      expect((await f.run(createConfigMap('x', {}, { ns: 'gone' }))).error?.message).to.contain(`ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: namespaces "gone" not found`);
    });

    it('matchConditions: a false condition skips the policy; an error is decided by the failure policy', async () => {
      const f = withPolicy({ matchConditions: [{ name: 'only-labelled', expression: "has(object.metadata.labels) && 'check' in object.metadata.labels" }], validations: [{ expression: 'false' }] });
      expect((await f.run(createConfigMap('x'))).error).to.equal(undefined);
      expect((await f.run(createConfigMap('x', {}, { labels: { check: '1' } }))).error?.code).to.equal(422);
      const g = withPolicy({ matchConditions: [{ name: 'boom', expression: 'object.metadata.nothing == 1' }], validations: [{ expression: 'true' }] });
      expect((await g.run(createConfigMap('x'))).error?.message).to.contain("denied request: expression 'object.metadata.nothing == 1' resulted in error: ");
    });
  });
});
