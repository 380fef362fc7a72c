import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { TokenReviewWebhook } from '../../framework/token-review-webhook.js';
import { type TestServer, startTestServer, useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const TOKENS = ['alicetoken,alice,uid-1,devs', 'bobtoken,bob,uid-2,ops', 'caroltoken,carol,uid-3,devs', 'davetoken,dave,uid-4,'].join('\n');
const as = (token: string) => ({ creds: { token } });
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
const ABAC_V1BETA1 = `${vendorGroup('abac.authorization')}/v1beta1`;
const policy = (spec: object) => JSON.stringify({ apiVersion: ABAC_V1BETA1, kind: 'Policy', spec });

/** A temporary directory for the suite's files. */
function useTempDir(): () => string {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-authz-modes-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));
  return () => dir;
}

describe('authorization mode AlwaysAllow (spec 001 § Authorization)', () => {
  const server = useTestServer({ tokens: TOKENS, authorization: { modes: ['AlwaysAllow'] } });

  it('lets any authenticated user do anything', async () => {
    expect((await server().admin.post('/api/v1/namespaces/default/configmaps', cm('always-allow'), as('davetoken'))).status).to.equal(201);
    expect((await server().admin.delete('/api/v1/namespaces/default/configmaps/always-allow', as('bobtoken'))).status).to.equal(200);
    expect((await server().admin.get('/api/v1/nodes', as('alicetoken'))).status).to.equal(200);
  });

  it('switches anonymous requests off (401), as upstream does for AlwaysAllow', async () => {
    const res = await server().anonymous.get('/api/v1/namespaces');
    expect(res.status).to.equal(401);
  });
});

describe('authorization mode AlwaysDeny (spec 001 § Authorization)', () => {
  const server = useTestServer({ tokens: TOKENS, authorization: { modes: ['AlwaysDeny'] } });

  it('denies every user with the reason "Everything is forbidden."', async () => {
    const res = await server().admin.get('/api/v1/namespaces/default/configmaps', as('alicetoken'));
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal(
      'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
    );
  });

  it('still allows system:masters (the privileged group comes first)', async () => {
    expect((await server().admin.get('/api/v1/namespaces/default/configmaps')).status).to.equal(200);
  });
});

describe('authorization mode ABAC (spec 001 § ABAC mode)', () => {
  const dir = useTempDir();
  let server: TestServer;
  before(async function () {
    this.timeout(60_000);
    const file = path.join(dir(), 'policy.jsonl');
    await writeFile(
      file,
      [
        '# alice reads everything in default; bob writes configmaps in team-b; devs read /version',
        policy({ user: 'alice', namespace: 'default', resource: '*', apiGroup: '*', readonly: true }),
        policy({ user: 'bob', namespace: 'team-b', resource: 'configmaps' }),
        policy({ group: 'devs', readonly: true, nonResourcePath: '/version' }),
        policy({ group: 'ops', nonResourcePath: '/healthz/*' }),
        '',
      ].join('\n'),
    );
    server = await startTestServer({ tokens: TOKENS, authorization: { modes: ['ABAC'], policyFile: file } });
    await server.admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } });
  });
  after(() => server?.stop());

  it(`readonly grants get, list and watch in the namespace of the line${covers('001 § ABAC mode › readonly', '001 § ABAC mode › user', '001 § ABAC mode › apiGroup')}`, async () => {
    expect((await server.admin.get('/api/v1/namespaces/default/configmaps', as('alicetoken'))).status).to.equal(200);
    expect((await server.admin.get('/apis/apps/v1/namespaces/default/deployments', as('alicetoken'))).status).to.equal(200);
  });

  it(`readonly refuses writes, with "No policy matched." as the reason${covers('001 § ABAC mode › readonly', '001 § Errors › 403 Forbidden')}`, async () => {
    const res = await server.admin.post('/api/v1/namespaces/default/configmaps', cm('abac'), as('alicetoken'));
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal(
      'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "default": No policy matched.',
    );
  });

  it(`a line grants its namespace only${covers('001 § ABAC mode › namespace')}`, async () => {
    expect((await server.admin.get('/api/v1/namespaces/team-b/configmaps', as('alicetoken'))).status).to.equal(403);
    expect((await server.admin.post('/api/v1/namespaces/team-b/configmaps', cm('bobs'), as('bobtoken'))).status).to.equal(201);
    expect((await server.admin.get('/api/v1/namespaces/default/configmaps', as('bobtoken'))).status).to.equal(403);
  });

  it(`a line grants its resource only${covers('001 § ABAC mode › resource')}`, async () => {
    expect((await server.admin.get('/api/v1/namespaces/team-b/secrets', as('bobtoken'))).status).to.equal(403);
  });

  it(`nonResourcePath: exact, and /foo/* for sub-paths; readonly is get only${covers('001 § ABAC mode › nonResourcePath', '001 § ABAC mode › group')}`, async () => {
    expect((await server.admin.get('/version', as('caroltoken'))).status).to.equal(200);
    expect((await server.admin.get('/version', as('davetoken'))).status).to.equal(403);
    expect((await server.admin.get('/healthz/ping', as('bobtoken'))).status).to.equal(200);
    const res = await server.admin.get('/healthz', as('bobtoken'));
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal('forbidden: User "bob" cannot get path "/healthz": No policy matched.');
  });
});

