/**
 * `/metrics` with upstream's names, labels and buckets (issue #16 item 3): the request metrics
 * after a create, list, watch, apply and dry-run; bounded labels for URLs that name nothing the
 * server serves; storage, etcd, watch cache, admission, authentication and authorization metrics
 * with plausible values; and who may read `/metrics` (upstream's default policy: the
 * `system:monitoring` group, and cluster admins).
 */
import { expect } from 'chai';
import { encodeContinue } from '../../../lib/storage/continue.js';
import { eventually } from '../../framework/storage-contract.js';
import { useTestServer } from '../../framework/test-server.js';

const NS = 'default';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

/** The value of the sample `name{labels}` (labels exactly as rendered), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** `name{…}` of the request metrics' common labels. */
function requestSeries(name: string, l: { verb: string; dryRun?: string; resource?: string; scope: string; code?: string }, withDryRun = true): string {
  const parts = [`verb="${l.verb}"`];
  if (withDryRun) parts.push(`dry_run="${l.dryRun ?? ''}"`);
  parts.push('group=""', 'version="v1"', `resource="${l.resource ?? 'configmaps'}"`, 'subresource=""', `scope="${l.scope}"`, 'component="apiserver"');
  if (l.code !== undefined) parts.push(`code="${l.code}"`);
  return `${name}{${parts.join(',')}}`;
}

