/**
 * ValidatingAdmissionPolicy against a real server (spec 001 § Admission control, § Limits):
 * policies act through bindings with Deny and Warn; parameters by name, selector and namespace
 * with parameterNotFoundAction; match conditions, variables, message expressions; the failure
 * policy on an unserved paramKind and on runtime errors; the per-call cost limit; type checking
 * into status.typeChecking; changes in force within a second. Each test works in its own
 * namespace, selected by the policy's namespace selector, so the policies do not meet.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import type { TestResponse } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';

const AR = vendorGroup('admissionregistration');
const POLICIES = `/apis/${AR}/v1/validatingadmissionpolicies`;
const BINDINGS = `/apis/${AR}/v1/validatingadmissionpolicybindings`;
const expectStatus = (res: TestResponse, status: number) => expect(res.status, res.text).to.equal(status);
const configMaps = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;

describe('ValidatingAdmissionPolicy against a real server (spec 001 § Admission control)', function () {
  this.timeout(30_000);
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'ValidatingAdmissionPolicy'] }, controllers: ['validatingadmissionpolicy-status-controller'] });
  const admin = () => server().admin;
  let n = 0;

  /** A fresh namespace labelled for test `id`. */
  async function namespace(id: string, labels: Record<string, string> = {}): Promise<string> {
    const name = `vap-${id}`;
    expectStatus(await admin().post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'vap-test': id, ...labels } } }), 201);
    return name;
  }

  /** Creates the policy `id` (matching CREATE/UPDATE of configmaps in namespaces labelled for `id`) and its binding. */
  async function policyAndBinding(id: string, spec: Record<string, unknown>, bindingSpec: Record<string, unknown> = {}): Promise<void> {
    const policy = {
      apiVersion: `${AR}/v1`,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: id },
      spec: {
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }],
          namespaceSelector: { matchLabels: { 'vap-test': id } },
        },
        ...spec,
      },
    };
    expectStatus(await admin().post(POLICIES, policy), 201);
    const binding = { apiVersion: `${AR}/v1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: `${id}-binding` }, spec: { policyName: id, validationActions: ['Deny'], ...bindingSpec } };
    expectStatus(await admin().post(BINDINGS, binding), 201);
  }

  const cm = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

  /** Creates ConfigMaps (fresh names) in `ns` every 20 ms until `done` accepts the answer, for up to 5 s. */
  async function createUntil(ns: string, body: (name: string) => object, done: (res: TestResponse) => boolean): Promise<TestResponse> {
    for (let i = 0; ; i++) {
      const res = await admin().post(configMaps(ns), body(`probe-${++n}`));
      if (done(res)) return res;
      if (i >= 250) throw new Error(`not within 5 s: ${res.status} ${res.text}`);
      await sleep(20);
    }
  }
  const denied = (res: TestResponse) => res.status !== 201;

  it('Deny: a failed validation rejects with upstream status; a passing object is created', async () => {
    const ns = await namespace('deny');
    await policyAndBinding('deny', { validations: [{ expression: "object.metadata.name.startsWith('ok-') || object.metadata.name.startsWith('probe-x')", message: 'names start with ok-' }] });
    const res = await createUntil(ns, (name) => cm(name), denied);
    const message = "ValidatingAdmissionPolicy 'deny' with binding 'deny-binding' denied request: names start with ok-";
    expectStatus(res, 422);
    expect(res.body).to.deep.equal({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `configmaps "probe-${n}" is forbidden: ${message}`,
      reason: 'Invalid',
      details: { name: `probe-${n}`, kind: 'configmaps', causes: [{ message }] },
      code: 422,
    });
    expectStatus(await admin().post(configMaps(ns), cm('ok-1')), 201);
  });

  it('Warn: the object is created with a Warning header', async () => {
    const ns = await namespace('warn');
    await policyAndBinding('warn', { validations: [{ expression: 'size(object.data) <= 1', reason: 'Forbidden', messageExpression: "'too many keys: ' + string(size(object.data))" }] }, { validationActions: ['Warn'] });
    const res = await createUntil(ns, (name) => cm(name, { a: '1', b: '2' }), (r) => r.headers.warning !== undefined);
    expectStatus(res, 201);
    expect(res.headers.warning).to.equal(`299 - "Validation failed for ValidatingAdmissionPolicy 'warn' with binding 'warn-binding': too many keys: 2"`);
  });

  it('params: by name in the request namespace, parameterNotFoundAction Deny; by selector in a given namespace; the parameter itself excluded by name', async () => {
    const ns = await namespace('params');
    const rule = { expression: 'size(object.data) <= int(params.data.max)', messageExpression: "'at most ' + params.data.max + ' keys'" };
    const configMapRule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] };
    const notTheParams = {
      resourceRules: [configMapRule],
      excludeResourceRules: [{ ...configMapRule, resourceNames: ['limits'] }],
      namespaceSelector: { matchLabels: { 'vap-test': 'params' } },
    };
    await policyAndBinding('params', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: notTheParams, validations: [rule] }, { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } });
    const missing = await createUntil(ns, (name) => cm(name, { a: '1' }), denied);
    expect(missing.body.message).to.contain("denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction");
    expectStatus(await admin().post(configMaps(ns), cm('limits', { max: '1' })), 201);
    const tooMany = await createUntil(ns, (name) => cm(name, { a: '1', b: '2' }), (r) => r.status === 422 && r.body.message.includes('at most 1 keys'));
    expect(tooMany.body.message).to.match(/denied request: at most 1 keys$/);
    expectStatus(await admin().post(configMaps(ns), cm('small', { a: '1' })), 201);

    const ns2 = await namespace('selector');
    await policyAndBinding('selector', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [rule] }, { paramRef: { selector: { matchLabels: { role: 'limit' } }, namespace: ns, parameterNotFoundAction: 'Allow' } });
    expectStatus(await admin().post(configMaps(ns2), cm('before-any-param', { a: '1', b: '2', c: '3' })), 201);
    expectStatus(await admin().post(configMaps(ns), cm('sel-limit', { max: '2' }, { role: 'limit' })), 201);
    const selected = await createUntil(ns2, (name) => cm(name, { a: '1', b: '2', c: '3' }), denied);
    expect(selected.body.message).to.match(/denied request: at most 2 keys$/);
  });

  it('matchConditions select the requests; variables and messageExpression build the message', async () => {
    const ns = await namespace('vars');
    await policyAndBinding('vars', {
      matchConditions: [{ name: 'labelled', expression: "has(object.metadata.labels) && 'checked' in object.metadata.labels" }],
      variables: [{ name: 'keys', expression: 'size(object.data)' }],
      validations: [{ expression: 'variables.keys < 2', messageExpression: "'found ' + string(variables.keys) + ' keys in ' + object.metadata.name" }],
    });
    const res = await createUntil(ns, (name) => cm(name, { a: '1', b: '2' }, { checked: 'yes' }), denied);
    expect(res.body.message).to.match(new RegExp(`denied request: found 2 keys in probe-${n}$`));
    expectStatus(await admin().post(configMaps(ns), cm('unlabelled', { a: '1', b: '2' })), 201);
  });

  it('failurePolicy: an unserved paramKind fails the policy under Fail and is ignored under Ignore', async () => {
    const ns = await namespace('badkind');
    const spec = { paramKind: { apiVersion: 'example.com/v1', kind: 'Missing' }, validations: [{ expression: 'false' }] };
    await policyAndBinding('badkind', spec, { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } });
    const res = await createUntil(ns, (name) => cm(name), denied);
    expectStatus(res, 422);
    expect(res.body.message).to.equal(
      `configmaps "probe-${n}" is forbidden: ValidatingAdmissionPolicy 'badkind' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Missing'`,
    );
    const current = (await admin().get(`${POLICIES}/badkind`)).body;
    expectStatus(await admin().put(`${POLICIES}/badkind`, { ...current, spec: { ...current.spec, failurePolicy: 'Ignore' } }), 200);
    expectStatus(await createUntil(ns, (name) => cm(name), (r) => r.status === 201), 201);
  });

  it('failurePolicy on a runtime error: Fail rejects with the error, Ignore admits', async () => {
    const ns = await namespace('runtime');
    await policyAndBinding('runtime', { validations: [{ expression: "object.data.required == 'yes'" }] });
    const res = await createUntil(ns, (name) => cm(name, { other: '1' }), denied);
    expect(res.body.message).to.match(/denied request: expression 'object\.data\.required == 'yes'' resulted in error: .*required/);
    expectStatus(await admin().post(configMaps(ns), cm('has-it', { required: 'yes' })), 201);
    const current = (await admin().get(`${POLICIES}/runtime`)).body;
    expectStatus(await admin().put(`${POLICIES}/runtime`, { ...current, spec: { ...current.spec, failurePolicy: 'Ignore' } }), 200);
    expectStatus(await createUntil(ns, (name) => cm(name, { other: '1' }), (r) => r.status === 201), 201);
  });

  it('an expression over the per-call cost limit is an error of the policy', async () => {
    const ns = await namespace('cost');
    const list = `[${Array.from({ length: 120 }, (_, i) => i).join(',')}]`;
    await policyAndBinding('cost', { validations: [{ expression: `${list}.all(x, ${list}.all(y, ${list}.all(z, x + y + z >= 0)))` }] });
    const res = await createUntil(ns, (name) => cm(name), denied);
    expect(res.body.message).to.contain('resulted in error: operation cancelled: actual cost limit exceeded');
  });

  it('status.typeChecking: warnings for a type error, observedGeneration of the checked generation', async () => {
    await policyAndBinding('typed', {
      matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] },
      validations: [{ expression: 'object.replicas > 1' }, { expression: 'object.spec.replicas > 1' }],
    });
    let status: Record<string, unknown> | undefined;
    for (let i = 0; i < 250 && !status?.typeChecking; i++) {
      status = (await admin().get(`${POLICIES}/typed`)).body.status;
      if (!status?.typeChecking) await sleep(20);
    }
    expect(status?.observedGeneration).to.equal(1);
    const warnings = (status?.typeChecking as { expressionWarnings: Array<{ fieldRef: string; warning: string }> }).expressionWarnings;
    expect(warnings.map((w) => w.fieldRef)).to.deep.equal(['spec.validations[0].expression']);
    expect(warnings[0]!.warning).to.match(/^apps\/v1, Kind=Deployment: ERROR: <input>:1:\d+: undefined field 'replicas'\n \| object\.replicas > 1\n \| \.+\^\n$/);

    const current = (await admin().get(`${POLICIES}/typed`)).body;
    const fixed = { ...current, spec: { ...current.spec, validations: [{ expression: 'object.spec.replicas > 1' }] } };
    expectStatus(await admin().put(`${POLICIES}/typed`, fixed), 200);
    for (let i = 0; i < 250 && status?.observedGeneration !== 2; i++) {
      status = (await admin().get(`${POLICIES}/typed`)).body.status;
      if (status?.observedGeneration !== 2) await sleep(20);
    }
    expect(status).to.deep.include({ observedGeneration: 2, typeChecking: {} });
  });

  it('a binding or policy change is in force within a second', async () => {
    const ns = await namespace('change');
    await policyAndBinding('change', { validations: [{ expression: 'false', message: 'first' }] });
    await createUntil(ns, (name) => cm(name), denied);

    const binding = (await admin().get(`${BINDINGS}/change-binding`)).body;
    expectStatus(await admin().put(`${BINDINGS}/change-binding`, { ...binding, spec: { ...binding.spec, validationActions: ['Warn'] } }), 200);
    let t0 = Date.now();
    await createUntil(ns, (name) => cm(name), (r) => r.status === 201);
    expect(Date.now() - t0).to.be.below(1000);

    const policy = (await admin().get(`${POLICIES}/change`)).body;
    expectStatus(await admin().put(`${POLICIES}/change`, { ...policy, spec: { ...policy.spec, validations: [{ expression: 'true' }] } }), 200);
    t0 = Date.now();
    await createUntil(ns, (name) => cm(name), (r) => r.status === 201 && r.headers.warning === undefined);
    expect(Date.now() - t0).to.be.below(1000);

    expectStatus(await admin().delete(`${BINDINGS}/change-binding`), 200);
    expectStatus(await admin().put(`${POLICIES}/change`, { ...(await admin().get(`${POLICIES}/change`)).body, spec: { ...policy.spec, validations: [{ expression: 'false' }] } }), 200);
    await sleep(300);
    expectStatus(await admin().post(configMaps(ns), cm('unbound')), 201);
  });
});
