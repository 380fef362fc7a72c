/**
 * The variables of ValidatingAdmissionPolicy expressions against a real server (spec 000
 * § Expression language (CEL) in fields, spec 001 § Admission control; issue #20 with issue #13):
 * `oldObject`, `request`, `namespaceObject`, and `authorizer` — the server's real authorizer
 * chain, asked as the requesting user, so a decision flips when an RBAC binding is added — with
 * `authorizer.requestResource` naming the object the request addresses. (`object`, `params` and
 * `variables` are covered in validating-admission-policy.test.ts.) Requests are made by a
 * static-token user holding only the RBAC grants each test gives it.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import type { TestClient, TestResponse } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';

const AR = vendorGroup('admissionregistration');
const RBAC = vendorGroup('rbac.authorization');
const POLICIES = `/apis/${AR}/v1/validatingadmissionpolicies`;
const BINDINGS = `/apis/${AR}/v1/validatingadmissionpolicybindings`;
const expectStatus = (res: TestResponse, status: number) => expect(res.status, res.text).to.equal(status);
const configMaps = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;

describe('ValidatingAdmissionPolicy variables (spec 001 § Admission control; spec 000 § Expression language (CEL) in fields)', function () {
  this.timeout(30_000);
  const server = useTestServer({ tokens: 'vap-user-token,vap-user,uid-vap-user,vap-testers', admission: { plugins: ['NamespaceLifecycle', 'ValidatingAdmissionPolicy'] } });
  const admin = () => server().admin;
  let user: TestClient;
  let n = 0;

  before(async () => {
    user = admin().as({ token: 'vap-user-token' });
    const role = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'vap-cm-writer' }, rules: [{ verbs: ['get', 'create', 'update', 'patch'], apiGroups: [''], resources: ['configmaps'] }] };
    expectStatus(await admin().post(`/apis/${RBAC}/v1/clusterroles`, role), 201);
  });

  /** A fresh namespace labelled for test `id` where the user may write ConfigMaps (and nothing else). */
  async function namespace(id: string, labels: Record<string, string> = {}): Promise<string> {
    const name = `vapvar-${id}`;
    expectStatus(await admin().post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'vapvar-test': id, ...labels } } }), 201);
    await grant(name, 'cm-writer', { kind: 'ClusterRole', name: 'vap-cm-writer' });
    return name;
  }

  /** Binds `roleRef` to the user in `ns`. */
  async function grant(ns: string, name: string, roleRef: { kind: string; name: string }): Promise<void> {
    const binding = { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { namespace: ns, name }, roleRef: { apiGroup: RBAC, ...roleRef }, subjects: [{ kind: 'User', apiGroup: RBAC, name: 'vap-user' }] };
    expectStatus(await admin().post(`/apis/${RBAC}/v1/namespaces/${ns}/rolebindings`, binding), 201);
  }

  /** A Role in `ns` with one rule. */
  async function role(ns: string, name: string, rule: Record<string, unknown>): Promise<void> {
    expectStatus(await admin().post(`/apis/${RBAC}/v1/namespaces/${ns}/roles`, { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { namespace: ns, name }, rules: [rule] }), 201);
  }

  /** The policy `id` on CREATE/UPDATE of configmaps in namespaces labelled for `id`, bound with Deny. */
  async function policy(id: string, validations: object[]): Promise<void> {
    const spec = {
      matchConstraints: {
        resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }],
        namespaceSelector: { matchLabels: { 'vapvar-test': id } },
      },
      validations,
    };
    expectStatus(await admin().post(POLICIES, { apiVersion: `${AR}/v1`, kind: 'ValidatingAdmissionPolicy', metadata: { name: `vapvar-${id}` }, spec }), 201);
    const binding = { apiVersion: `${AR}/v1`, kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: `vapvar-${id}` }, spec: { policyName: `vapvar-${id}`, validationActions: ['Deny'] } };
    expectStatus(await admin().post(BINDINGS, binding), 201);
  }

  const cm = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

  /** Repeats `attempt` every 20 ms until `done` accepts its answer, for up to 5 s. */
  async function until(attempt: () => Promise<TestResponse>, done: (res: TestResponse) => boolean): Promise<TestResponse> {
    for (let i = 0; ; i++) {
      const res = await attempt();
      if (done(res)) return res;
      if (i >= 250) throw new Error(`not within 5 s: ${res.status} ${res.text}`);
      await sleep(20);
    }
  }
  const denied = (res: TestResponse) => res.status === 422;
  const probe = (ns: string, data: Record<string, string> = {}, labels: Record<string, string> = {}) => () => user.post(configMaps(ns), cm(`probe-${++n}`, data, labels));

  it('oldObject: null on create, the stored object on update', async () => {
    const ns = await namespace('old');
    await policy('old', [{ expression: "oldObject == null || !has(oldObject.data.locked) || object.data.locked == oldObject.data.locked", messageExpression: "'locked was ' + oldObject.data.locked" }]);
    await until(probe(ns, { locked: 'x' }), (r) => r.status === 201);
    // Wait until the policy is in force: an update of a probe that changes `locked` is denied.
    let last = '';
    const res = await until(async () => {
      last = `probe-${++n}`;
      expectStatus(await user.post(configMaps(ns), cm(last, { locked: 'a' })), 201);
      return user.put(`${configMaps(ns)}/${last}`, { ...(await user.get(`${configMaps(ns)}/${last}`)).body, data: { locked: 'b' } });
    }, denied);
    expect(res.body.message).to.equal(`configmaps "${last}" is forbidden: ValidatingAdmissionPolicy 'vapvar-old' with binding 'vapvar-old' denied request: locked was a`);
    const same = (await user.get(`${configMaps(ns)}/${last}`)).body;
    expectStatus(await user.put(`${configMaps(ns)}/${last}`, { ...same, data: { locked: 'a', other: '1' } }), 200);
  });

  it('request: the AdmissionRequest with the operation, resource, name, namespace and user', async () => {
    const ns = await namespace('req');
    await policy('req', [
      {
        expression: 'false',
        messageExpression:
          "request.operation + ' ' + request.resource.group + '/' + request.resource.version + '/' + request.resource.resource + ' ' + request.namespace + '/' + request.name + ' by ' + request.userInfo.username + ' in ' + request.userInfo.groups.join(',') + ' dryRun=' + string(request.dryRun) + ' kind=' + request.kind.kind",
      },
    ]);
    const res = await until(probe(ns), denied);
    expect(res.body.message, res.body.message).to.match(new RegExp(`denied request: CREATE /v1/configmaps ${ns}/probe-${n} by vap-user in vap-testers,system:authenticated dryRun=false kind=ConfigMap$`));
  });

  it('namespaceObject: the Namespace of the request, its labels readable', async () => {
    const ns = await namespace('nsobj', { tier: 'gold' });
    await policy('nsobj', [{ expression: "!has(object.data.tier) || object.data.tier == namespaceObject.metadata.labels['tier']", messageExpression: "'tier must be ' + namespaceObject.metadata.labels['tier'] + ' in ' + namespaceObject.metadata.name" }]);
    const res = await until(probe(ns, { tier: 'silver' }), denied);
    expect(res.body.message).to.match(new RegExp(`denied request: tier must be gold in ${ns}$`));
    expectStatus(await user.post(configMaps(ns), cm('gold-one', { tier: 'gold' })), 201);
  });

  it("authorizer: the server's authorizer chain asked as the requesting user; an RBAC binding flips the decision", async () => {
    const ns = await namespace('authz');
    await policy('authz', [{ expression: "authorizer.group('').resource('pods').namespace(request.namespace).check('create').allowed()", message: 'may not create pods' }]);
    const res = await until(probe(ns), denied);
    expect(res.body.message).to.match(/denied request: may not create pods$/);
    await role(ns, 'pod-creator', { verbs: ['create'], apiGroups: [''], resources: ['pods'] });
    await grant(ns, 'pod-creator', { kind: 'Role', name: 'pod-creator' });
    expectStatus(await until(probe(ns), (r) => r.status === 201), 201);
    // The admin (system:masters) passes the same check before any binding: the chain, not a fixed answer.
    const other = await namespace('authz-admin');
    await policy('authz-admin', [{ expression: "authorizer.group('').resource('pods').namespace(request.namespace).check('create').allowed()", message: 'may not create pods' }]);
    await until(probe(other), denied);
    expectStatus(await admin().post(configMaps(other), cm('by-admin')), 201);
  });

  it('authorizer.requestResource: a check of the very object the request addresses', async () => {
    const ns = await namespace('reqres');
    await policy('reqres', [{ expression: "authorizer.requestResource.check('delete').allowed()", messageExpression: "'may not delete ' + request.name" }]);
    const res = await until(probe(ns), denied);
    expect(res.body.message).to.match(new RegExp(`denied request: may not delete probe-${n}$`));
    await role(ns, 'deleter', { verbs: ['delete'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['deletable'] });
    await grant(ns, 'deleter', { kind: 'Role', name: 'deleter' });
    expectStatus(await until(() => user.post(configMaps(ns), cm('deletable')), (r) => r.status === 201), 201);
    expectStatus(await user.post(configMaps(ns), cm('not-deletable')), 422);
  });
});
