import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import type { TestClient } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';
import { TokenReviewWebhook, reviewAnswer } from '../../framework/token-review-webhook.js';
import { freeLoopbackPort } from '../../../lib/server/etcd/free-port.js';
import { covers } from '../../conformance/covers.js';

const AUTHN = vendorGroup('authentication');

/** The user the server sees for a bearer token, through SelfSubjectReview. */
async function whoami(client: TestClient, token: string) {
  const res = await client.post(`/apis/${AUTHN}/v1/selfsubjectreviews`, { apiVersion: `${AUTHN}/v1`, kind: 'SelfSubjectReview' }, { creds: { token } });
  expect(res.status, res.text).to.equal(201);
  return res.body.status.userInfo;
}

/**
 * A webhook started before the server whose `--authentication-token-webhook-config-file` names
 * it (mocha runs `before` hooks in the order they are declared).
 */
function useWebhook(credentials: Parameters<typeof TokenReviewWebhook.start>[0], file: string): () => TokenReviewWebhook {
  let hook: TokenReviewWebhook | undefined;
  before(async function () {
    this.timeout(60_000);
    hook = await TokenReviewWebhook.start(credentials);
    await hook.writeKubeconfig({ file });
  });
  after(async () => {
    await hook?.stop();
    await rm(path.dirname(file), { recursive: true, force: true });
  });
  return () => hook!;
}

const tempFile = (name: string) => path.join(mkdtempSync(path.join(os.tmpdir(), 'orch-webhook-kubeconfig-')), name);

