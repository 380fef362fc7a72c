import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { UPSTREAM_DOMAIN, vendorGroup } from '../../../lib/apis/vendor.js';
import { WebhookTokenAuthenticator, type WebhookTokenAuthenticatorOptions } from '../../../lib/authentication/webhook/authenticator.js';
import { createCaCertificate } from '../../../lib/server/pki/certificates.js';
import { generateRsaKey } from '../../../lib/server/pki/keys.js';
import { TokenReviewWebhook, reviewAnswer } from '../../framework/token-review-webhook.js';
import { rejection } from '../../framework/authentication.js';
import { freeLoopbackPort } from '../../../lib/server/etcd/free-port.js';
import { covers } from '../../conformance/covers.js';

const V1BETA1 = `${vendorGroup('authentication')}/v1beta1`;
const V1 = `${vendorGroup('authentication')}/v1`;
/** Fast retries for tests; the shape of upstream's (×1.5, 20% jitter, 5 attempts). */
const FAST = { initialMs: 20, factor: 1.5, jitter: 0.2, steps: 5 };


describe('webhook token authenticator against a real HTTPS webhook (spec 001 § Webhook token authentication)', () => {
  let hook: TokenReviewWebhook;
  let kubeconfig: string;
  const open: WebhookTokenAuthenticator[] = [];
  const authenticator = async (opts: WebhookTokenAuthenticatorOptions = {}) => {
    const a = await WebhookTokenAuthenticator.fromKubeconfig(kubeconfig, { retryBackoff: FAST, ...opts });
    open.push(a);
    return a;
  };

  before(async function () {
    this.timeout(60_000);
    hook = await TokenReviewWebhook.start({ kind: 'certificate' });
    kubeconfig = await hook.writeKubeconfig();
  });
  after(async () => {
    for (const a of open) a.close();
    await hook.stop();
  });
  beforeEach(() => {
    hook.calls.length = 0;
    hook.respond = () => reviewAnswer(V1BETA1, { authenticated: false });
  });

  describe('the request', () => {
    it(`v1beta1 (default): the exact TokenReview upstream encodes, POSTed as JSON to the URL path with the client certificate${covers('001 § Webhook token authentication › --authentication-token-webhook-config-file', '001 § Webhook token authentication › --authentication-token-webhook-version')}`, async () => {
      await (await authenticator()).authenticateToken('tok-1', ['api', 'other']);
      expect(hook.calls).to.have.length(1);
      const call = hook.calls[0]!;
      expect(call.raw).to.equal(
        `{"kind":"TokenReview","apiVersion":"${V1BETA1}","metadata":{"creationTimestamp":null},"spec":{"token":"tok-1","audiences":["api","other"]},"status":{"user":{}}}`,
      );
      expect(call.path).to.equal('/authenticate');
      expect(call.headers['content-type']).to.equal('application/json');
      expect(call.clientCN).to.be.a('string');
    });

    it(`v1: the same document in authentication/v1${covers('001 § Webhook token authentication › --authentication-token-webhook-version')}`, async () => {
      hook.respond = () => reviewAnswer(V1, { authenticated: false });
      await (await authenticator({ version: 'v1' })).authenticateToken('tok-2', ['api']);
      expect(hook.calls[0]!.raw).to.equal(
        `{"kind":"TokenReview","apiVersion":"${V1}","metadata":{"creationTimestamp":null},"spec":{"token":"tok-2","audiences":["api"]},"status":{"user":{}}}`,
      );
    });

    it('no audiences asked: no spec.audiences', async () => {
      await (await authenticator()).authenticateToken('tok-3', []);
      expect(hook.calls[0]!.body.spec).to.deep.equal({ token: 'tok-3' });
    });

    it(`an unsupported version is a start-up error with upstream message${covers('001 § Webhook token authentication › --authentication-token-webhook-version')}`, async () => {
      try {
        await WebhookTokenAuthenticator.fromKubeconfig(kubeconfig, { version: 'v2' });
        expect.fail('expected an error');
      } catch (err) {
        expect((err as Error).message).to.equal('unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"');
      }
    });

    it(`a bearer token from the kubeconfig authenticates the server to the webhook${covers('001 § Webhook token authentication › --authentication-token-webhook-config-file')}`, async () => {
      const tokenHook = await TokenReviewWebhook.start({ kind: 'token', token: 'server-secret' });
      try {
        tokenHook.respond = () => reviewAnswer(V1BETA1, { authenticated: true, user: { username: 'ann' } });
        const a = await WebhookTokenAuthenticator.fromKubeconfig(await tokenHook.writeKubeconfig(), { retryBackoff: FAST });
        open.push(a);
        expect((await a.authenticateToken('t', []))?.user.name).to.equal('ann');
        expect(tokenHook.calls[0]!.headers.authorization).to.equal('Bearer server-secret');
      } finally {
        await tokenHook.stop();
      }
    });
  });

  describe('the answer', () => {
    it('authenticated: username, uid, groups and extra become the user', async () => {
      hook.respond = () =>
        reviewAnswer(V1BETA1, {
          authenticated: true,
          user: { username: 'jane', uid: '42', groups: ['dev', 'ops'], extra: { 'example.com/scopes': ['a', 'b'], empty: [] } },
        });
      expect(await (await authenticator()).authenticateToken('good', [])).to.deep.equal({
        user: { name: 'jane', uid: '42', groups: ['dev', 'ops'], extra: { 'example.com/scopes': ['a', 'b'], empty: [] } },
      });
    });

    it('audiences: the asked ones the webhook names; none named → those of the API (implicit audiences)', async () => {
      const a = await authenticator({ implicitAudiences: ['api'] });
      hook.respond = (_r, token) =>
        reviewAnswer(V1BETA1, { authenticated: true, user: { username: 'u' }, ...(token === 'named' && { audiences: ['other', 'third'] }) });
      expect((await a.authenticateToken('named', ['api', 'other']))?.audiences).to.deep.equal(['other']);
      expect((await a.authenticateToken('implicit', ['api', 'other']))?.audiences).to.deep.equal(['api']);
    });

    it('audiences shared with none asked: not authenticated (null)', async () => {
      hook.respond = () => reviewAnswer(V1BETA1, { authenticated: true, user: { username: 'u' }, audiences: ['elsewhere'] });
      expect(await (await authenticator({ implicitAudiences: ['api'] })).authenticateToken('t', ['api'])).to.equal(null);
    });

    it('authenticated false without error: the token is not known (null)', async () => {
      expect(await (await authenticator()).authenticateToken('bad', [])).to.equal(null);
    });

    it('authenticated false with error: rejected with that text', async () => {
      hook.respond = () => reviewAnswer(V1BETA1, { authenticated: false, error: 'token expired yesterday' });
      expect(await rejection((await authenticator()).authenticateToken('old', []))).to.equal('token expired yesterday');
    });

    it('error is ignored when authenticated is true; spec in the answer is ignored', async () => {
      hook.respond = () => ({ body: { apiVersion: V1BETA1, kind: 'TokenReview', spec: { token: 'other' }, status: { authenticated: true, user: { username: 'u' }, error: 'ignored' } } });
      expect((await (await authenticator()).authenticateToken('t', []))?.user.name).to.equal('u');
    });

    it("the upstream spelling of the group is accepted in the answer", async () => {
      hook.respond = () => reviewAnswer(`authentication.${UPSTREAM_DOMAIN}/v1beta1`, { authenticated: true, user: { username: 'u' } });
      expect((await (await authenticator()).authenticateToken('t', []))?.user.name).to.equal('u');
    });

    const malformed: Array<[string, () => ReturnType<TokenReviewWebhook['respond']>, string]> = [
      ['not JSON', () => ({ text: 'yes' }), "Failed to make webhook authenticator request: couldn't get version/kind; json parse error: invalid character 'y' looking for beginning of value"],
      ['another version', () => reviewAnswer(V1, { authenticated: true, user: { username: 'u' } }), `apiVersion "${V1}", expected ${V1BETA1}`],
      ['another kind', () => ({ body: { apiVersion: V1BETA1, kind: 'Pod', status: { authenticated: true } } }), 'kind "Pod", expected TokenReview'],
      ['authenticated not a boolean', () => reviewAnswer(V1BETA1, { authenticated: 'true' as unknown as boolean }), 'authenticated is not true or false'],
      ['groups not a list', () => reviewAnswer(V1BETA1, { authenticated: true, user: { username: 'u', groups: 'dev' } }), 'groups is not a list of strings'],
      ['extra values not lists', () => reviewAnswer(V1BETA1, { authenticated: true, user: { username: 'u', extra: { k: 'v' } } }), 'status.user.extra["k"] is not a list of strings'],
      ['authenticated without username', () => reviewAnswer(V1BETA1, { authenticated: true, user: { uid: '1' } }), 'without status.user.username'],
      ['an error status', () => ({ status: 403, text: 'forbidden\n', headers: { 'Content-Type': 'text/plain' } }), 'Failed to make webhook authenticator request: forbidden'],
      ['an error status with a body that is not text', () => ({ status: 403, text: 'forbidden' }), 'Failed to make webhook authenticator request: unknown'],
      ['an answer that is not JSON by its type', () => ({ text: '{}', headers: { 'Content-Type': 'text/html' } }), "Failed to make webhook authenticator request: serializer for text/html doesn't exist"],
      ['a JSON array', () => ({ body: [] }), 'not a JSON object'],
    ];
    for (const [title, reply, message] of malformed) {
      it(`a malformed answer (${title}) rejects the token, and is not cached`, async () => {
        hook.respond = reply;
        const a = await authenticator();
        expect(await rejection(a.authenticateToken('t', []))).to.include(message);
        await rejection(a.authenticateToken('t', []));
        expect(hook.calls).to.have.length(2);
      });
    }
  });

  describe('caching (--authentication-token-webhook-cache-ttl)', () => {
    it(`a success is asked once within the TTL, again after it${covers('001 § Webhook token authentication › --authentication-token-webhook-cache-ttl', '001 § Limits › Authentication webhook cache')}`, async () => {
      hook.respond = () => reviewAnswer(V1BETA1, { authenticated: true, user: { username: 'u' } });
      const a = await authenticator({ cacheTTLMs: 300, implicitAudiences: ['api'] });
      for (let i = 0; i < 3; i++) expect((await a.authenticateToken('s', ['api']))?.user.name).to.equal('u');
      expect(hook.calls).to.have.length(1);
      await sleep(350);
      await a.authenticateToken('s', ['api']);
      expect(hook.calls).to.have.length(2);
    });

    it(`a failure (authenticated false) is asked once within the TTL, again after it${covers('001 § Webhook token authentication › --authentication-token-webhook-cache-ttl')}`, async () => {
      const a = await authenticator({ cacheTTLMs: 300 });
      for (let i = 0; i < 3; i++) expect(await a.authenticateToken('f', [])).to.equal(null);
      expect(hook.calls).to.have.length(1);
      await sleep(350);
      await a.authenticateToken('f', []);
      expect(hook.calls).to.have.length(2);
    });

    it('keyed by token and audiences', async () => {
      const a = await authenticator();
      await a.authenticateToken('k', ['a']);
      await a.authenticateToken('k', ['b']);
      await a.authenticateToken('k2', ['a']);
      await a.authenticateToken('k', ['a']);
      expect(hook.calls.map((c) => [c.body.spec.token, c.body.spec.audiences])).to.deep.equal([
        ['k', ['a']],
        ['k', ['b']],
        ['k2', ['a']],
      ]);
    });

    it('a rejection with error text is not cached (as upstream: errors are not cached)', async () => {
      hook.respond = () => reviewAnswer(V1BETA1, { authenticated: false, error: 'nope' });
      const a = await authenticator();
      await rejection(a.authenticateToken('e', []));
      await rejection(a.authenticateToken('e', []));
      expect(hook.calls).to.have.length(2);
    });

    it('TTL 0: nothing cached', async () => {
      const a = await authenticator({ cacheTTLMs: 0 });
      await a.authenticateToken('z', []);
      await a.authenticateToken('z', []);
      expect(hook.calls).to.have.length(2);
    });

    it('concurrent lookups of one token share one call', async () => {
      hook.respond = () => ({ hang: true });
      const a = await authenticator({ implicitAudiences: ['api'] });
      const lookups = Array.from({ length: 5 }, () => a.authenticateToken('same', ['api']));
      while (hook.calls.length === 0) await sleep(5);
      await sleep(50);
      hook.release(reviewAnswer(V1BETA1, { authenticated: true, user: { username: 'u' } }));
      const results = await Promise.all(lookups);
      expect(results.map((r) => r?.user.name)).to.deep.equal(['u', 'u', 'u', 'u', 'u']);
      expect(hook.calls).to.have.length(1);
    });
  });

  describe('failures of the call', () => {
    it('a webhook that does not answer in time: rejected after the request timeout, not retried', async () => {
      hook.respond = () => ({ hang: true });
      const a = await authenticator({ requestTimeoutMs: 200 });
      const started = Date.now();
      const message = await rejection(a.authenticateToken('slow', []));
      expect(Date.now() - started).to.be.lessThan(2000);
      expect(message).to.include('Failed to make webhook authenticator request').and.include('Client.Timeout');
      expect(hook.calls).to.have.length(1);
      hook.release({ body: {} });
    });

    it('the whole lookup is bounded (lookup timeout), retries included', async () => {
      hook.respond = () => ({ status: 500, text: 'busy' });
      const a = await authenticator({ lookupTimeoutMs: 150, retryBackoff: { initialMs: 100, factor: 1, jitter: 0, steps: 100 } });
      const started = Date.now();
      await rejection(a.authenticateToken('bounded', []));
      expect(Date.now() - started).to.be.lessThan(1000);
    });

    for (const [status, headers] of [
      [500, {}],
      [504, {}],
      [429, {}],
      [503, { 'Retry-After': '1' }],
    ] as Array<[number, Record<string, string>]>) {
      it(`HTTP ${status}${headers['Retry-After'] ? ' with Retry-After' : ''} is retried with backoff`, async () => {
        let n = 0;
        hook.respond = () => (n++ === 0 ? { status, text: 'try again', headers } : reviewAnswer(V1BETA1, { authenticated: true, user: { username: 'u' } }));
        expect((await (await authenticator()).authenticateToken(`retry-${status}`, []))?.user.name).to.equal('u');
        expect(hook.calls).to.have.length(2);
      });
    }

    it('HTTP 503 without Retry-After is not retried', async () => {
      hook.respond = () => ({ status: 503, text: 'down' });
      expect(await rejection((await authenticator()).authenticateToken('x', []))).to.include('Failed to make webhook authenticator request: the server is currently unable to handle the request');
      expect(hook.calls).to.have.length(1);
    });

    it('a reset connection is retried', async () => {
      let n = 0;
      hook.respond = () => (n++ === 0 ? { reset: true } : reviewAnswer(V1BETA1, { authenticated: true, user: { username: 'u' } }));
      expect((await (await authenticator()).authenticateToken('reset', []))?.user.name).to.equal('u');
      expect(hook.calls).to.have.length(2);
    });

    it('retries stop after the attempts of the backoff (5)', async () => {
      hook.respond = () => ({ status: 500, text: 'broken' });
      expect(await rejection((await authenticator()).authenticateToken('broken', []))).to.include('Failed to make webhook authenticator request: an error on the server ("unknown") has prevented the request from succeeding');
      expect(hook.calls).to.have.length(5);
    });

    it('a webhook that is down: rejected at once', async () => {
      const port = await freeLoopbackPort();
      const down = await hook.writeKubeconfig({ server: `https://127.0.0.1:${port}/authenticate` });
      const a = await WebhookTokenAuthenticator.fromKubeconfig(down, { retryBackoff: FAST });
      open.push(a);
      expect(await rejection(a.authenticateToken('t', []))).to.include(`Failed to make webhook authenticator request: Post "https://127.0.0.1:${port}/authenticate": dial tcp 127.0.0.1:${port}: connect: connection refused`);
    });

    it('a webhook whose certificate the kubeconfig CA does not verify: rejected before anything is sent', async () => {
      const otherCA = createCaCertificate(await generateRsaKey(), 'other-ca', 1);
      const untrusted = await hook.writeKubeconfig({ caPem: otherCA });
      const a = await WebhookTokenAuthenticator.fromKubeconfig(untrusted, { retryBackoff: FAST });
      open.push(a);
      const message = await rejection(a.authenticateToken('t', []));
      expect(message, message).to.include('Failed to make webhook authenticator request').and.include('certificate');
      expect(hook.calls).to.have.length(0);
    });
  });
});

