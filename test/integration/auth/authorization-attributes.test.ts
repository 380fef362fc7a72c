/**
 * Request attributes, verbs and 403 messages seen through real authorization decisions (spec 001
 * § Authorization, § Errors; spec 000 § Verb mapping; issue #11 item 1): token users each granted
 * one verb on config maps by a Role, so that every HTTP form reaches RBAC as the verb upstream
 * names it; dry-run authorized as the real request; the 403 texts byte for byte.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const USERS = ['get', 'list', 'watch', 'create', 'delete', 'deletecollection', 'named'];
const TOKENS = [...USERS.map((u) => `${u}-token,${u}-user,uid-${u},testers`), 'broken-token,broken-user,uid-broken,testers'].join('\n');
const NS = 'verbs';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const RBAC = '/apis/rbac.authorization.orch.io/v1';

const as = (user: string) => ({ creds: { token: `${user}-token` } });

describe('authorization attributes and 403 messages (spec 001 § Authorization, § Errors; spec 000 § Verb mapping)', () => {
  const server = useTestServer({ tokens: TOKENS });
  const admin = () => server().admin;

  before(async () => {
    expect((await admin().post('/api/v1/namespaces', { metadata: { name: NS } })).status).to.equal(201);
    expect((await admin().post(CM, { metadata: { name: 'cm1' }, data: { a: '1' } })).status).to.equal(201);
    for (const verb of USERS) {
      const rule = verb === 'named' ? { apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['cm1'] } : { apiGroups: [''], resources: ['configmaps'], verbs: [verb] };
      expect((await admin().post(`${RBAC}/namespaces/${NS}/roles`, { metadata: { name: verb }, rules: [rule] })).status).to.equal(201);
      const binding = { metadata: { name: verb }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: verb }, subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: `${verb}-user` }] };
      expect((await admin().post(`${RBAC}/namespaces/${NS}/rolebindings`, binding)).status).to.equal(201);
    }
    const broken = { metadata: { name: 'broken' }, roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'missing' }, subjects: [{ apiGroup: 'rbac.authorization.orch.io', kind: 'User', name: 'broken-user' }] };
    expect((await admin().post(`${RBAC}/namespaces/${NS}/rolebindings`, broken)).status).to.equal(201);
    // Every binding reaches RBAC's cache through its informer.
    for (let i = 0; i < 100 && (await admin().get(CM, as('list'))).status !== 200; i++) await sleep(50);
    for (let i = 0; i < 100 && (await admin().get(`${CM}/cm1`, as('named'))).status !== 200; i++) await sleep(50);
  });

  const forbidden = (verb: string, what: string, user: string) => `${what} is forbidden: User "${user}-user" cannot ${verb} resource "configmaps" in API group "" in the namespace "${NS}"`;

  describe('GET and HEAD: get on an object, list on a collection, watch with ?watch or /watch/', () => {
    it('a user granted get reads an object, not the collection', async () => {
      expect((await admin().get(`${CM}/cm1`, as('get'))).status).to.equal(200);
      const list = await admin().get(CM, as('get'));
      expect(list.status).to.equal(403);
      expect(list.body.message).to.equal(forbidden('list', 'configmaps', 'get'));
    });

    it(`a user granted list lists, but may not get an object (GET or HEAD) nor watch${covers('000 § Verb mapping › GET or HEAD')}`, async () => {
      expect((await admin().get(CM, as('list'))).status).to.equal(200);
      const get = await admin().get(`${CM}/cm1`, as('list'));
      expect(get.status).to.equal(403);
      expect(get.body.message).to.equal(forbidden('get', 'configmaps "cm1"', 'list'));
      expect((await admin().request('HEAD', `${CM}/cm1`, as('list'))).status).to.equal(403);
      expect((await admin().request('HEAD', CM, as('list'))).status).to.equal(200);
      const watch = await admin().get(`${CM}?watch=true`, as('list'));
      expect(watch.status).to.equal(403);
      expect(watch.body.message).to.equal(forbidden('watch', 'configmaps', 'list'));
    });

    it('a user granted watch watches (query and legacy /watch/ prefix), but may not list', async () => {
      for (const path of [`${CM}?watch=1`, `/api/v1/watch/namespaces/${NS}/configmaps`]) {
        const w = await admin().rawStream(path, as('watch'));
        expect(w.status, path).to.equal(200);
        w.close();
      }
      const list = await admin().get(CM, as('watch'));
      expect(list.body.message).to.equal(forbidden('list', 'configmaps', 'watch'));
    });

    it('a collection GET naming one object by field selector is authorized with that name (resourceNames)', async () => {
      expect((await admin().get(`${CM}?watch=1&fieldSelector=metadata.name%3Dcm1`, as('named'))).status).to.equal(403);
      const list = await admin().get(`${CM}?fieldSelector=metadata.name%3Dcm2`, as('list'));
      expect(list.status).to.equal(200);
      const named = await admin().get(`${CM}?fieldSelector=metadata.name%3Dcm2`, as('named'));
      expect(named.body.message).to.equal(forbidden('list', 'configmaps "cm2"', 'named'));
    });

    it('the path is decoded before it is parsed, as Go\'s URL.Path: %63m1 names cm1', async () => {
      expect((await admin().get(`${CM}/%63m1`, as('named'))).status).to.equal(200);
      const other = await admin().get(`${CM}/%63m2`, as('named'));
      expect(other.body.message).to.equal(forbidden('get', 'configmaps "cm2"', 'named'));
    });
  });

  describe('writes: create, delete, deletecollection', () => {
    it(`DELETE of an object is delete, of a collection deletecollection${covers('000 § Verb mapping › DELETE')}`, async () => {
      expect((await admin().post(CM, { metadata: { name: 'doomed' } })).status).to.equal(201);
      const wrong = await admin().request('DELETE', `${CM}/doomed`, as('deletecollection'));
      expect(wrong.status).to.equal(403);
      expect(wrong.body.message).to.equal(forbidden('delete', 'configmaps "doomed"', 'deletecollection'));
      expect((await admin().request('DELETE', `${CM}/doomed`, as('delete'))).status).to.equal(200);
      const coll = await admin().request('DELETE', `${CM}?labelSelector=none%3Dnone`, as('delete'));
      expect(coll.body.message).to.equal(forbidden('deletecollection', 'configmaps', 'delete'));
      expect((await admin().request('DELETE', `${CM}?labelSelector=none%3Dnone`, as('deletecollection'))).status).to.equal(200);
    });

    it(`a dry-run create is authorized exactly as the real one: 403 without create, 201 (nothing stored) with it${covers('000 § Verb mapping › POST', '000 § Modifying-request query parameters › dryRun', '001 § Errors › 403 Forbidden')}`, async () => {
      const denied = await admin().post(`${CM}?dryRun=All`, { metadata: { name: 'dry' } }, as('get'));
      expect(denied.status).to.equal(403);
      expect(denied.body.message).to.equal(forbidden('create', 'configmaps', 'get'));
      expect((await admin().post(`${CM}?dryRun=All`, { metadata: { name: 'dry' } }, as('create'))).status).to.equal(201);
      expect((await admin().get(`${CM}/dry`)).status).to.equal(404);
    });

    it('a dry-run delete is authorized as a delete', async () => {
      const res = await admin().request('DELETE', `${CM}/cm1?dryRun=All`, as('get'));
      expect(res.body.message).to.equal(forbidden('delete', 'configmaps "cm1"', 'get'));
    });
  });

  describe('403 message variants', () => {
    it('a subresource: resource "pods/log"', async () => {
      const res = await admin().get(`/api/v1/namespaces/${NS}/pods/p/log`, as('get'));
      expect(res.body).to.deep.include({ reason: 'Forbidden', code: 403, details: { name: 'p', kind: 'pods' } });
      expect(res.body.message).to.equal(`pods "p" is forbidden: User "get-user" cannot get resource "pods/log" in API group "" in the namespace "${NS}"`);
    });

    it('a cluster-scoped resource of a group, at the cluster scope', async () => {
      const res = await admin().get(`${RBAC}/clusterroles/admin`, as('get'));
      expect(res.body.message).to.equal('clusterroles.rbac.authorization.orch.io "admin" is forbidden: User "get-user" cannot get resource "clusterroles" in API group "rbac.authorization.orch.io" at the cluster scope');
      expect(res.body.details).to.deep.equal({ name: 'admin', group: 'rbac.authorization.orch.io', kind: 'clusterroles' });
    });

    it('the upstream alias of a group: the message keeps the spelling the client used', async () => {
      const res = await admin().get(`/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`, as('get'));
      expect(res.body.message).to.equal(`roles.rbac.authorization.k8s.io is forbidden: User "get-user" cannot list resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "${NS}"`);
      expect(res.body.details).to.deep.equal({ group: 'rbac.authorization.k8s.io', kind: 'roles' });
    });

    it('a non-resource path: the lower-case HTTP method as the verb, empty details', async () => {
      const get = await admin().get('/metrics', as('get'));
      expect(get.status).to.equal(403);
      expect(get.body).to.deep.include({ message: 'forbidden: User "get-user" cannot get path "/metrics"', details: {} });
      const post = await admin().post('/version', {}, as('get'));
      expect(post.body.message).to.equal('forbidden: User "get-user" cannot post path "/version"');
    });

    it('escapes <, > and & of the message as HTML entities, as upstream\'s sanitizer', async () => {
      const res = await admin().get('/x%3Cscript%3E&', as('get'));
      expect(res.body.message).to.equal('forbidden: User "get-user" cannot get path "/x&lt;script&gt;&amp;"');
    });

    it('appends the deciding mode\'s reason: RBAC\'s error for a binding to a missing role', async () => {
      const res = await admin().get(CM, as('broken'));
      expect(res.body.message).to.equal(`${forbidden('list', 'configmaps', 'broken')}: RBAC: role.rbac.authorization.orch.io "missing" not found`);
    });
  });
});
