import { expect } from 'chai';
import { AdmissionWebhookServer, allow, deny } from '../../framework/admission-webhook.js';
import { useTestServer } from '../../framework/test-server.js';
import { configMap, configMapRule, createConfiguration, deleteConfiguration, eventually, urlWebhook, VALIDATING_PATH, waitForWebhook } from './webhook-helpers.js';

const NS = 'default';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const HOOK_NS = 'webhooks';

describe('Admission webhooks behind a Service, client reuse and configuration changes (spec 001 § Admission control)', function () {
  this.timeout(30_000);
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'ValidatingAdmissionWebhook'] } });
  let hook: AdmissionWebhookServer;
  let n = 0;
  const create = (labels: Record<string, string>, query = '') => server().admin.post(`${CM}${query}`, configMap(`cm-${++n}`, labels));

  before(async () => {
    hook = await AdmissionWebhookServer.start([`hooks.${HOOK_NS}.svc`], true);
    const admin = server().admin;
    expect((await admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: HOOK_NS } })).status).to.equal(201);
  });

  after(async () => {
    await hook.stop();
  });

  describe('a webhook referenced by service', () => {
    const webhook = {
      name: 'service.example.com',
      clientConfig: { service: { namespace: HOOK_NS, name: 'hooks', path: '/service', port: 8443 }, caBundle: '' },
      rules: [configMapRule()],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      objectSelector: { matchLabels: { via: 'service' } },
    };

    before(async () => {
      webhook.clientConfig.caBundle = hook.caBundle;
      await createConfiguration(server().admin, 'Validating', 'by-service', [webhook]);
    });

    it('fails by its failure policy while the Service does not exist', async () => {
      await eventually(async () => (await create({ via: 'service' })).status === 500, 'the configuration is in effect');
      const res = await create({ via: 'service' });
      expect(res.body.message).to.equal(
        `Internal error occurred: failed calling webhook "service.example.com": failed to call webhook: Post "https://hooks.${HOOK_NS}.svc:8443/service?timeout=10s": services "hooks" not found`,
      );
    });

    it('fails while the Service has no endpoints', async () => {
      const admin = server().admin;
      const svc = await admin.post(`/api/v1/namespaces/${HOOK_NS}/services`, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'hooks' },
        spec: { ports: [{ name: 'https', port: 8443, targetPort: hook.port }] },
      });
      expect(svc.status, svc.text).to.equal(201);
      await eventually(async () => ((await create({ via: 'service' })).body?.message ?? '').endsWith('endpoints "hooks" not found'), 'the Service is seen');
    });

    it('calls an endpoint of the Service, verifying TLS for <name>.<namespace>.svc', async function () {
      // Endpoints may not name a loopback address: the webhook must be reachable on another one.
      const address = AdmissionWebhookServer.externalAddress();
      if (!address) this.skip();
      const admin = server().admin;
      const eps = await admin.post(`/api/v1/namespaces/${HOOK_NS}/endpoints`, {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'hooks' },
        subsets: [{ addresses: [{ ip: address }], ports: [{ name: 'https', port: hook.port }] }],
      });
      expect(eps.status, eps.text).to.equal(201);
      hook.on('/service', () => deny('denied through the service', 403));
      await eventually(async () => (await create({ via: 'service' })).status === 403, 'the Endpoints are seen');
      const res = await create({ via: 'service' });
      expect(res.body.message).to.equal('admission webhook "service.example.com" denied the request: denied through the service');
      expect(hook.reviewsAt('/service').at(-1)!.query).to.equal('timeout=10s');
    });

    after(async () => {
      await deleteConfiguration(server().admin, 'Validating', 'by-service');
    });
  });

  it('fails a webhook whose certificate does not name the host called', async () => {
    const admin = server().admin;
    await createConfiguration(admin, 'Validating', 'wrong-name', [
      urlWebhook('wrong-name.example.com', `https://localhost:${hook.port}/wrong-name`, hook.caBundle, { objectSelector: { matchLabels: { tls: 'name' } } }),
    ]);
    await eventually(async () => (await create({ tls: 'name' })).status === 500, 'the configuration is in effect');
    const res = await create({ tls: 'name' });
    expect(res.body.message).to.match(/failed to call webhook: Post "https:\/\/localhost:\d+\/wrong-name\?timeout=10s": tls: failed to verify certificate: x509: certificate is valid for .*, not localhost$/);
    await deleteConfiguration(admin, 'Validating', 'wrong-name');
  });

  it('reuses keep-alive connections to a webhook across requests', async () => {
    const admin = server().admin;
    await createConfiguration(admin, 'Validating', 'reuse', [urlWebhook('reuse.example.com', hook.url('/reuse'), hook.caBundle, { objectSelector: { matchLabels: { reuse: 'yes' } } })]);
    await waitForWebhook(admin, hook, '/reuse', NS, { reuse: 'yes' });
    const before = hook.connections;
    for (let i = 0; i < 5; i++) expect((await create({ reuse: 'yes' })).status).to.equal(201);
    expect(hook.connections - before).to.equal(0);
    await deleteConfiguration(admin, 'Validating', 'reuse');
  });

  it('puts configuration changes into effect within a second', async () => {
    const admin = server().admin;
    const labels = { change: 'yes' };
    const start = performance.now();
    await createConfiguration(admin, 'Validating', 'changing', [urlWebhook('change.example.com', hook.url('/change-a'), hook.caBundle, { objectSelector: { matchLabels: labels } })]);
    hook.on('/change-a', () => deny('a', 403));
    hook.on('/change-b', allow);
    await eventually(async () => (await create(labels)).status === 403, 'created', 1000);
    expect(performance.now() - start).to.be.below(1000);
    const current = (await admin.get(`${VALIDATING_PATH}/changing`)).body;
    current.webhooks[0].clientConfig.url = hook.url('/change-b');
    const updatedAt = performance.now();
    expect((await admin.put(`${VALIDATING_PATH}/changing`, current)).status).to.equal(200);
    await eventually(async () => (await create(labels)).status === 201, 'updated', 1000);
    expect(performance.now() - updatedAt).to.be.below(1000);
    hook.on('/change-b', () => deny('b', 403));
    const deletedAt = performance.now();
    await deleteConfiguration(admin, 'Validating', 'changing');
    await eventually(async () => (await create(labels)).status === 201, 'deleted', 1000);
    expect(performance.now() - deletedAt).to.be.below(1000);
  });
});