describe('authorization mode Webhook (spec 001 § Webhook authorization mode)', () => {
  const dir = useTempDir();
  let hook: TokenReviewWebhook;
  let server: TestServer;
  before(async function () {
    this.timeout(60_000);
    hook = await TokenReviewWebhook.start();
    const file = path.join(dir(), 'policy.jsonl');
    await writeFile(file, `${policy({ user: 'carol', namespace: 'default', resource: '*', apiGroup: '*' })}\n`);
    server = await startTestServer({
      tokens: TOKENS,
      authorization: {
        modes: ['Webhook', 'ABAC'],
        policyFile: file,
        webhookConfigFile: await hook.writeKubeconfig(),
        webhookCacheUnauthorizedTTLMs: 400,
      },
    });
  });
  after(async () => {
    await server?.stop();
    await hook?.stop();
  });
  beforeEach(() => {
    hook.calls.length = 0;
  });

  const decide = (by: (user: string) => object) => {
    hook.respond = (review) => ({ body: { apiVersion: `${vendorGroup('authorization')}/v1beta1`, kind: 'SubjectAccessReview', status: by(review.body.spec.user) } });
  };

  it('POSTs a v1beta1 SubjectAccessReview exactly as upstream (groups as `group`, empty fields left out)', async () => {
    decide(() => ({ allowed: true }));
    expect((await server.admin.get('/api/v1/namespaces/default/configmaps/kube-root', as('alicetoken'))).status).to.not.equal(403);
    expect(hook.calls).to.have.length(1);
    expect(hook.calls[0]!.raw).to.equal(
      `{"kind":"SubjectAccessReview","apiVersion":"${vendorGroup('authorization')}/v1beta1","metadata":{"creationTimestamp":null},` +
        '"spec":{"resourceAttributes":{"namespace":"default","verb":"get","version":"v1","resource":"configmaps","name":"kube-root"},' +
        '"user":"alice","group":["devs","system:authenticated"],"uid":"uid-1"},"status":{"allowed":false}}',
    );
    expect(hook.calls[0]!.headers['content-type']).to.equal('application/json');
  });

  it('sends nonResourceAttributes for a non-resource request', async () => {
    decide(() => ({ allowed: true }));
    expect((await server.admin.get('/version', as('bobtoken'))).status).to.equal(200);
    expect(hook.calls[0]!.body.spec).to.deep.equal({ nonResourceAttributes: { path: '/version', verb: 'get' }, user: 'bob', group: ['ops', 'system:authenticated'], uid: 'uid-2' });
  });

  it('allowed: true allows', async () => {
    decide(() => ({ allowed: true, reason: 'hooked' }));
    expect((await server.admin.post('/api/v1/namespaces/default/configmaps', cm('by-webhook'), as('davetoken'))).status).to.equal(201);
  });

  it('denied: true denies at once, even where a later mode would allow; its reason is appended', async () => {
    decide(() => ({ allowed: false, denied: true, reason: 'carol is on leave' }));
    const res = await server.admin.get('/api/v1/namespaces/default/secrets', as('caroltoken'));
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal('secrets is forbidden: User "carol" cannot list resource "secrets" in API group "" in the namespace "default": carol is on leave');
  });

  it('allowed: false alone is no opinion: a later mode may allow, else 403 with both reasons', async () => {
    decide(() => ({ allowed: false, reason: 'not mine' }));
    expect((await server.admin.get('/api/v1/namespaces/default/services', as('caroltoken'))).status).to.equal(200);
    const res = await server.admin.get('/api/v1/namespaces/default/services', as('davetoken'));
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal('services is forbidden: User "dave" cannot list resource "services" in API group "" in the namespace "default": not mine\nNo policy matched.');
  });

  it('caches allowed decisions (authorized TTL, 5m0s by default) per full attributes', async () => {
    decide(() => ({ allowed: true }));
    for (let i = 0; i < 3; i++) expect((await server.admin.get('/api/v1/namespaces/default/pods', as('bobtoken'))).status).to.equal(200);
    expect(hook.calls).to.have.length(1);
    await server.admin.get('/api/v1/namespaces/kube-system/pods', as('bobtoken'));
    expect(hook.calls).to.have.length(2);
  });

  it('caches other decisions for the unauthorized TTL (here 400 ms), then asks again', async () => {
    decide(() => ({ allowed: false }));
    await server.admin.get('/api/v1/namespaces/default/endpoints', as('davetoken'));
    await server.admin.get('/api/v1/namespaces/default/endpoints', as('davetoken'));
    expect(hook.calls).to.have.length(1);
    await new Promise((r) => setTimeout(r, 500));
    await server.admin.get('/api/v1/namespaces/default/endpoints', as('davetoken'));
    expect(hook.calls).to.have.length(2);
  });

  it('a failing webhook is no opinion: a later mode still allows; otherwise upstream answers 500 with the failure', async () => {
    hook.respond = () => ({ status: 400, body: { message: 'bad' } });
    expect((await server.admin.get('/api/v1/namespaces/default/configmaps', as('caroltoken'))).status).to.equal(200);
    const res = await server.admin.get('/api/v1/namespaces/default/configmaps', as('davetoken'));
    expect(res.status).to.equal(500);
    expect(res.text).to.match(/^Internal Server Error: "\/api\/v1\/namespaces\/default\/configmaps": Failed to make webhook authorizer request: the server rejected our request for an unknown reason\n$/);
  });
});

