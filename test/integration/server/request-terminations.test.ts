/**
 * Requests the server ends itself, on `/metrics` (issue #16 item 3; upstream endpoints/metrics):
 * a create held by a webhook past its `timeout=1s` counts in
 * `apiserver_request_terminations_total` with code 504 under its verb and resource, and its
 * handler, aborted, in `apiserver_request_post_timeout_total`; a request rejected by API Priority
 * and Fairness counts with code 429; an admitted create is in the admission step summary
 * (`apiserver_admission_step_admission_duration_seconds_summary`) with upstream's quantiles.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { FLOWCONTROL_GROUP } from '../../../lib/apis/flowcontrol/v1/index.js';
import { APF_FLOW_SCHEMA_UID_HEADER } from '../../../lib/apis/vendor.js';
import { AdmissionWebhookServer, allow } from '../../framework/admission-webhook.js';
import { REQUEST_TIMEOUT_STATUS } from '../../framework/status-error.js';
import { useTestServer } from '../../framework/test-server.js';
import { configMap, createConfiguration, deleteConfiguration, urlWebhook, waitForWebhook } from '../admission/webhook-helpers.js';

const CM = '/api/v1/namespaces/default/configmaps';
const FC = `/apis/${FLOWCONTROL_GROUP}/v1`;
const FS_HEADER = APF_FLOW_SCHEMA_UID_HEADER.toLowerCase();
/** The labels of `apiserver_request_total` (less dry_run) of a request on the default namespace's ConfigMaps. */
const configMapLabels = (verb: string, scope: string) => `verb="${verb}",group="",version="v1",resource="configmaps",subresource="",scope="${scope}",component="apiserver"`;

/** The value of the sample `series` (labels exactly as rendered), 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('integration: requests the server ends itself (apiserver_request_terminations_total…)', function () {
  this.timeout(60_000);
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'MutatingAdmissionWebhook'] }, authorization: { modes: ['AlwaysAllow'] } });
  const admin = () => server().admin;
  const metrics = async () => {
    const res = await admin().get('/metrics');
    expect(res.status).to.equal(200);
    return res.text;
  };
  // A webhook holding every ConfigMap create labelled hang=yes until the caller gives up.
  let hook: AdmissionWebhookServer;

  before(async () => {
    hook = await AdmissionWebhookServer.start();
    await createConfiguration(admin(), 'Mutating', 'terminations-hang', [urlWebhook('hang.example.com', hook.url('/hang'), hook.caBundle, { objectSelector: { matchLabels: { hang: 'yes' } }, timeoutSeconds: 20 })]);
    hook.on('/hang', allow);
    await waitForWebhook(admin(), hook, '/hang', 'default', { hang: 'yes' });
    hook.on('/hang', () => ({ hang: true }));
  });

  after(async () => {
    await deleteConfiguration(server().admin, 'Mutating', 'terminations-hang').catch(() => undefined);
    await hook?.stop();
  });

  it('a create past its deadline is terminated with 504 under its verb and resource; its aborted handler is post-timeout error', async () => {
    const terminated = `apiserver_request_terminations_total{${configMapLabels('POST', 'resource')},code="504"}`;
    const counted = `apiserver_request_total{verb="POST",dry_run="",${configMapLabels('POST', 'resource').slice('verb="POST",'.length)},code="504"}`;
    const postTimeout = 'apiserver_request_post_timeout_total{source="rest-handler",status="error"}';
    const before = await metrics();
    const res = await admin().post(`${CM}?timeout=1s`, configMap('held-terminated', { hang: 'yes' }));
    expect(res.status).to.equal(504);
    expect(res.body).to.deep.equal(REQUEST_TIMEOUT_STATUS);
    let after = await metrics();
    expect(sample(after, terminated)).to.equal(sample(before, terminated) + 1);
    expect(sample(after, counted)).to.equal(sample(before, counted) + 1);
    expect(after).to.include('# HELP apiserver_request_terminations_total [ALPHA] Number of requests which apiserver terminated in self-defense.');
    // The response had not started: nothing was cut.
    expect(after).not.to.match(/^apiserver_request_aborts_total\{/m);
    // The webhook call stops at the deadline, so the handler ends (with an error) soon after.
    for (let i = 0; i < 50 && sample(after, postTimeout) === sample(before, postTimeout); i++) {
      await sleep(100);
      after = await metrics();
    }
    expect(sample(after, postTimeout)).to.equal(sample(before, postTimeout) + 1);
  });

  it('a request rejected by API Priority and Fairness is terminated with 429', async () => {
    // A level of no seats of its own: one request at a time runs (upstream lets one through), the others are rejected.
    const level = {
      apiVersion: `${FLOWCONTROL_GROUP}/v1`,
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'terminations-none' },
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: { type: 'Reject' } } },
    };
    const schema = {
      apiVersion: `${FLOWCONTROL_GROUP}/v1`,
      kind: 'FlowSchema',
      metadata: { name: 'terminations-dave' },
      spec: {
        priorityLevelConfiguration: { name: 'terminations-none' },
        matchingPrecedence: 500,
        rules: [{ subjects: [{ kind: 'User', user: { name: 'dave' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }],
      },
    };
    expect((await admin().post(`${FC}/prioritylevelconfigurations`, level)).status).to.equal(201);
    const created = await admin().post(`${FC}/flowschemas`, schema);
    expect(created.status).to.equal(201);
    const dave = { headers: { 'Impersonate-User': 'dave' } };
    for (let i = 0; i < 200; i++) {
      if ((await admin().get(CM, dave)).headers[FS_HEADER] === created.body.metadata.uid) break;
      await sleep(25);
    }
    const terminated = `apiserver_request_terminations_total{${configMapLabels('LIST', 'namespace')},code="429"}`;
    const before = sample(await metrics(), terminated);
    // dave's create, held by the webhook, occupies the level until its deadline.
    const reviews = hook.reviewsAt('/hang').length;
    const held = admin().post(`${CM}?timeout=3s`, configMap('held-by-dave', { hang: 'yes' }), dave);
    for (let i = 0; i < 100 && hook.reviewsAt('/hang').length === reviews; i++) await sleep(20);
    expect(hook.reviewsAt('/hang').length).to.equal(reviews + 1);
    const rejected = await admin().get(CM, dave);
    expect(rejected.status).to.equal(429);
    expect(rejected.body).to.include({ reason: 'TooManyRequests', message: 'Too many requests, please try again later.', code: 429 });
    expect(sample(await metrics(), terminated)).to.equal(before + 1);
    expect((await held).status).to.equal(504);
  });

  it('an admitted create is in the admission step summary with quantiles 0.5, 0.9 and 0.99', async () => {
    expect((await admin().post(CM, configMap(`summary-${Date.now()}`))).status).to.equal(201);
    const text = await metrics();
    expect(text).to.include(
      '# HELP apiserver_admission_step_admission_duration_seconds_summary [ALPHA] Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
    );
    expect(text).to.include('# TYPE apiserver_admission_step_admission_duration_seconds_summary summary');
    for (const type of ['admit', 'validate']) {
      const labels = `type="${type}",operation="CREATE",rejected="false"`;
      for (const q of ['0.5', '0.9', '0.99']) expect(sample(text, `apiserver_admission_step_admission_duration_seconds_summary{${labels},quantile="${q}"}`)).to.be.greaterThan(0);
      expect(sample(text, `apiserver_admission_step_admission_duration_seconds_summary_count{${labels}}`)).to.equal(sample(text, `apiserver_admission_step_admission_duration_seconds_count{${labels}}`));
    }
  });
});
