import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const TOKENS = ['roottoken,root,uid-0,"system:masters"', 'bobtoken,bob,uid-2,devs'].join('\n');

describe('impersonation (spec 001 § Impersonation)', () => {
  const server = useTestServer({ tokens: TOKENS });
  const as = (headers: Record<string, string | string[]>, token = 'roottoken') => ({ creds: { token }, headers: headers as Record<string, string> });

  describe('a caller allowed to impersonate (system:masters under the current authorizer)', () => {
    it(`the request runs as the impersonated user: authorization sees that user${covers('001 § Impersonation › Impersonate-User')}`, async () => {
      const res = await server().admin.get('/api/v1/namespaces', as({ 'Impersonate-User': 'jane' }));
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('namespaces is forbidden: User "jane" cannot list resource "namespaces" in API group "" at the cluster scope');
    });

    it('impersonated groups count: a group of system:masters is allowed', async () => {
      expect((await server().admin.get('/api/v1/namespaces', as({ 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:masters' }))).status).to.equal(200);
    });

    it(`repeated Impersonate-Group headers are each a group${covers('001 § Impersonation › Impersonate-Group')}`, async () => {
      const res = await server().admin.get('/api/v1/namespaces', as({ 'Impersonate-User': 'jane', 'Impersonate-Group': ['devs', 'system:masters'] }));
      expect(res.status).to.equal(200);
    });

    it('a service account: its username, and (without Impersonate-Group) its groups, not system:masters', async () => {
      const res = await server().admin.get('/api/v1/namespaces/default/configmaps', as({ 'Impersonate-User': 'system:serviceaccount:default:builder' }));
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal(
        'configmaps is forbidden: User "system:serviceaccount:default:builder" cannot list resource "configmaps" in API group "" in the namespace "default"',
      );
    });

    it('system:anonymous in system:unauthenticated: public paths allowed, discovery not', async () => {
      expect((await server().admin.get('/healthz', as({ 'Impersonate-User': 'system:anonymous' }))).status).to.equal(200);
      const res = await server().admin.get('/api', as({ 'Impersonate-User': 'system:anonymous' }));
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('forbidden: User "system:anonymous" cannot get path "/api"');
    });

    it('an impersonated user gets system:authenticated: discovery is allowed', async () => {
      expect((await server().admin.get('/api', as({ 'Impersonate-User': 'jane' }))).status).to.equal(200);
    });

    it('extra and uid with a user are accepted', async () => {
      const res = await server().admin.get(
        '/api/v1/namespaces',
        as({ 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:masters', 'Impersonate-Uid': 'u-1', 'Impersonate-Extra-Scopes': ['view', 'edit'], 'Impersonate-Extra-Example.org%2fteam': 'a' }),
      );
      expect(res.status).to.equal(200);
    });

    it(`a SelfSubjectReview shows the impersonated user exactly: name, uid, groups, extra${covers('001 § Impersonation › Impersonate-User', '001 § Impersonation › Impersonate-Group', '001 § Impersonation › Impersonate-Extra-<name>', '001 § Impersonation › Impersonate-Uid')}`, async () => {
      const res = await server().admin.post(
        '/apis/authentication.orch.io/v1/selfsubjectreviews',
        { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' },
        as({ 'Impersonate-User': 'jane', 'Impersonate-Group': 'devs', 'Impersonate-Uid': 'u-1', 'Impersonate-Extra-Scopes': ['view', 'edit'], 'Impersonate-Extra-Example.org%2fteam': 'a' }),
      );
      expect(res.status).to.equal(201);
      expect(res.body.status.userInfo).to.deep.equal({
        username: 'jane',
        uid: 'u-1',
        groups: ['devs', 'system:authenticated'],
        extra: { scopes: ['view', 'edit'], 'example.org/team': ['a'] },
      });
    });

    it('a SelfSubjectReview as a service account shows its groups', async () => {
      const res = await server().admin.post(
        '/apis/authentication.orch.io/v1/selfsubjectreviews',
        { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' },
        as({ 'Impersonate-User': 'system:serviceaccount:ns1:builder' }),
      );
      expect(res.body.status.userInfo).to.deep.equal({
        username: 'system:serviceaccount:ns1:builder',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
      });
    });

    it('a client certificate can impersonate too', async () => {
      const res = await server().admin.get('/api/v1/namespaces', { headers: { 'Impersonate-User': 'jane' } });
      expect(res.body.message).to.include('User "jane"');
    });
  });

  describe('malformed impersonation: 400 BadRequest', () => {
    const rows: Array<[string, Record<string, string | string[]>, string]> = [
      ['a group without a user', { 'Impersonate-Group': 'devs' }, 'requested [{Group  devs    }] without impersonating a user'],
      ['an extra without a user', { 'Impersonate-Extra-Scopes': 'view' }, 'requested [{UserExtra  view  authentication.orch.io/v1  scopes}] without impersonating a user'],
      ['a uid without a user', { 'Impersonate-Uid': 'u-1' }, 'requested [{UID  u-1  authentication.orch.io/v1  }] without impersonating a user'],
    ];
    /** The spec 001 row each case covers (its header requires Impersonate-User). */
    const specRow: Record<string, string> = {
      'a group without a user': '001 § Impersonation › Impersonate-Group',
      'an extra without a user': '001 § Impersonation › Impersonate-Extra-<name>',
      'a uid without a user': '001 § Impersonation › Impersonate-Uid',
    };
    for (const [what, headers, message] of rows) {
      it(`${what}${covers(specRow[what]!)}`, async () => {
        const res = await server().admin.get('/api/v1/namespaces', as(headers));
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.include({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400, message });
      });
    }
  });

  describe("a caller not allowed to impersonate: 403 with upstream's message", () => {
    const rows: Array<[string, Record<string, string | string[]>, string, Record<string, string>]> = [
      [
        'a user',
        { 'Impersonate-User': 'jane' },
        'users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
        { name: 'jane', kind: 'users' },
      ],
      [
        'a service account (checked in its namespace)',
        { 'Impersonate-User': 'system:serviceaccount:ns1:builder' },
        'serviceaccounts "builder" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1"',
        { name: 'builder', kind: 'serviceaccounts' },
      ],
    ];
    for (const [what, headers, message, details] of rows) {
      it(what, async () => {
        const res = await server().admin.get('/api/v1/namespaces', as(headers, 'bobtoken'));
        expect(res.status).to.equal(403);
        expect(res.body).to.deep.include({ kind: 'Status', reason: 'Forbidden', code: 403, message, details });
      });
    }

    it(`anonymous callers cannot impersonate either${covers('001 § Impersonation › Impersonate-User')}`, async () => {
      const res = await server().anonymous.get('/healthz', { headers: { 'Impersonate-User': 'root' } });
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('users "root" is forbidden: User "system:anonymous" cannot impersonate resource "users" in API group "" at the cluster scope');
    });
  });
});
