/**
 * Webhook admission metrics on `/metrics` (upstream admission/metrics v1.30): the latency of each
 * call by webhook, type and operation, the requests by HTTP code, and the rejections by error
 * type and rejection code.
 */
import { expect } from 'chai';
import { AdmissionWebhookServer, deny } from '../../framework/admission-webhook.js';
import { useTestServer } from '../../framework/test-server.js';
import { configMap, configMapRule, createConfiguration, urlWebhook, waitForWebhook } from './webhook-helpers.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe('integration: webhook admission metrics', function () {
  this.timeout(30_000);
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'ValidatingAdmissionWebhook'] } });
  let hook: AdmissionWebhookServer;

  before(async () => {
    hook = await AdmissionWebhookServer.start();
    await createConfiguration(server().admin, 'Validating', 'metrics-hooks', [
      urlWebhook('deny.metrics.example.com', hook.url('/deny'), hook.caBundle, { objectSelector: { matchLabels: { deny: 'yes' } }, rules: [configMapRule()] }),
      urlWebhook('allow.metrics.example.com', hook.url('/allow'), hook.caBundle, { rules: [configMapRule()] }),
    ]);
    hook.on('/deny', () => deny('no thanks', 422));
    await waitForWebhook(server().admin, hook, '/allow');
  });

  after(async () => {
    await hook.stop();
  });

  it('records allowed and rejected calls with upstream labels', async () => {
    expect((await server().admin.post(CM, configMap('metrics-allowed'))).status).to.equal(201);
    expect((await server().admin.post(CM, configMap('metrics-denied', { deny: 'yes' }))).status).to.equal(422);
    const text = (await server().admin.get('/metrics')).text;
    const value = (series: string) => Number(text.split('\n').find((l) => l.startsWith(`${series} `))?.split(' ')[1]);
    expect(value('apiserver_admission_webhook_admission_duration_seconds_count{name="allow.metrics.example.com",type="validating",operation="CREATE",rejected="false"}')).to.be.at.least(1);
    expect(value('apiserver_admission_webhook_admission_duration_seconds_count{name="deny.metrics.example.com",type="validating",operation="CREATE",rejected="true"}')).to.equal(1);
    expect(value('apiserver_admission_webhook_request_total{name="deny.metrics.example.com",type="validating",operation="CREATE",code="200",rejected="true"}')).to.equal(1);
    expect(value('apiserver_admission_webhook_rejection_count{name="deny.metrics.example.com",type="validating",operation="CREATE",error_type="no_error",rejection_code="422"}')).to.equal(1);
    expect(value('apiserver_admission_controller_admission_duration_seconds_count{name="ValidatingAdmissionWebhook",type="validate",operation="CREATE",rejected="true"}')).to.equal(1);
  });
});
