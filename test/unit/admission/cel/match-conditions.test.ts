import { expect } from 'chai';
import { admissionActivation, admissionRequestValue, namespaceObjectValue, objectInMatchedVersion } from '../../../../lib/admission/cel/activation.js';
import { compileMatchConditions } from '../../../../lib/admission/cel/match-conditions.js';
import type { MatchedResource } from '../../../../lib/admission/matching/rules.js';
import type { ServedResource } from '../../../../lib/admission/plugin-deps.js';
import { horizontalPodAutoscalerV1Conversion } from '../../../../lib/apis/autoscaling/v1/index.js';
import { authorizerValue, bindAuthorizer } from '../../../../lib/cel/index.js';
import { admissionAttrs } from '../attrs.js';

const USER = { name: 'alice', uid: 'u1', groups: ['devs'], extra: { scopes: ['a'] } };
const MATCHED: MatchedResource = { group: '', version: 'v1', resource: 'configmaps', subresource: '', kind: 'ConfigMap', exact: true };
const attrs = (labels: Record<string, string> = {}) =>
  admissionAttrs(USER, {
    resource: 'configmaps',
    kind: 'ConfigMap',
    namespace: 'ns',
    name: 'cm',
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels }, data: { k: 'v' } },
    options: { kind: 'CreateOptions', apiVersion: 'meta/v1' },
  });
const activation = (labels: Record<string, string> = {}, authorizer?: unknown) => {
  const a = attrs(labels);
  return admissionActivation({ attrs: a, matched: MATCHED, request: admissionRequestValue(a, MATCHED, ''), namespaceObject: null, authorizer });
};
const conditions = (...exprs: string[]) => exprs.map((expression, i) => ({ name: `c${i}`, expression }));

describe('admission match conditions (spec 001 § Admission control)', () => {
  it('matches when every condition holds, and when there are none', () => {
    expect(compileMatchConditions([], { params: false, authorizer: false }).evaluate(activation())).to.deep.equal({ matched: true });
    const m = compileMatchConditions(conditions("request.operation == 'CREATE'", "object.data.k == 'v'", 'oldObject == null'), { params: false, authorizer: false });
    expect(m.size).to.equal(3);
    expect(m.evaluate(activation())).to.deep.equal({ matched: true });
  });

  it('does not match when a condition is false, naming the first false one, even when another erred', () => {
    const m = compileMatchConditions(conditions('object.data.missing == 1', "request.name == 'other'", 'false'), { params: false, authorizer: false });
    expect(m.evaluate(activation())).to.deep.equal({ matched: false, failedCondition: 'c1' });
  });

  it('errs when no condition is false and one erred, in upstream wording', () => {
    const m = compileMatchConditions(conditions('true', 'object.data.missing == 1'), { params: false, authorizer: false });
    const r = m.evaluate(activation());
    expect(r).to.have.property('error').that.matches(/^expression 'object\.data\.missing == 1' resulted in error: .*missing/);
  });

  it('joins several errors as an aggregate', () => {
    const m = compileMatchConditions(conditions('object.data.a == 1', 'object.data.b == 1'), { params: false, authorizer: false });
    const r = m.evaluate(activation()) as { error: string };
    expect(r.error.startsWith("[expression 'object.data.a == 1' resulted in error: ")).to.equal(true);
    expect(r.error).to.include(", expression 'object.data.b == 1' resulted in error: ");
  });

  it('reports a condition that does not compile, or is not boolean, as an error of every evaluation', () => {
    expect(compileMatchConditions(conditions('object.'), { params: false, authorizer: false }).evaluate(activation())).to.have.property('error').that.matches(/^compilation error: compilation failed: ERROR: <input>:1:/);
    expect(compileMatchConditions(conditions("'text'"), { params: false, authorizer: false }).evaluate(activation())).to.deep.equal({ error: 'compilation error: must evaluate to bool' });
  });

  it('stops with the upstream message once the shared cost budget is spent', () => {
    const m = compileMatchConditions(conditions('[1,2,3,4,5,6,7,8,9,10].all(x, x > 0)', '[1,2,3,4,5,6,7,8,9,10].all(x, x > 0)'), { params: false, authorizer: false });
    expect(m.evaluate(activation(), 1_000_000)).to.deep.equal({ matched: true });
    expect(m.evaluate(activation(), 60)).to.deep.equal({ error: 'validation failed due to running out of cost budget, no further validation rules will be run' });
  });

  it('lets conditions use labels of the object, and params when the scope has them', () => {
    const m = compileMatchConditions(conditions("'app' in object.metadata.labels && object.metadata.labels.app == params.app"), { params: true, authorizer: false });
    const a = attrs({ app: 'web' });
    const act = admissionActivation({ attrs: a, matched: MATCHED, request: admissionRequestValue(a, MATCHED, ''), namespaceObject: null, params: { app: 'web' } });
    expect(m.evaluate(act)).to.deep.equal({ matched: true });
  });

  it('asks a synchronous authorizer, and a bound asynchronous one through evaluateAsync', async () => {
    const expr = "authorizer.group('apps').resource('deployments').namespace('ns').check('create').allowed()";
    const m = compileMatchConditions(conditions(expr), { params: false, authorizer: true });
    const sync = authorizerValue({ username: 'alice' }, (a) => ({ decision: a.group === 'apps' && a.verb === 'create' ? 'Allow' : 'Deny', reason: '' }));
    expect(m.evaluate(activation({}, sync))).to.deep.equal({ matched: true });
    const seen: string[] = [];
    const bound = bindAuthorizer(
      {
        async authorize(a) {
          seen.push(`${a.user?.username} ${a.verb} ${a.group}/${a.resource} in ${a.namespace}`);
          return { decision: 'Deny', reason: 'no' };
        },
      },
      { username: 'alice' },
    );
    expect(await m.evaluateAsync(activation({}, bound.value))).to.deep.equal({ matched: false, failedCondition: 'c0' });
    expect(seen).to.deep.equal(['alice create apps/deployments in ns']);
  });
});

