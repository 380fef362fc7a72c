import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { AdmissionWebhookServer, allow } from '../../framework/admission-webhook.js';
import { useTestServer } from '../../framework/test-server.js';
import { configMap, createConfiguration, deleteConfiguration, urlWebhook, waitForWebhook } from '../admission/webhook-helpers.js';
import { REQUEST_TIMEOUT_STATUS } from '../../framework/status-error.js';

describe('server: request timeouts (issue #19 item 3; integration)', function () {
  this.timeout(30_000);
  const server = useTestServer({
    timeouts: { requestTimeoutMs: 60_000, minRequestTimeoutSeconds: 2 },
    admission: { plugins: ['NamespaceLifecycle', 'MutatingAdmissionWebhook'] },
  });
  const CM = '/api/v1/namespaces/default/configmaps';
  let hook: AdmissionWebhookServer | undefined;

  after(async () => {
    await deleteConfiguration(server().admin, 'Mutating', 'request-timeout-hang').catch(() => undefined);
    await hook?.stop();
  });

  it('timeout=1s ends a request held by a webhook with 504 Timeout, and aborts the webhook call', async () => {
    hook = await AdmissionWebhookServer.start();
    const admin = server().admin;
    await createConfiguration(admin, 'Mutating', 'request-timeout-hang', [urlWebhook('hang.example.com', hook.url('/hang'), hook.caBundle, { objectSelector: { matchLabels: { hang: 'yes' } }, timeoutSeconds: 20 })]);
    hook.on('/hang', allow);
    await waitForWebhook(admin, hook, '/hang', 'default', { hang: 'yes' });
    hook.on('/hang', () => ({ hang: true }));
    const res = await admin.post(`${CM}?timeout=1s`, configMap('held', { hang: 'yes' }));
    expect(res.status).to.equal(504);
    expect(res.body).to.deep.equal(REQUEST_TIMEOUT_STATUS);
    // The request's signal aborted at the deadline: the webhook's connection is dropped long before its own 20 s.
    for (let i = 0; i < 50 && hook.abandoned === 0; i++) await sleep(100);
    expect(hook.abandoned).to.equal(1);
    expect((await admin.get(`${CM}/held`)).status).to.equal(404);
  });

  it('a malformed timeout query parameter is 400 BadRequest with upstream message', async () => {
    const res = await server().admin.get(`${CM}?timeout=10`);
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'invalid timeout specified in the request URL - time: missing unit in duration "10"',
      reason: 'BadRequest',
      code: 400,
    });
  });

  it('a well-formed timeout is accepted on short requests', async () => {
    expect((await server().admin.get(`${CM}?timeout=5s`)).status).to.equal(200);
    expect((await server().admin.get(`${CM}?timeout=0s`)).status).to.equal(200);
  });

  it('a watch without timeoutSeconds ends between --min-request-timeout and twice it', async () => {
    const started = Date.now();
    const watch = await server().admin.watch(`${CM}?watch=true`);
    try {
      expect(watch.status).to.equal(200);
      expect(await watch.next(10_000)).to.equal(null);
      const lasted = Date.now() - started;
      expect(lasted).to.be.at.least(1_900).and.below(6_000);
    } finally {
      watch.close();
    }
  });
});
