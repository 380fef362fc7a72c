import { expect } from 'chai';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const TOKENS = ['admintoken,alice,uid-1,"system:masters,ops"', 'usertoken,bob,uid-2,devs'].join('\n');
const PATH = '/apis/authentication.orch.io/v1/tokenreviews';
const review = (spec: Record<string, unknown>) => ({ apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview', spec });

describe('TokenReview (issue #10 items 8 and 9; authentication.orch.io/v1 tokenreviews)', () => {
  const server = useTestServer({ tokens: TOKENS });
  const post = (body: unknown, path = PATH, token?: string) => server().admin.post(path, body, token ? { creds: { token } } : {});

  it('a valid static token: authenticated, its user with system:authenticated, valid for the API audiences', async () => {
    const res = await post(review({ token: 'usertoken' }));
    expect(res.status).to.equal(201);
    expect(res.body).to.deep.include({ apiVersion: 'authentication.orch.io/v1', kind: 'TokenReview' });
    expect(res.body.spec).to.deep.equal({ token: 'usertoken' });
    expect(res.body.status).to.deep.equal({
      authenticated: true,
      user: { username: 'bob', uid: 'uid-2', groups: ['devs', 'system:authenticated'] },
      audiences: [DEFAULT_SERVICE_ACCOUNT_ISSUER],
    });
  });

  it('nothing is stored: the answer carries no name, uid or resourceVersion', async () => {
    const res = await post(review({ token: 'usertoken' }));
    expect(res.body.metadata).to.not.have.any.keys('name', 'uid', 'resourceVersion');
  });

  it('an unknown token: not authenticated, error "invalid bearer token", an empty user (as upstream writes it)', async () => {
    const res = await post(review({ token: 'nope' }));
    expect(res.status).to.equal(201);
    expect(res.body.status).to.deep.equal({ user: {}, error: 'invalid bearer token' });
  });

  it('a malformed JWT: not authenticated, with an error', async () => {
    const res = await post(review({ token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' }));
    expect(res.status).to.equal(201);
    expect(res.body.status.authenticated).to.equal(undefined);
    expect(res.body.status.error).to.be.a('string').and.not.equal('');
  });

  it('an empty token: 400 with upstream\'s message', async () => {
    const res = await post(review({ token: '' }));
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.include({ kind: 'Status', reason: 'BadRequest', message: 'token is required for TokenReview in authentication' });
  });

  it('spec.audiences the API audiences include: authenticated for those', async () => {
    const res = await post(review({ token: 'usertoken', audiences: ['vault', DEFAULT_SERVICE_ACCOUNT_ISSUER] }));
    expect(res.body.status).to.deep.include({ authenticated: true, audiences: [DEFAULT_SERVICE_ACCOUNT_ISSUER] });
  });

  it('spec.audiences outside the API audiences: a static token (which knows no audiences) does not authenticate', async () => {
    const res = await post(review({ token: 'usertoken', audiences: ['vault'] }));
    expect(res.body.status).to.deep.equal({ user: {}, error: 'invalid bearer token' });
  });

  it('a token with a leading space is no bearer token: the review sees an anonymous request, as upstream', async () => {
    const res = await post(review({ token: ' usertoken' }));
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.include({ reason: 'InternalError', message: 'Internal error occurred: error validating audiences' });
  });

  describe('service-account tokens (audiences end to end)', () => {
    let saToken = '';
    before(async () => {
      const s = server();
      expect((await s.admin.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'reviewer' } })).status).to.equal(201);
      const tr = await s.admin.post('/api/v1/namespaces/default/serviceaccounts/reviewer/token', {
        apiVersion: 'authentication.orch.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: ['vault'], expirationSeconds: 600 },
      });
      expect(tr.status, tr.text).to.equal(201);
      saToken = tr.body.status.token;
    });

    it('reviewed for its audience: authenticated as the service account, valid for that audience', async () => {
      const res = await post(review({ token: saToken, audiences: ['vault'] }));
      expect(res.body.status.authenticated).to.equal(true);
      expect(res.body.status.audiences).to.deep.equal(['vault']);
      expect(res.body.status.user.username).to.equal('system:serviceaccount:default:reviewer');
      expect(res.body.status.user.groups).to.deep.equal(['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
      expect(res.body.status.user.uid).to.be.a('string').and.not.equal('');
    });

    it('reviewed for the API audiences (spec.audiences empty): not authenticated — the token is not for this server', async () => {
      const res = await post(review({ token: saToken }));
      expect(res.body.status.authenticated).to.equal(undefined);
      expect(res.body.status.error).to.be.a('string').and.not.equal('');
    });

    it('used as a credential on this server: 401 (its audience is not an API audience)', async () => {
      const res = await server().admin.get('/api/v1/namespaces/default', { creds: { token: saToken } });
      expect(res.status).to.equal(401);
    });
  });

  it('under the upstream alias group authentication.k8s.io', async () => {
    const res = await post({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'usertoken' } }, '/apis/authentication.k8s.io/v1/tokenreviews');
    expect(res.status).to.equal(201);
    expect(res.body.apiVersion).to.equal('authentication.k8s.io/v1');
    expect(res.body.status.user.username).to.equal('bob');
  });

  it('creating one needs authorization: a user outside system:masters gets 403 under the current authorizer', async () => {
    const res = await post(review({ token: 'usertoken' }), PATH, 'usertoken');
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal('tokenreviews.authentication.orch.io is forbidden: User "bob" cannot create resource "tokenreviews" in API group "authentication.orch.io" at the cluster scope');
  });

  it('create only: GET of the collection is 405', async () => {
    expect((await server().admin.get(PATH)).status).to.equal(405);
  });

  it('tokenreviews is in discovery with the verb create only', async () => {
    const res = await server().admin.get('/apis/authentication.orch.io/v1');
    const r = res.body.resources.find((x: { name: string }) => x.name === 'tokenreviews');
    expect(r).to.deep.include({ kind: 'TokenReview', namespaced: false, verbs: ['create'] });
  });
});