describe('the admission activation (spec 001 § Admission control)', () => {
  it('describes the request as upstream AdmissionRequest fields, with zero values for empty ones', () => {
    const r = admissionRequestValue(attrs(), MATCHED, 'the-uid');
    expect(r).to.deep.equal({
      uid: 'the-uid',
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      subResource: '',
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      requestResource: { group: '', version: 'v1', resource: 'configmaps' },
      requestSubResource: '',
      name: 'cm',
      namespace: 'ns',
      operation: 'CREATE',
      userInfo: { username: 'alice', uid: 'u1', groups: ['devs'], extra: { scopes: ['a'] } },
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta/v1' },
    });
  });

  it('converts the objects to the matched version and leaves absent ones null', () => {
    const served = { conversion: horizontalPodAutoscalerV1Conversion } as ServedResource;
    const v2 = {
      apiVersion: `${horizontalPodAutoscalerV1Conversion.storageKind.apiVersion}`,
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 2, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
    };
    const matched: MatchedResource = { ...MATCHED, version: 'v1', served };
    const v1 = objectInMatchedVersion(v2, matched)!;
    expect(v1.apiVersion).to.equal(horizontalPodAutoscalerV1Conversion.servedKind.apiVersion);
    expect((v1.spec as Record<string, unknown>).targetCPUUtilizationPercentage).to.equal(50);
    expect(objectInMatchedVersion(null, matched)).to.equal(null);
    const a = admissionAttrs(USER, { operation: 'DELETE', oldObject: v2 });
    const act = admissionActivation({ attrs: a, matched, request: {}, namespaceObject: null });
    expect(act.object).to.equal(null);
    expect(((act.oldObject as Record<string, unknown>).spec as Record<string, unknown>).targetCPUUtilizationPercentage).to.equal(50);
    expect(act.params).to.equal(null);
    expect(act).to.not.have.property('authorizer');
  });

  it('shows a namespace without managed fields or owner references', () => {
    const ns = namespaceObjectValue({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { a: 'b' }, managedFields: [{}], ownerReferences: [{}] }, spec: { finalizers: ['x'] }, status: { phase: 'Active' } });
    expect(ns).to.deep.equal({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { a: 'b' } }, spec: { finalizers: ['x'] }, status: { phase: 'Active' } });
    expect(namespaceObjectValue(null)).to.equal(null);
  });
});
