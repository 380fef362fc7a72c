import { expect } from 'chai';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { AdmissionWebhookServer, allow, deny } from '../../framework/admission-webhook.js';
import { useTestServer } from '../../framework/test-server.js';
import { configMap, configMapRule, createConfiguration, deleteConfiguration, urlWebhook, VALIDATING_PATH, waitForWebhook } from './webhook-helpers.js';

const NS = 'default';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

describe('ValidatingAdmissionWebhook against a real server and HTTPS webhooks (spec 001 § Admission control)', function () {
  this.timeout(30_000);
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'ValidatingAdmissionWebhook'] } });
  let hook: AdmissionWebhookServer;

  before(async () => {
    hook = await AdmissionWebhookServer.start();
    const admin = server().admin;
    await createConfiguration(admin, 'Validating', 'validate-cms', [
      urlWebhook('deny.example.com', hook.url('/deny'), hook.caBundle, {
        objectSelector: { matchLabels: { deny: 'yes' } },
        rules: [configMapRule(['CREATE', 'UPDATE'])],
      }),
      urlWebhook('audit.example.com', hook.url('/audit'), hook.caBundle, { rules: [configMapRule(['CREATE', 'UPDATE', 'DELETE'])] }),
    ]);
    hook.on('/deny', () => deny('no thanks', 422));
    await waitForWebhook(admin, hook, '/audit');
  });

  after(async () => {
    await hook.stop();
  });

  it('sends an AdmissionReview v1 with the request, the object and the user', async () => {
    const res = await server().admin.post(CM, configMap('review-me'));
    expect(res.status, res.text).to.equal(201);
    const review = hook.reviewsAt('/audit').find((r) => r.body.request.name === 'review-me')!;
    expect(review.query).to.equal('timeout=10s');
    const b = review.body;
    expect(b.apiVersion).to.equal(`${vendorGroup('admission')}/v1`);
    expect(b.kind).to.equal('AdmissionReview');
    const r = b.request;
    expect(r.uid).to.match(/^[0-9a-f-]{36}$/);
    expect(r.kind).to.deep.equal({ group: '', version: 'v1', kind: 'ConfigMap' });
    expect(r.resource).to.deep.equal({ group: '', version: 'v1', resource: 'configmaps' });
    expect(r.requestKind).to.deep.equal({ group: '', version: 'v1', kind: 'ConfigMap' });
    expect(r.requestResource).to.deep.equal({ group: '', version: 'v1', resource: 'configmaps' });
    expect(r).to.not.have.property('subResource');
    expect(r.namespace).to.equal(NS);
    expect(r.operation).to.equal('CREATE');
    expect(r.userInfo.username).to.be.a('string').and.not.equal('');
    expect(r.userInfo.groups).to.include('system:authenticated');
    expect(r.object.data).to.deep.equal({ k: 'v' });
    expect(r.oldObject).to.equal(null);
    expect(r.dryRun).to.equal(false);
    expect(r.options.kind).to.equal('CreateOptions');
  });

  it('sends the old object and the operation of an update and a delete', async () => {
    const admin = server().admin;
    const created = await admin.post(CM, configMap('updated'));
    expect(created.status).to.equal(201);
    const updated = await admin.put(`${CM}/updated`, { ...created.body, data: { k: 'w' } });
    expect(updated.status).to.equal(200);
    // A delete starts from the watch cache's copy and, when that copy is stale, validates again
    // from a fresh read (as upstream's conditionalDelete): a GET at the update's resourceVersion
    // waits for the cache to hold it, so that the webhook sees one DELETE.
    expect((await admin.get(`${CM}/updated?resourceVersion=${updated.body.metadata.resourceVersion}`)).status).to.equal(200);
    expect((await admin.delete(`${CM}/updated`)).status).to.equal(200);
    const seen = hook.reviewsAt('/audit').filter((r) => r.body.request.name === 'updated').map((r) => r.body.request);
    expect(seen.map((r) => r.operation)).to.deep.equal(['CREATE', 'UPDATE', 'DELETE']);
    expect(seen[1].oldObject.data).to.deep.equal({ k: 'v' });
    expect(seen[1].object.data).to.deep.equal({ k: 'w' });
    expect(seen[2].object).to.equal(null);
    expect(seen[2].oldObject.data).to.deep.equal({ k: 'w' });
    expect(seen[2].options.kind).to.equal('DeleteOptions');
  });

  it('rejects with the webhook status: its code and `admission webhook "<name>" denied the request: <message>`', async () => {
    const res = await server().admin.post(CM, configMap('denied', { deny: 'yes' }));
    expect(res.status, res.text).to.equal(422);
    expect(res.body).to.include({ kind: 'Status', status: 'Failure', code: 422 });
    expect(res.body.message).to.equal('admission webhook "deny.example.com" denied the request: no thanks');
    expect((await server().admin.get(`${CM}/denied`)).status).to.equal(404);
  });

  it('raises a denial without a code to 400, and words one without a message as upstream', async () => {
    hook.on('/deny', () => ({ response: { allowed: false } }));
    const res = await server().admin.post(CM, configMap('denied-bare', { deny: 'yes' }));
    expect(res.status, res.text).to.equal(400);
    expect(res.body.message).to.equal('admission webhook "deny.example.com" denied the request without explanation');
    hook.on('/deny', () => ({ response: { allowed: false, status: { reason: 'Forbidden', code: 403 } } }));
    const forbidden = await server().admin.post(CM, configMap('denied-reason', { deny: 'yes' }));
    expect(forbidden.status).to.equal(403);
    expect(forbidden.body.reason).to.equal('Forbidden');
    expect(forbidden.body.message).to.equal('admission webhook "deny.example.com" denied the request: Forbidden');
    hook.on('/deny', () => deny('no thanks', 422));
  });

  it('does not call a webhook whose objectSelector does not select the old or the new object', async () => {
    const before = hook.reviewsAt('/deny').length;
    expect((await server().admin.post(CM, configMap('not-selected', { deny: 'no' }))).status).to.equal(201);
    expect(hook.reviewsAt('/deny').length).to.equal(before);
  });

  it('passes the webhooks warnings on as Warning headers, dropping invalid ones', async () => {
    hook.on('/audit', () => ({ response: { allowed: true, warnings: ['first "warning"', 'bad\nline', 'second'] } }));
    const res = await server().admin.post(CM, configMap('warned'));
    hook.on('/audit', allow);
    expect(res.status, res.text).to.equal(201);
    const header = ([] as string[]).concat(res.headers.warning ?? []).join(', ');
    expect(header).to.include('299 - "first \\"warning\\""');
    expect(header).to.include('299 - "second"');
    expect(header).to.not.include('bad');
  });

  it('calls the webhooks of a request in parallel', async () => {
    const admin = server().admin;
    await createConfiguration(admin, 'Validating', 'parallel', [
      urlWebhook('slow-a.example.com', hook.url('/slow-a'), hook.caBundle, { objectSelector: { matchLabels: { parallel: 'yes' } } }),
      urlWebhook('slow-b.example.com', hook.url('/slow-b'), hook.caBundle, { objectSelector: { matchLabels: { parallel: 'yes' } } }),
    ]);
    await waitForWebhook(admin, hook, '/slow-a', NS, { parallel: 'yes' });
    hook.on('/slow-a', () => ({ response: { allowed: true }, delayMs: 600 }));
    hook.on('/slow-b', () => ({ response: { allowed: true }, delayMs: 600 }));
    const started = performance.now();
    const res = await admin.post(CM, configMap('parallel', { parallel: 'yes' }));
    const took = performance.now() - started;
    expect(res.status, res.text).to.equal(201);
    expect(took).to.be.within(600, 1100);
    await deleteConfiguration(admin, 'Validating', 'parallel');
  });

  it('never sends writes of webhook configurations to webhooks', async () => {
    const admin = server().admin;
    await createConfiguration(admin, 'Validating', 'deny-configs', [
      urlWebhook('configs.example.com', hook.url('/configs'), hook.caBundle, {
        rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
        objectSelector: { matchLabels: { probe: 'configs' } },
      }),
    ]);
    hook.on('/configs', () => deny('everything is denied', 403));
    await waitForWebhook(admin, hook, '/configs', NS, { probe: 'configs' });
    const res = await admin.post(VALIDATING_PATH, {
      apiVersion: VALIDATING_PATH.split('/').slice(2, 4).join('/'),
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'unaffected', labels: { probe: 'configs' } },
      webhooks: [],
    });
    expect(res.status, res.text).to.equal(201);
    await deleteConfiguration(admin, 'Validating', 'unaffected');
    await deleteConfiguration(admin, 'Validating', 'deny-configs');
  });
});
