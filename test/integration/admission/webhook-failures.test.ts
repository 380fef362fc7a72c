import { expect } from 'chai';
import { createServer } from 'node:net';
import { AdmissionWebhookServer, type AdmissionReply, allow } from '../../framework/admission-webhook.js';
import { useTestServer } from '../../framework/test-server.js';
import { configMap, createConfiguration, eventually, urlWebhook, waitForWebhook } from './webhook-helpers.js';

const NS = 'default';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
/** A `caBundle` that holds no PEM block. */
const BAD_CA_BUNDLE = Buffer.from('not a certificate').toString('base64');

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('Admission webhooks that fail: timeouts, unreachable, garbage answers (spec 001 § Admission control)', function () {
  this.timeout(60_000);
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook'] } });
  let hook: AdmissionWebhookServer;
  let downPort: number;
  let n = 0;
  const create = (mode: string) => server().admin.post(CM, configMap(`cm-${++n}`, { mode }));

  before(async () => {
    hook = await AdmissionWebhookServer.start();
    downPort = await closedPort();
    const admin = server().admin;
    await createConfiguration(admin, 'Validating', 'failing', [
      urlWebhook('fail.example.com', hook.url('/garbage'), hook.caBundle, { failurePolicy: 'Fail', timeoutSeconds: 1, objectSelector: { matchLabels: { mode: 'fail' } } }),
      urlWebhook('ignore.example.com', hook.url('/garbage'), hook.caBundle, { failurePolicy: 'Ignore', timeoutSeconds: 1, objectSelector: { matchLabels: { mode: 'ignore' } } }),
      urlWebhook('down.example.com', `https://127.0.0.1:${downPort}/down`, hook.caBundle, { failurePolicy: 'Fail', objectSelector: { matchLabels: { mode: 'down' } } }),
      urlWebhook('down-ignored.example.com', `https://127.0.0.1:${downPort}/down`, hook.caBundle, { failurePolicy: 'Ignore', objectSelector: { matchLabels: { mode: 'down-ignored' } } }),
      urlWebhook('hang.example.com', hook.url('/hang'), hook.caBundle, { timeoutSeconds: 30, objectSelector: { matchLabels: { mode: 'hang' } } }),
      urlWebhook('bad-ca.example.com', hook.url('/garbage'), BAD_CA_BUNDLE, { failurePolicy: 'Fail', objectSelector: { matchLabels: { mode: 'bad-ca' } } }),
      urlWebhook('bad-ca-ignored.example.com', hook.url('/garbage'), BAD_CA_BUNDLE, { failurePolicy: 'Ignore', objectSelector: { matchLabels: { mode: 'bad-ca-ignored' } } }),
    ]);
    await createConfiguration(admin, 'Mutating', 'mutating-failing', [
      urlWebhook('slow-mutating.example.com', hook.url('/slow-mutating'), hook.caBundle, { failurePolicy: 'Ignore', timeoutSeconds: 1, objectSelector: { matchLabels: { mode: 'slow-mutating' } } }),
    ]);
    hook.on('/garbage', allow);
    await waitForWebhook(admin, hook, '/garbage', NS, { mode: 'fail' });
    await waitForWebhook(admin, hook, '/slow-mutating', NS, { mode: 'slow-mutating' });
  });

  after(async () => {
    await hook.stop();
  });

  const failed = (reason: string) => `Internal error occurred: failed calling webhook "fail.example.com": ${reason}`;

  describe('a webhook slower than its timeoutSeconds', () => {
    before(() => {
      hook.on('/garbage', () => ({ response: { allowed: true }, delayMs: 3000 }));
      hook.on('/slow-mutating', () => ({ response: { allowed: true }, delayMs: 3000 }));
    });

    it('fails the request after the timeout (±100 ms) with failurePolicy Fail', async () => {
      const started = performance.now();
      const res = await create('fail');
      const took = performance.now() - started;
      expect(res.status, res.text).to.equal(500);
      expect(res.body.reason).to.equal('InternalError');
      expect(res.body.message).to.equal(failed(`failed to call webhook: Post "https://127.0.0.1:${hook.port}/garbage?timeout=1s": context deadline exceeded`));
      expect(took).to.be.within(1000, 1150);
    });

    it('admits the request after the timeout (±100 ms) with failurePolicy Ignore, validating and mutating', async () => {
      for (const mode of ['ignore', 'slow-mutating']) {
        const started = performance.now();
        const res = await create(mode);
        const took = performance.now() - started;
        expect(res.status, `${mode}: ${res.text}`).to.equal(201);
        expect(took, mode).to.be.within(1000, 1150);
      }
    });
  });

  it('bounds a call by the request too: a client going away ends the call to the webhook', async () => {
    hook.on('/hang', () => ({ hang: true }));
    const before = hook.abandoned;
    const controller = new AbortController();
    const pending = server()
      .admin.post(CM, configMap('abandoned', { mode: 'hang' }), { signal: controller.signal })
      .catch((err: Error) => err);
    await eventually(async () => hook.reviewsAt('/hang').some((r) => r.body.request.name === 'abandoned'), 'the webhook is called');
    const abortedAt = performance.now();
    controller.abort();
    await pending;
    await eventually(async () => hook.abandoned > before, 'the server gives up the call', 1000);
    expect(performance.now() - abortedAt).to.be.below(500);
  });

  it('fails closed with connection refused, and open with failurePolicy Ignore', async () => {
    const res = await create('down');
    expect(res.status, res.text).to.equal(500);
    expect(res.body.message).to.equal(
      `Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "https://127.0.0.1:${downPort}/down?timeout=10s": dial tcp 127.0.0.1:${downPort}: connect: connection refused`,
    );
    expect((await create('down-ignored')).status).to.equal(201);
  });

  it('refuses a caBundle without a certificate as upstream\'s REST client does, before any call; open with failurePolicy Ignore', async () => {
    const calls = hook.reviewsAt('/garbage').length;
    const res = await create('bad-ca');
    expect(res.status, res.text).to.equal(500);
    expect(res.body.message).to.equal('Internal error occurred: failed calling webhook "bad-ca.example.com": could not get REST client: unable to load root certificates: unable to parse bytes as PEM block');
    expect((await create('bad-ca-ignored')).status).to.equal(201);
    expect(hook.reviewsAt('/garbage').length).to.equal(calls);
  });

  const garbage: Array<[string, AdmissionReply, string | RegExp]> = [
    ['text that is not JSON', { text: 'hello' }, /^failed to call webhook: couldn't get version\/kind; json parse error: /],
    ['JSON that is not an AdmissionReview', { text: JSON.stringify({ apiVersion: 'v1', kind: 'Pod' }), contentType: 'application/json' }, 'failed to call webhook: no kind "Pod" is registered for version "v1"'],
    ['JSON without a kind', { text: '{"response":{"allowed":true}}', contentType: 'application/json' }, `failed to call webhook: Object 'Kind' is missing in '{"response":{"allowed":true}}'`],
    ['a review without a response', { text: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }) }, 'received invalid webhook response: webhook response was absent'],
    ['another uid', { response: { uid: 'not-mine', allowed: true } }, /^received invalid webhook response: expected response\.uid="[0-9a-f-]{36}", got "not-mine"$/],
    ['allowed of the wrong type', { response: { allowed: 'yes' } }, 'failed to call webhook: json: cannot unmarshal string into Go struct field AdmissionReview.response.allowed of type bool'],
    ['a patch from a validating webhook', { response: { allowed: true, patchType: 'JSONPatch', patch: Buffer.from('[]').toString('base64') } }, 'received invalid webhook response: validating webhook may not return response.patch'],
    ['an error status with text', { text: 'boom', status: 500 }, 'failed to call webhook: an error on the server ("boom") has prevented the request from succeeding'],
    ['a 404', { text: 'nope', status: 404 }, 'failed to call webhook: the server could not find the requested resource'],
    ['a body over 3 MiB', { oversize: 4 * 1024 * 1024 }, 'failed to call webhook: the response body is larger than 3145728 bytes'],
    ['a reset connection', { reset: true }, `failed to call webhook: Post "https://127.0.0.1:PORT/garbage?timeout=1s": EOF`],
  ];

  for (const [what, reply, reason] of garbage) {
    it(`decides by the failure policy on ${what}`, async () => {
      hook.on('/garbage', () => reply);
      const res = await create('fail');
      expect(res.status, res.text).to.equal(500);
      const prefix = 'Internal error occurred: failed calling webhook "fail.example.com": ';
      expect(res.body.message.startsWith(prefix), res.body.message).to.equal(true);
      const got = res.body.message.slice(prefix.length).replace(`:${hook.port}/`, ':PORT/');
      if (typeof reason === 'string') expect(got).to.equal(reason);
      else expect(got).to.match(reason);
      const ignored = await create('ignore');
      expect(ignored.status, ignored.text).to.equal(201);
    });
  }

  it('keeps serving after all of that', async () => {
    hook.on('/garbage', allow);
    expect((await server().admin.get('/readyz')).status).to.equal(200);
    expect((await create('fail')).status).to.equal(201);
  });
});