describe('integration: /metrics', function () {
  this.timeout(60_000);
  const server = useTestServer();
  const admin = () => server().admin;
  const metrics = async () => {
    const res = await admin().get('/metrics');
    expect(res.status).to.equal(200);
    return res.text;
  };

  it('counts a create, a list, a dry-run create and an apply with upstream labels and buckets', async () => {
    const name = `m-${Date.now()}`;
    expect((await admin().post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } })).status).to.equal(201);
    expect((await admin().get(CM)).status).to.equal(200);
    expect((await admin().post(`${CM}?dryRun=All`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-dry` } })).status).to.equal(201);
    const apply = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-applied` }, data: { b: '2' } };
    expect((await admin().patch(`${CM}/${name}-applied?fieldManager=metrics-test`, apply, 'application/apply-patch+yaml')).status).to.equal(201);
    const text = await metrics();
    expect(sample(text, requestSeries('apiserver_request_total', { verb: 'POST', scope: 'resource', code: '201' }))).to.be.at.least(1);
    expect(sample(text, requestSeries('apiserver_request_total', { verb: 'POST', dryRun: 'All', scope: 'resource', code: '201' }))).to.be.at.least(1);
    expect(sample(text, requestSeries('apiserver_request_total', { verb: 'LIST', scope: 'namespace', code: '200' }))).to.be.at.least(1);
    expect(sample(text, requestSeries('apiserver_request_total', { verb: 'APPLY', scope: 'resource', code: '201' }))).to.be.at.least(1);
    expect(sample(text, requestSeries('apiserver_request_duration_seconds_count', { verb: 'LIST', scope: 'namespace' }))).to.be.at.least(1);
    expect(text).to.include('# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.');
    const les = (metric: string) => [...new Set([...text.matchAll(new RegExp(`^${metric}_bucket\\{[^}]*le="([^"]+)"`, 'gm'))].map((m) => m[1]))];
    expect(les('apiserver_request_duration_seconds')).to.deep.equal(['0.005', '0.025', '0.05', '0.1', '0.2', '0.4', '0.6', '0.8', '1', '1.25', '1.5', '2', '3', '4', '5', '6', '8', '10', '15', '20', '30', '45', '60', '+Inf']);
    expect(les('apiserver_response_sizes')).to.deep.equal(['1000', '10000', '100000', '1000000', '10000000', '100000000', '1000000000', '+Inf']);
    expect(sample(text, requestSeries('apiserver_response_sizes_count', { verb: 'LIST', scope: 'namespace' }, false))).to.be.at.least(1);
    expect(sample(text, requestSeries('apiserver_request_sli_duration_seconds_count', { verb: 'POST', scope: 'resource' }, false))).to.be.at.least(1);
  });

  it('the response size of a streamed list is the bytes written', async function () {
    this.timeout(120_000);
    const ns = `metrics-big-${Date.now()}`;
    expect((await admin().post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status).to.equal(201);
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    for (let i = 0; i < 501; i += 25) {
      // data makes the list larger than the 128 KiB under which a list is answered as one buffer (issue #17 item 5)
      await Promise.all(Array.from({ length: Math.min(25, 501 - i) }, (_, j) => admin().post(cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i + j}` }, data: { v: 'x'.repeat(300) } })));
    }
    const series = requestSeries('apiserver_response_sizes_sum', { verb: 'LIST', scope: 'namespace' }, false);
    const before = sample(await metrics(), series) ?? 0;
    const list = await admin().get(cms);
    expect(list.body.items).to.have.length(501);
    expect(list.headers['content-length']).to.equal(undefined);
    expect((sample(await metrics(), series) ?? 0) - before).to.equal(list.bytes.length);
  });

  it('a watch is long-running while open, then counted as WATCH with its events', async () => {
    const watch = await admin().watch(`${CM}?watch=true`);
    try {
      await admin().post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'w-' } });
      await watch.next();
      const open = await metrics();
      expect(sample(open, requestSeries('apiserver_longrunning_requests', { verb: 'WATCH', scope: 'namespace' }, false))).to.equal(1);
      expect(sample(open, 'apiserver_watch_events_total{group="",version="v1",kind="ConfigMap"}')).to.be.at.least(1);
      expect(sample(open, 'apiserver_watch_events_sizes_count{group="",version="v1",kind="ConfigMap"}')).to.be.at.least(1);
    } finally {
      watch.close();
    }
    for (let i = 0; i < 50; i++) {
      const text = await metrics();
      if (sample(text, requestSeries('apiserver_longrunning_requests', { verb: 'WATCH', scope: 'namespace' }, false)) === 0) {
        expect(sample(text, requestSeries('apiserver_request_total', { verb: 'WATCH', scope: 'namespace', code: '200' }))).to.be.at.least(1);
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect.fail('the watch stayed in apiserver_longrunning_requests after it closed');
  });

  it('URLs naming nothing served, and unknown methods, add no series with the raw path or verb', async () => {
    expect((await admin().get('/api/v1/namespaces/default/nosuchthingsxyz/abc')).status).to.equal(404);
    expect((await admin().get('/apis/nosuchgroupxyz.example.com/v9/widgets')).status).to.equal(404);
    expect((await admin().get('/garbage-path-xyz/more')).status).to.equal(404);
    expect((await admin().get(`/api/v1/namespaces/${NS}/configmaps/x/nosuchsubxyz`)).status).to.equal(404);
    await admin().request('OPTIONS', CM);
    const text = await metrics();
    for (const raw of ['nosuchthingsxyz', 'nosuchgroupxyz', 'garbage-path-xyz', 'nosuchsubxyz', 'OPTIONS']) expect(text).not.to.include(raw);
    expect(sample(text, 'apiserver_request_total{verb="GET",dry_run="",group="",version="",resource="",subresource="",scope="resource",component="apiserver",code="404"}')).to.be.at.least(1);
    expect(sample(text, 'apiserver_request_total{verb="LIST",dry_run="",group="",version="",resource="",subresource="",scope="cluster",component="apiserver",code="404"}')).to.be.at.least(1);
    expect(text).to.match(/^apiserver_request_total\{verb="other",[^}]*resource="configmaps"/m);
  });

  it('storage, etcd and watch cache metrics', async () => {
    await admin().post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 's-' } });
    // A list continuing at the newest revision (a token of revision -1, as a 410 for a compacted
    // token hands out) is served by etcd itself; other continued lists come from the watch cache.
    const newest = encodeContinue('a', '', -1);
    expect((await admin().get(`/api/v1/namespaces?limit=1&continue=${encodeURIComponent(newest)}`)).status).to.equal(200);
    const text = await metrics();
    expect(sample(text, 'etcd_request_duration_seconds_count{operation="create",type="configmaps"}')).to.be.at.least(1);
    expect(sample(text, 'etcd_requests_total{operation="create",type="configmaps"}')).to.be.at.least(1);
    expect(sample(text, 'apiserver_storage_objects{resource="namespaces"}')).to.be.at.least(4);
    expect(sample(text, 'apiserver_storage_objects{resource="clusterroles.rbac.authorization.orch.io"}')).to.be.at.least(10);
    expect(sample(text, 'apiserver_storage_list_total{resource="configmaps"}')).to.be.at.least(1);
    expect(sample(text, 'apiserver_storage_list_returned_objects_total{resource="namespaces"}')).to.be.at.least(1);
    expect(sample(text, 'apiserver_storage_size_bytes{storage_cluster_id="etcd-0"}')).to.be.greaterThan(0);
    expect(sample(text, 'apiserver_watch_cache_initializations_total{resource="configmaps"}')).to.be.at.least(1);
    expect(sample(text, 'apiserver_watch_cache_events_received_total{resource="configmaps"}')).to.be.at.least(1);
    expect(sample(text, 'watch_cache_capacity{resource="configmaps"}')).to.equal(100000);
    expect(sample(text, 'apiserver_watch_cache_resource_version{resource="configmaps"}')).to.be.greaterThan(0);
    expect(text).not.to.match(/^apiserver_storage_db_total_size_in_bytes/m);
  });

  it('a watch cache that no start-up step reads is started once the server is ready, with no request for it', async () => {
    // The control plane starts such caches after its post-start hooks (issue #22); nothing here reads CronJobs.
    const initialized = async () => (sample(await metrics(), 'apiserver_watch_cache_initializations_total{resource="cronjobs.batch"}') ?? 0) >= 1;
    await eventually(initialized, 20_000, 'the CronJob watch cache initialized');
  });

  it('admission steps and controllers, accepted and rejected', async () => {
    await admin().post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'a-' } });
    expect((await admin().post('/api/v1/namespaces/no-such-ns-metrics/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } })).status).to.equal(404);
    const text = await metrics();
    expect(sample(text, 'apiserver_admission_step_admission_duration_seconds_count{type="validate",operation="CREATE",rejected="false"}')).to.be.at.least(1);
    expect(sample(text, 'apiserver_admission_step_admission_duration_seconds_count{type="admit",operation="CREATE",rejected="true"}')).to.be.at.least(1);
    expect(sample(text, 'apiserver_admission_controller_admission_duration_seconds_count{name="NamespaceLifecycle",type="admit",operation="CREATE",rejected="true"}')).to.be.at.least(1);
    expect(sample(text, 'apiserver_admission_controller_admission_duration_seconds_count{name="NamespaceLifecycle",type="admit",operation="CREATE",rejected="false"}')).to.be.at.least(1);
    expect(text).to.include('# HELP apiserver_admission_webhook_admission_duration_seconds [STABLE] ');
  });

  it('authentication and authorization attempts by result, users by compressed name', async () => {
    expect((await admin().get('/api/v1/namespaces', { creds: { token: 'not-a-valid-token' } })).status).to.equal(401);
    expect((await server().anonymous.get('/api/v1/namespaces')).status).to.equal(403);
    const text = await metrics();
    expect(sample(text, 'authentication_attempts{result="success"}')).to.be.at.least(1);
    expect(sample(text, 'authentication_attempts{result="failure"}')).to.be.at.least(1);
    expect(sample(text, 'authentication_duration_seconds_count{result="success"}')).to.be.at.least(1);
    expect(sample(text, 'authenticated_user_requests{username="other"}')).to.be.at.least(2);
    expect(text.split('\n').filter((l) => l.startsWith('authenticated_user_requests{')).map((l) => l.replace(/ .*/, ''))).to.deep.equal(['authenticated_user_requests{username="other"}']);
    expect(sample(text, 'authorization_attempts_total{result="allowed"}')).to.be.at.least(1);
    expect(sample(text, 'authorization_attempts_total{result="no-opinion"}')).to.be.at.least(1);
    expect(sample(text, 'authorization_duration_seconds_count{result="allowed"}')).to.be.at.least(1);
    expect(text).not.to.include('system:anonymous');
  });

  it('terminal decisions of each authorizer of the chain by type and name (apiserver_authorization_decisions_total)', async () => {
    const monitoring = { headers: { 'Impersonate-User': 'prometheus', 'Impersonate-Group': 'system:monitoring' } };
    const before = sample(await metrics(), 'apiserver_authorization_decisions_total{type="RBAC",name="rbac",decision="allowed"}') ?? 0;
    expect((await admin().get('/metrics', monitoring)).status).to.equal(200);
    const text = await metrics();
    // The impersonating admin is allowed by its group ahead of the chain: only the request itself is an RBAC allow.
    expect(sample(text, 'apiserver_authorization_decisions_total{type="RBAC",name="rbac",decision="allowed"}')).to.equal(before + 1);
    expect(text).to.match(/^# HELP apiserver_authorization_decisions_total \[ALPHA\] Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision\.$/m);
    expect(text).to.not.match(/^apiserver_authorization_decisions_total\{[^}]*decision="no-opinion"/m);
  });

  it('process and runtime metrics, ALPHA', async () => {
    const text = await metrics();
    expect(text).to.match(/^# HELP process_cpu_user_seconds_total \[ALPHA\] /m);
    expect(sample(text, 'process_start_time_seconds')).to.be.greaterThan(0);
    expect(sample(text, 'process_resident_memory_bytes')).to.be.greaterThan(0);
    expect(text).to.match(/^nodejs_eventloop_lag_seconds /m);
  });

  it('/metrics is authorized as a non-resource URL: admins and system:monitoring, not anonymous', async () => {
    expect((await admin().get('/metrics')).status).to.equal(200);
    const anonymous = await server().anonymous.get('/metrics');
    expect(anonymous.status).to.equal(403);
    expect(anonymous.body.message).to.equal('forbidden: User "system:anonymous" cannot get path "/metrics"');
    const monitoring = { headers: { 'Impersonate-User': 'prometheus', 'Impersonate-Group': 'system:monitoring' } };
    expect((await admin().get('/metrics', monitoring)).status).to.equal(200);
    const other = await admin().get('/metrics', { headers: { 'Impersonate-User': 'someone' } });
    expect(other.status).to.equal(403);
    expect(other.body.message).to.equal('forbidden: User "someone" cannot get path "/metrics"');
  });
});