describe('webhook token authentication in the server (spec 001 § Webhook token authentication)', () => {
  describe('v1beta1 (default), the server authenticating to the webhook with a client certificate', () => {
    const V1BETA1 = `${AUTHN}/v1beta1`;
    const file = tempFile('webhook.kubeconfig');
    const hook = useWebhook({ kind: 'certificate' }, file);
    const server = useTestServer({ authentication: { tokenWebhookConfigFile: file, tokenWebhookCacheTTLMs: 1000 } });

    beforeEach(() => {
      hook().calls.length = 0;
      hook().respond = (_review, token) => {
        switch (token) {
          case 'admin-token':
            return reviewAnswer(V1BETA1, {
              authenticated: true,
              user: { username: 'wendy', uid: 'w-1', groups: ['system:masters'], extra: { 'example.org/team': ['blue', 'green'] } },
            });
          case 'user-token':
            return reviewAnswer(V1BETA1, { authenticated: true, user: { username: 'walter', groups: ['devs'] } });
          case 'error-token':
            return reviewAnswer(V1BETA1, { authenticated: false, error: 'token revoked' });
          case 'garbage-token':
            return { text: '<html>' };
          case 'slow-token':
            return { hang: true };
          default:
            return reviewAnswer(V1BETA1, { authenticated: false });
        }
      };
    });

    it(`a token the webhook accepts authenticates: its user, uid, groups and extra${covers('001 § Methods › Webhook token')}`, async () => {
      expect((await server().admin.get('/api/v1/namespaces', { creds: { token: 'admin-token' } })).status).to.equal(200);
      expect(await whoami(server().admin, 'admin-token')).to.deep.equal({
        username: 'wendy',
        uid: 'w-1',
        groups: ['system:masters', 'system:authenticated'],
        extra: { 'example.org/team': ['blue', 'green'] },
      });
    });

    it(`the webhook is sent a v1beta1 TokenReview with the token${covers('001 § Webhook token authentication › --authentication-token-webhook-config-file', '001 § Webhook token authentication › --authentication-token-webhook-version')}`, async () => {
      await server().admin.get('/api/v1/namespaces', { creds: { token: 'fresh-token' } });
      const [call] = hook().callsFor('fresh-token');
      expect(call!.body).to.include({ kind: 'TokenReview', apiVersion: V1BETA1 });
      expect(call!.body.spec.token).to.equal('fresh-token');
      expect(call!.body.metadata).to.deep.equal({ creationTimestamp: null });
    });

    it('an authenticated user outside system:masters is authorized as that user (403 names it)', async () => {
      const res = await server().admin.get('/api/v1/namespaces', { creds: { token: 'user-token' } });
      expect(res.status).to.equal(403);
      expect(res.body.message).to.include('User "walter" cannot list resource "namespaces"');
    });

    for (const [title, token] of [
      ['a token the webhook rejects', 'unknown-token'],
      ['a token rejected with error text', 'error-token'],
      ['a malformed answer', 'garbage-token'],
    ]) {
      it(`${title}: 401 Unauthorized${covers('001 § Errors › 401 Unauthorized')}`, async () => {
        const res = await server().admin.get('/api/v1/namespaces', { creds: { token: token! } });
        expect(res.status).to.equal(401);
        expect(res.body).to.include({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
      });
    }

    it(`a rejection is cached for the TTL: one call for repeated requests, a new call after it${covers('001 § Webhook token authentication › --authentication-token-webhook-cache-ttl', '001 § Limits › Authentication webhook cache')}`, async () => {
      for (let i = 0; i < 3; i++) expect((await server().anonymous.get('/api/v1/namespaces', { creds: { token: 'cached-reject' } })).status).to.equal(401);
      expect(hook().callsFor('cached-reject')).to.have.length(1);
      await sleep(1100);
      await server().anonymous.get('/api/v1/namespaces', { creds: { token: 'cached-reject' } });
      expect(hook().callsFor('cached-reject')).to.have.length(2);
    });

    it('a success is cached: repeated requests make one call', async () => {
      hook().respond = () => reviewAnswer(V1BETA1, { authenticated: true, user: { username: 'carl', groups: ['system:masters'] } });
      for (let i = 0; i < 3; i++) expect((await server().anonymous.get('/api/v1/namespaces', { creds: { token: 'cached-accept' } })).status).to.equal(200);
      expect(hook().callsFor('cached-accept')).to.have.length(1);
    });

    it('a webhook that does not answer blocks only the requests waiting for it', async function () {
      this.timeout(20_000);
      const slow = server().anonymous.get('/api/v1/namespaces', { creds: { token: 'slow-token' } });
      while (hook().callsFor('slow-token').length === 0) await sleep(10);
      expect((await server().admin.get('/api/v1/namespaces')).status).to.equal(200);
      expect((await server().anonymous.get('/api/v1/namespaces', { creds: { token: 'admin-token' } })).status).to.equal(200);
      expect((await server().anonymous.get('/healthz')).status).to.equal(200);
      hook().release(reviewAnswer(V1BETA1, { authenticated: false }));
      expect((await slow).status).to.equal(401);
    });
  });

  describe('v1, the server authenticating to the webhook with a bearer token', () => {
    const V1 = `${AUTHN}/v1`;
    const file = tempFile('webhook.kubeconfig');
    const hook = useWebhook({ kind: 'token', token: 'apiserver-secret' }, file);
    const server = useTestServer({ authentication: { tokenWebhookConfigFile: file, tokenWebhookVersion: 'v1' } });

    it(`sends a v1 TokenReview with the kubeconfig token and accepts a v1 answer${covers('001 § Webhook token authentication › --authentication-token-webhook-version')}`, async () => {
      hook().respond = () => reviewAnswer(V1, { authenticated: true, user: { username: 'vera', groups: ['system:masters'] } });
      expect((await server().anonymous.get('/api/v1/namespaces', { creds: { token: 'v1-token' } })).status).to.equal(200);
      const [call] = hook().callsFor('v1-token');
      expect(call!.body).to.include({ kind: 'TokenReview', apiVersion: V1 });
      expect(call!.headers.authorization).to.equal('Bearer apiserver-secret');
    });

    it('a v1beta1 answer to a v1 review is malformed: 401', async () => {
      hook().respond = () => reviewAnswer(`${AUTHN}/v1beta1`, { authenticated: true, user: { username: 'vera', groups: ['system:masters'] } });
      expect((await server().anonymous.get('/api/v1/namespaces', { creds: { token: 'v1-mismatch' } })).status).to.equal(401);
    });
  });

  describe('a webhook that is down', () => {
    const file = tempFile('down.kubeconfig');
    before(async function () {
      this.timeout(60_000);
      const hook = await TokenReviewWebhook.start({ kind: 'certificate' });
      await hook.writeKubeconfig({ file, server: `https://127.0.0.1:${await freeLoopbackPort()}/authenticate` });
      await hook.stop();
    });
    after(() => rm(path.dirname(file), { recursive: true, force: true }));
    const server = useTestServer({ authentication: { tokenWebhookConfigFile: file } });

    it('bearer tokens are 401; other credentials still work', async () => {
      const res = await server().anonymous.get('/api/v1/namespaces', { creds: { token: 'any' } });
      expect(res.status).to.equal(401);
      expect(res.body.reason).to.equal('Unauthorized');
      expect((await server().admin.get('/api/v1/namespaces')).status).to.equal(200);
    });
  });
});

