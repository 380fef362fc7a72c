/**
 * The storage, watch cache, admission and filter metrics (upstream v1.30 names, buckets and
 * stability levels) rendered from a registry of their own.
 */
import { expect } from 'chai';
import { ADMISSION_DURATION_BUCKETS, AdmissionMetrics, STEP_SUMMARY_MAX_AGE_SECONDS, STEP_SUMMARY_QUANTILES, WEBHOOK_DURATION_BUCKETS } from '../../../lib/metrics/admission.js';
import { AUTH_DURATION_BUCKETS, AuthMetrics } from '../../../lib/metrics/auth.js';
import { LatencyTrackers } from '../../../lib/metrics/latency-trackers.js';
import { StabilityRegistry } from '../../../lib/metrics/registry.js';
import { RequestTerminationMetrics } from '../../../lib/metrics/request-terminations.js';
import { ETCD_REQUEST_BUCKETS, groupResourceString, StorageMetrics } from '../../../lib/metrics/storage.js';
import { WatchCacheMetrics } from '../../../lib/metrics/watch-cache.js';

describe('metric instruments', () => {
  it('buckets match upstream', () => {
    expect(ETCD_REQUEST_BUCKETS).to.deep.equal([0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60]);
    expect(ADMISSION_DURATION_BUCKETS).to.deep.equal([0.005, 0.025, 0.1, 0.5, 1.0, 2.5]);
    expect(WEBHOOK_DURATION_BUCKETS).to.deep.equal([0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25]);
    expect(STEP_SUMMARY_QUANTILES).to.deep.equal([0.5, 0.9, 0.99]);
    expect(STEP_SUMMARY_MAX_AGE_SECONDS).to.equal(5 * 3600);
    expect(AUTH_DURATION_BUCKETS.map((b) => Number(b.toPrecision(6)))).to.deep.equal([0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024, 2.048, 4.096, 8.192, 16.384]);
  });

  it('storage: etcd requests by operation and type, LIST costs, object counts; the deprecated db size is hidden', async () => {
    const r = new StabilityRegistry();
    const m = new StorageMetrics(r);
    m.sizeSource = async () => 4096;
    const pods = m.forResource(groupResourceString('', 'pods'));
    pods.request('create', process.hrtime.bigint(), false);
    pods.request('get', process.hrtime.bigint(), true);
    pods.list(10, 10, 3);
    m.setObjectCount(groupResourceString('apps', 'deployments'), 7);
    const text = await r.registry.metrics();
    expect(text).to.include('# HELP etcd_request_duration_seconds [ALPHA] Etcd request latency in seconds for each operation and object type.');
    expect(text).to.include('etcd_requests_total{operation="create",type="pods"} 1');
    expect(text).to.include('etcd_request_errors_total{operation="get",type="pods"} 1');
    expect(text).not.to.include('etcd_request_errors_total{operation="create"');
    expect(text).to.include('apiserver_storage_list_fetched_objects_total{resource="pods"} 10');
    expect(text).to.include('apiserver_storage_list_returned_objects_total{resource="pods"} 3');
    expect(text).to.include('# HELP apiserver_storage_objects [STABLE] Number of stored objects at the time of last check split by kind.');
    expect(text).to.include('apiserver_storage_objects{resource="deployments.apps"} 7');
    expect(text).to.include('apiserver_storage_size_bytes{storage_cluster_id="etcd-0"} 4096');
    expect(r.hiddenMetrics()).to.deep.equal(['apiserver_storage_db_total_size_in_bytes']);
  });

  it('storage: no size sample when etcd does not answer', async () => {
    const r = new StabilityRegistry();
    const m = new StorageMetrics(r);
    m.sizeSource = () => Promise.reject(new Error('down'));
    expect(await r.registry.metrics()).not.to.match(/^apiserver_storage_size_bytes\{/m);
  });

  it('watch cache: received, dispatched, initializations, terminated watchers, capacity, lists', async () => {
    const r = new StabilityRegistry();
    const m = new WatchCacheMetrics(r);
    const c = m.forResource('pods', '/core/pods', 100);
    c.events(3, false);
    c.events(2, true);
    c.initialized();
    c.initEvents(4);
    c.listed(5, 2);
    c.terminated();
    m.sizes('pods', 'pods', { objects: 5, events: 5, watchers: 1, resourceVersion: 42 });
    const text = await r.registry.metrics();
    expect(text).to.include('apiserver_watch_cache_events_received_total{resource="pods"} 5');
    expect(text).to.include('apiserver_watch_cache_events_dispatched_total{resource="pods"} 2');
    expect(text).to.include('apiserver_watch_cache_initializations_total{resource="pods"} 1');
    expect(text).to.include('apiserver_init_events_total{resource="pods"} 4');
    expect(text).to.include('apiserver_terminated_watchers_total{resource="pods"} 1');
    expect(text).to.include('watch_cache_capacity{resource="pods"} 100');
    expect(text).to.include('apiserver_cache_list_fetched_objects_total{resource_prefix="/core/pods",index=""} 5');
    expect(text).to.include('apiserver_cache_list_returned_objects_total{resource_prefix="/core/pods"} 2');
    expect(text).to.include('apiserver_watch_cache_resource_version{resource="pods"} 42');
    expect(text).to.include('apiserver_watch_cache_watchers{resource="pods"} 1');
  });

  it('admission: steps, controllers, webhooks with bounded codes; webhook time is tracked per request', async () => {
    const r = new StabilityRegistry();
    const trackers = new LatencyTrackers();
    const m = new AdmissionMetrics(r, trackers);
    const ctx = {};
    m.observeStep('admit', 'CREATE', false, 0.01);
    m.observeController('LimitRanger', 'validate', 'UPDATE', true, 0.001);
    m.observeWebhook(ctx, 'hook.example.com', 'validating', 'CREATE', 0.2, 200, { rejected: true, errorType: 'no_error', code: 799 });
    m.observeWebhook(ctx, 'hook.example.com', 'admit', 'DELETE', 0.3, 0, { rejected: true, errorType: 'calling_webhook_error' });
    m.observeWebhook(ctx, 'hook.example.com', 'admit', 'CREATE', 0.1, 200, { rejected: false });
    const text = await r.registry.metrics();
    expect(text).to.include('apiserver_admission_step_admission_duration_seconds_count{type="admit",operation="CREATE",rejected="false"} 1');
    expect(text).to.include(
      '# HELP apiserver_admission_step_admission_duration_seconds_summary [ALPHA] Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
    );
    expect(text).to.include('# TYPE apiserver_admission_step_admission_duration_seconds_summary summary');
    for (const q of ['0.5', '0.9', '0.99']) expect(text).to.include(`apiserver_admission_step_admission_duration_seconds_summary{type="admit",operation="CREATE",rejected="false",quantile="${q}"} 0.01`);
    expect(text).to.include('apiserver_admission_step_admission_duration_seconds_summary_sum{type="admit",operation="CREATE",rejected="false"} 0.01');
    expect(text).to.include('apiserver_admission_step_admission_duration_seconds_summary_count{type="admit",operation="CREATE",rejected="false"} 1');
    expect(text).to.include('apiserver_admission_controller_admission_duration_seconds_count{name="LimitRanger",type="validate",operation="UPDATE",rejected="true"} 1');
    expect(text).to.include('apiserver_admission_webhook_rejection_count{name="hook.example.com",type="validating",operation="CREATE",error_type="no_error",rejection_code="600"} 1');
    expect(text).to.include('apiserver_admission_webhook_rejection_count{name="hook.example.com",type="admit",operation="DELETE",error_type="calling_webhook_error",rejection_code="0"} 1');
    expect(text).to.include('apiserver_admission_webhook_request_total{name="hook.example.com",type="admit",operation="CREATE",code="200",rejected="false"} 1');
    expect(text).to.include('# HELP apiserver_admission_webhook_admission_duration_seconds [STABLE] ');
    expect(trackers.excluded(ctx)).to.be.closeTo(0.6, 1e-9);
    expect(trackers.excluded({})).to.equal(0);
  });

  it('requests the server ends itself: terminations by code, aborts without component, post-timeout activity', async () => {
    const r = new StabilityRegistry();
    const m = new RequestTerminationMetrics(r);
    const labels = { verb: 'POST', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'resource', component: 'apiserver' };
    m.terminated(labels, 504);
    m.terminated({ ...labels, verb: 'LIST', scope: 'namespace' }, 429);
    m.aborted(labels);
    m.postTimeout('rest-handler', 'error');
    m.postTimeout('rest-handler', 'pending');
    const text = await r.registry.metrics();
    expect(text).to.include('# HELP apiserver_request_terminations_total [ALPHA] Number of requests which apiserver terminated in self-defense.');
    expect(text).to.include('apiserver_request_terminations_total{verb="POST",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver",code="504"} 1');
    expect(text).to.include('apiserver_request_terminations_total{verb="LIST",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="429"} 1');
    expect(text).to.include(
      '# HELP apiserver_request_aborts_total [ALPHA] Number of requests which apiserver aborted possibly due to a timeout, for each group, version, verb, resource, subresource and scope',
    );
    expect(text).to.include('apiserver_request_aborts_total{verb="POST",group="",version="v1",resource="configmaps",subresource="",scope="resource"} 1');
    expect(text).to.include(
      '# HELP apiserver_request_post_timeout_total [ALPHA] Tracks the activity of the request handlers after the associated requests have been timed out by the apiserver',
    );
    expect(text).to.include('apiserver_request_post_timeout_total{source="rest-handler",status="error"} 1');
    expect(text).to.include('apiserver_request_post_timeout_total{source="rest-handler",status="pending"} 1');
  });

  it('filters: user names compressed to a bounded set', async () => {
    const r = new StabilityRegistry();
    const m = new AuthMetrics(r, new Set(['admin', 'kubelet']));
    expect(m.compressUsername('admin')).to.equal('admin');
    expect(m.compressUsername('kubelet')).to.equal('kubelet');
    expect(m.compressUsername('jane@example.com')).to.equal('email_id');
    expect(m.compressUsername('system:serviceaccount:ns:sa')).to.equal('other');
    m.authentication('success', process.hrtime.bigint(), 'jane@example.com');
    m.authentication('failure', process.hrtime.bigint());
    m.authorization('denied', process.hrtime.bigint());
    const text = await r.registry.metrics();
    expect(text).to.include('authenticated_user_requests{username="email_id"} 1');
    expect(text).to.include('authentication_attempts{result="failure"} 1');
    expect(text).to.include('authorization_attempts_total{result="denied"} 1');
    expect(text).not.to.include('jane');
  });
});