describe('authorization mode Webhook with --authorization-webhook-version=v1 (spec 001 § Webhook authorization mode)', () => {
  let hook: TokenReviewWebhook;
  let server: TestServer;
  before(async function () {
    this.timeout(60_000);
    hook = await TokenReviewWebhook.start();
    server = await startTestServer({
      tokens: TOKENS,
      authorization: { modes: ['Webhook', 'AlwaysAllow'], webhookConfigFile: await hook.writeKubeconfig(), webhookVersion: 'v1' },
    });
  });
  after(async () => {
    await server?.stop();
    await hook?.stop();
  });

  it('POSTs a v1 SubjectAccessReview (groups as `groups`) and reads a v1 answer', async () => {
    hook.respond = () => ({ body: { apiVersion: `${vendorGroup('authorization')}/v1`, kind: 'SubjectAccessReview', status: { allowed: false, denied: true, reason: 'v1 says no' } } });
    const res = await server.admin.get('/apis/apps/v1/namespaces/default/deployments/web/scale', as('alicetoken'));
    expect(res.status).to.equal(403);
    expect(res.body.message).to.match(/: v1 says no$/);
    expect(hook.calls[0]!.raw).to.equal(
      `{"kind":"SubjectAccessReview","apiVersion":"${vendorGroup('authorization')}/v1","metadata":{"creationTimestamp":null},` +
        '"spec":{"resourceAttributes":{"namespace":"default","verb":"get","group":"apps","version":"v1","resource":"deployments","subresource":"scale","name":"web"},' +
        '"user":"alice","groups":["devs","system:authenticated"],"uid":"uid-1"},"status":{"allowed":false}}',
    );
  });

  it('a webhook that is down is no opinion (the later AlwaysAllow decides)', async () => {
    await hook.stop();
    expect((await server.admin.get('/api/v1/namespaces/default/pods', as('davetoken'))).status).to.equal(200);
  });
});
