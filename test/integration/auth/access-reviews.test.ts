/**
 * The access reviews against a real server (spec 001 § Access-review resources; issue #11 item
 * 9): SelfSubjectAccessReview, SubjectAccessReview, LocalSubjectAccessReview and
 * SelfSubjectRulesReview, answered by the server's own authorizer chain (RBAC over a Role and
 * RoleBinding the test creates), with upstream v1.30's validation messages.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestClient } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const TOKENS = ['alice-token,alice,uid-alice,devs', 'node-token,system:node:n1,uid-node,system:nodes'].join('\n');
const NS = 'reviews';
const AUTHZ = '/apis/authorization.orch.io/v1';
const RBAC = '/apis/rbac.authorization.orch.io/v1';

/** Resource attributes of a question. */
function ra(verb: string, resource: string, extra: Record<string, string> = {}) {
  return { namespace: NS, verb, resource, ...extra };
}

/** POSTs a review of `kind` to `path` as `client`, expecting 201; returns its status. */
async function review(client: TestClient, path: string, kind: string, spec: Record<string, unknown>, opts: { token?: string } = {}) {
  const res = await client.post(path, { apiVersion: 'authorization.orch.io/v1', kind, spec }, opts.token ? { creds: { token: opts.token } } : {});
  expect(res.status, res.text).to.equal(201);
  return res.body;
}

describe('access reviews (spec 001 § Access-review resources; issue #11 item 9)', () => {
  const server = useTestServer({ tokens: TOKENS });
  const admin = () => server().admin;
  const alice = { token: 'alice-token' };

  before(async () => {
    expect((await admin().post('/api/v1/namespaces', { metadata: { name: NS } })).status).to.equal(201);
    const role = { metadata: { name: 'pod-lister' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }, { apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['cm1'] }] };
    expect((await admin().post(`${RBAC}/namespaces/${NS}/roles`, role)).status).to.equal(201);
    const binding = { metadata: { name: 'alice-pod-lister' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'pod-lister' }, subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'alice' }] };
    expect((await admin().post(`${RBAC}/namespaces/${NS}/rolebindings`, binding)).status).to.equal(201);
    // The binding reaches RBAC's cache through its informer.
    for (let i = 0; i < 100; i++) {
      const s = await review(admin(), `${AUTHZ}/subjectaccessreviews`, 'SubjectAccessReview', { resourceAttributes: ra('list', 'pods'), user: 'alice' });
      if (s.status.allowed) break;
      await sleep(50);
    }
  });

  describe('SelfSubjectAccessReview', () => {
    it('answers allowed for the admin (system:masters), with no reason, as upstream', async () => {
      const r = await review(admin(), `${AUTHZ}/selfsubjectaccessreviews`, 'SelfSubjectAccessReview', { resourceAttributes: ra('create', 'pods') });
      expect(r.status).to.deep.equal({ allowed: true });
      expect(r.metadata).to.deep.equal({ creationTimestamp: null });
    });

    it('answers allowed for an action a token user holds, with RBAC\'s reason', async () => {
      const r = await review(admin(), `${AUTHZ}/selfsubjectaccessreviews`, 'SelfSubjectAccessReview', { resourceAttributes: ra('list', 'pods') }, alice);
      expect(r.status).to.deep.equal({ allowed: true, reason: `RBAC: allowed by RoleBinding "alice-pod-lister/${NS}" of Role "pod-lister" to User "alice"` });
    });

    it('answers not allowed (and not denied: no mode had an opinion) for an action the user lacks', async () => {
      const r = await review(admin(), `${AUTHZ}/selfsubjectaccessreviews`, 'SelfSubjectAccessReview', { resourceAttributes: ra('get', 'pods', { name: 'p' }) }, alice);
      expect(r.status).to.deep.equal({ allowed: false });
    });

    it('asks about the impersonated user when the admin impersonates', async () => {
      const res = await admin().post(
        `${AUTHZ}/selfsubjectaccessreviews`,
        { apiVersion: 'authorization.orch.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: ra('delete', 'pods', { name: 'p' }) } },
        { headers: { 'Impersonate-User': 'alice' } },
      );
      expect(res.status, res.text).to.equal(201);
      expect(res.body.status).to.deep.equal({ allowed: false });
    });

    it('checks non-resource paths: discovery is allowed to any authenticated user, /metrics is not', async () => {
      const api = await review(admin(), `${AUTHZ}/selfsubjectaccessreviews`, 'SelfSubjectAccessReview', { nonResourceAttributes: { path: '/apis', verb: 'get' } }, alice);
      expect(api.status.allowed).to.equal(true);
      const metrics = await review(admin(), `${AUTHZ}/selfsubjectaccessreviews`, 'SelfSubjectAccessReview', { nonResourceAttributes: { path: '/metrics', verb: 'get' } }, alice);
      expect(metrics.status).to.deep.equal({ allowed: false });
    });

    it('honours resourceNames: get of the named config map only', async () => {
      const named = await review(admin(), `${AUTHZ}/selfsubjectaccessreviews`, 'SelfSubjectAccessReview', { resourceAttributes: ra('get', 'configmaps', { name: 'cm1' }) }, alice);
      const other = await review(admin(), `${AUTHZ}/selfsubjectaccessreviews`, 'SelfSubjectAccessReview', { resourceAttributes: ra('get', 'configmaps', { name: 'cm2' }) }, alice);
      expect([named.status.allowed, other.status.allowed]).to.deep.equal([true, false]);
    });

    it('is served under the upstream alias, answering in that spelling; an alias group in the question means the vendor group', async () => {
      const res = await admin().post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: ra('create', 'roles', { group: 'rbac.authorization.k8s.io' }) },
      });
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview' });
      expect(res.body.status.allowed).to.equal(true);
    });

    it('rejects a review with neither attribute set: 422 with upstream\'s message', async () => {
      const res = await admin().post(`${AUTHZ}/selfsubjectaccessreviews`, { apiVersion: 'authorization.orch.io/v1', kind: 'SelfSubjectAccessReview', spec: {} });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.equal('.authorization.orch.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified');
      expect(res.body.details).to.deep.equal({
        group: 'authorization.orch.io',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified', field: 'spec.resourceAttributes' }],
      });
    });

    it('rejects a review with both attribute sets', async () => {
      const res = await admin().post(`${AUTHZ}/selfsubjectaccessreviews`, {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: ra('get', 'pods'), nonResourceAttributes: { path: '/x', verb: 'get' } },
      });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.equal(
        '.authorization.orch.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
      );
    });

    it('rejects metadata other than empty', async () => {
      const res = await admin().post(`${AUTHZ}/selfsubjectaccessreviews`, {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'SelfSubjectAccessReview',
        metadata: { name: 'x' },
        spec: { resourceAttributes: ra('get', 'pods') },
      });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.match(/^\.authorization\.orch\.io "" is invalid: metadata: Invalid value: v1\.ObjectMeta\{Name:"x", GenerateName:"", Namespace:"", .*\}: must be empty$/);
    });
  });

  describe('SubjectAccessReview', () => {
    it(`answers for another user, as given (no group added)${covers('000 § Resource operations › Virtual permission check')}`, async () => {
      const list = await review(admin(), `${AUTHZ}/subjectaccessreviews`, 'SubjectAccessReview', { resourceAttributes: ra('list', 'pods'), user: 'alice' });
      expect(list.status.allowed).to.equal(true);
      expect(list.spec).to.deep.equal({ resourceAttributes: ra('list', 'pods'), user: 'alice' });
      const watch = await review(admin(), `${AUTHZ}/subjectaccessreviews`, 'SubjectAccessReview', { resourceAttributes: ra('watch', 'pods'), user: 'alice' });
      expect(watch.status).to.deep.equal({ allowed: false });
      // Without system:authenticated the discovery paths are not granted.
      const api = await review(admin(), `${AUTHZ}/subjectaccessreviews`, 'SubjectAccessReview', { nonResourceAttributes: { path: '/api', verb: 'get' }, user: 'alice' });
      expect(api.status.allowed).to.equal(false);
      const withGroup = await review(admin(), `${AUTHZ}/subjectaccessreviews`, 'SubjectAccessReview', { nonResourceAttributes: { path: '/api', verb: 'get' }, user: 'alice', groups: ['system:authenticated'] });
      expect(withGroup.status.allowed).to.equal(true);
    });

    it('is forbidden to a user without the permission, with the upstream 403 message', async () => {
      const res = await admin().post(`${AUTHZ}/subjectaccessreviews`, { apiVersion: 'authorization.orch.io/v1', kind: 'SubjectAccessReview', spec: { resourceAttributes: ra('get', 'pods'), user: 'bob' } }, { creds: alice });
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('subjectaccessreviews.authorization.orch.io is forbidden: User "alice" cannot create resource "subjectaccessreviews" in API group "authorization.orch.io" at the cluster scope');
    });

    it('rejects a review with no attributes and no subject, listing both errors as upstream', async () => {
      const res = await admin().post(`${AUTHZ}/subjectaccessreviews`, { apiVersion: 'authorization.orch.io/v1', kind: 'SubjectAccessReview', spec: {} });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.equal(
        '.authorization.orch.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
      );
    });

    it('answers the upstream alias spelling of the 422 group', async () => {
      const res = await admin().post('/apis/authorization.k8s.io/v1/subjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { resourceAttributes: ra('get', 'pods') } });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.equal('.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified');
    });

    it(`is not served namespaced, nor readable (create-only)${covers('000 § Terms › Virtual resource type')}`, async () => {
      expect((await admin().post(`${AUTHZ}/namespaces/${NS}/subjectaccessreviews`, { apiVersion: 'authorization.orch.io/v1', kind: 'SubjectAccessReview', spec: {} })).status).to.equal(404);
      const get = await admin().get(`${AUTHZ}/subjectaccessreviews`);
      expect(get.status).to.equal(405);
    });
  });

  describe('LocalSubjectAccessReview', () => {
    it('answers in the namespace it is created in', async () => {
      const r = await review(admin(), `${AUTHZ}/namespaces/${NS}/localsubjectaccessreviews`, 'LocalSubjectAccessReview', { resourceAttributes: ra('list', 'pods'), user: 'alice' });
      expect(r.metadata).to.deep.equal({ namespace: NS, creationTimestamp: null });
      expect(r.status.allowed).to.equal(true);
    });

    it('rejects attributes naming another namespace: 422 must match metadata.namespace', async () => {
      const res = await admin().post(`${AUTHZ}/namespaces/${NS}/localsubjectaccessreviews`, {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'LocalSubjectAccessReview',
        spec: { resourceAttributes: { ...ra('list', 'pods'), namespace: 'other' }, user: 'alice' },
      });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.equal('.authorization.orch.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace');
    });

    it('rejects a body naming another namespace than the path: 400', async () => {
      const res = await admin().post(`${AUTHZ}/namespaces/${NS}/localsubjectaccessreviews`, {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'LocalSubjectAccessReview',
        metadata: { namespace: 'other' },
        spec: { resourceAttributes: ra('list', 'pods'), user: 'alice' },
      });
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('the namespace of the provided object does not match the namespace sent on the request');
    });

    it('rejects non-resource attributes', async () => {
      const res = await admin().post(`${AUTHZ}/namespaces/${NS}/localsubjectaccessreviews`, {
        apiVersion: 'authorization.orch.io/v1',
        kind: 'LocalSubjectAccessReview',
        spec: { nonResourceAttributes: { path: '/api', verb: 'get' }, user: 'alice' },
      });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.equal('.authorization.orch.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/api", Verb:"get"}: disallowed on this kind of request');
    });
  });

  describe('SelfSubjectRulesReview', () => {
    it('lists the rules the user holds in the namespace, complete under RBAC', async () => {
      const r = await review(admin(), `${AUTHZ}/selfsubjectrulesreviews`, 'SelfSubjectRulesReview', { namespace: NS }, alice);
      expect(r.spec).to.deep.equal({});
      expect(r.status.incomplete).to.equal(false);
      expect(r.status.resourceRules).to.deep.include({ verbs: ['list'], apiGroups: [''], resources: ['pods'] });
      expect(r.status.resourceRules).to.deep.include({ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cm1'] });
      expect(r.status).to.not.have.property('evaluationError');
    });

    it('does not list a namespace\'s Role rules in another namespace', async () => {
      const r = await review(admin(), `${AUTHZ}/selfsubjectrulesreviews`, 'SelfSubjectRulesReview', { namespace: 'default' }, alice);
      expect(r.status.resourceRules).to.not.deep.include({ verbs: ['list'], apiGroups: [''], resources: ['pods'] });
    });

    it('is incomplete, with the evaluation error, for a mode that cannot list rules (Node, for a node)', async () => {
      const r = await review(admin(), `${AUTHZ}/selfsubjectrulesreviews`, 'SelfSubjectRulesReview', { namespace: NS }, { token: 'node-token' });
      expect(r.status.incomplete).to.equal(true);
      expect(r.status.evaluationError).to.equal('node authorizer does not support user rule resolution');
    });

    it('needs a namespace: 400 no namespace on request', async () => {
      const res = await admin().post(`${AUTHZ}/selfsubjectrulesreviews`, { apiVersion: 'authorization.orch.io/v1', kind: 'SelfSubjectRulesReview', spec: {} });
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('no namespace on request');
    });
  });

  it('the group is in discovery with its four create-only resources', async () => {
    const res = await admin().get(AUTHZ);
    expect(res.status).to.equal(200);
    expect(res.body.resources.map((r: { name: string; namespaced: boolean; verbs: string[] }) => [r.name, r.namespaced, r.verbs])).to.deep.equal([
      ['localsubjectaccessreviews', true, ['create']],
      ['selfsubjectaccessreviews', false, ['create']],
      ['selfsubjectrulesreviews', false, ['create']],
      ['subjectaccessreviews', false, ['create']],
    ]);
    const groups = await admin().get('/apis');
    expect(groups.body.groups.map((g: { name: string }) => g.name)).to.include.members(['authorization.orch.io', 'authorization.k8s.io']);
  });
});
