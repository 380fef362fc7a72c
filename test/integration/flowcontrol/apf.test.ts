/**
 * API Priority and Fairness against a real server with small inflight limits (2 + 1 seats):
 * classification headers, a new FlowSchema taking effect, rejection (429 + Retry-After),
 * exemption of system:masters, fairness between two users of one level, watch seats held only
 * while the watch is set up, the registered watches read by the mutating work estimator, and the
 * Dangling condition.
 */
import { expect } from 'chai';
import { FLOWCONTROL_GROUP } from '../../../lib/apis/flowcontrol/v1/index.js';
import { APF_FLOW_SCHEMA_UID_HEADER, APF_PRIORITY_LEVEL_UID_HEADER } from '../../../lib/apis/vendor.js';
import { Dealer, hashFlow } from '../../../lib/flowcontrol/shuffle-sharding.js';
import type { TestResponse } from '../../framework/client.js';
import { eventually, heldCreate, metric } from '../../framework/flowcontrol.js';
import { useTestServer } from '../../framework/test-server.js';

const FC = `/apis/${FLOWCONTROL_GROUP}/v1`;
const FS_HEADER = APF_FLOW_SCHEMA_UID_HEADER.toLowerCase();
const PL_HEADER = APF_PRIORITY_LEVEL_UID_HEADER.toLowerCase();
const as = (user: string) => ({ headers: { 'Impersonate-User': user } });

const limitedLevel = (name: string, limitResponse: object) => ({
  apiVersion: `${FLOWCONTROL_GROUP}/v1`,
  kind: 'PriorityLevelConfiguration',
  metadata: { name },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse } },
});
const userSchema = (name: string, level: string, precedence: number, users: string[]) => ({
  apiVersion: `${FLOWCONTROL_GROUP}/v1`,
  kind: 'FlowSchema',
  metadata: { name },
  spec: {
    priorityLevelConfiguration: { name: level },
    matchingPrecedence: precedence,
    distinguisherMethod: { type: 'ByUser' },
    rules: [
      {
        subjects: users.map((u) => ({ kind: 'User', user: { name: u } })),
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }],
      },
    ],
  },
});

describe('API Priority and Fairness', function () {
  this.timeout(60_000);
  const server = useTestServer({
    flowControl: { enablePriorityAndFairness: true, maxRequestsInFlight: 2, maxMutatingRequestsInFlight: 1 },
    authorization: { modes: ['AlwaysAllow'] },
  });
  const admin = () => server().admin;
  const uidOf = async (resource: string, name: string) => (await admin().get(`${FC}/${resource}/${name}`)).body?.metadata?.uid as string | undefined;
  const classifiedAs = async (res: Promise<TestResponse>, fs: string, pl: string) => {
    const r = await res;
    const [fsUID, plUID] = await Promise.all([uidOf('flowschemas', fs), uidOf('prioritylevelconfigurations', pl)]);
    return fsUID !== undefined && r.headers[FS_HEADER] === fsUID && r.headers[PL_HEADER] === plUID;
  };

  it('answers every classified request with the UIDs of its FlowSchema and priority level', async () => {
    await eventually('admin classified exempt', () => classifiedAs(admin().get('/api/v1/namespaces/default'), 'exempt', 'exempt'));
    await eventually('alice classified global-default', () => classifiedAs(admin().get('/api/v1/namespaces/default', as('alice')), 'global-default', 'global-default'));
    await eventually('probes classified exempt', () => classifiedAs(admin().get('/readyz', as('bob')), 'probes', 'exempt'));
  });

  it('applies a FlowSchema created through the API and rejects beyond a Reject level with 429 and Retry-After', async () => {
    expect((await admin().post(`${FC}/prioritylevelconfigurations`, limitedLevel('test-reject', { type: 'Reject' }))).status).to.equal(201);
    expect((await admin().post(`${FC}/flowschemas`, userSchema('test-carol', 'test-reject', 500, ['carol']))).status).to.equal(201);
    await eventually('carol classified test-carol', () => classifiedAs(admin().get('/api/v1/namespaces/default', as('carol')), 'test-carol', 'test-reject'));
    const held = await heldCreate(server().url, 'carol', 'carol-held');
    try {
      await eventually('carol holds her seat', async () => (await metric(admin(), 'apiserver_flowcontrol_current_executing_requests', { flow_schema: 'test-carol' })) === 1);
      const rejected = await admin().get('/api/v1/namespaces/default/configmaps', as('carol'));
      expect(rejected.status).to.equal(429);
      expect(rejected.headers['retry-after']).to.equal('1');
      expect(rejected.body).to.include({ kind: 'Status', status: 'Failure', reason: 'TooManyRequests', message: 'Too many requests, please try again later.', code: 429 });
      expect(rejected.headers[FS_HEADER]).to.equal(await uidOf('flowschemas', 'test-carol'));
      const counted = await metric(admin(), 'apiserver_flowcontrol_rejected_requests_total', { flow_schema: 'test-carol', priority_level: 'test-reject', reason: 'concurrency-limit' });
      expect(counted).to.equal(1);
      // system:masters is exempt: never queued or rejected.
      const masters = await admin().get('/api/v1/namespaces/default/configmaps');
      expect(masters.status).to.equal(200);
      expect(masters.headers[PL_HEADER]).to.equal(await uidOf('prioritylevelconfigurations', 'exempt'));
    } finally {
      expect(await held.release()).to.equal(201);
    }
    expect((await admin().get('/api/v1/namespaces/default/configmaps', as('carol'))).status).to.equal(200);
  });

  it('does not let a flood from one user starve another user of the same level', async () => {
    const [flooder, other] = ['dave', 'erin'];
    const dealer = new Dealer(64, 1);
    expect(dealer.deal(hashFlow('test-fair', flooder))[0], 'the two users share no queue').to.not.equal(dealer.deal(hashFlow('test-fair', other))[0]);
    const queuing = { type: 'Queue', queuing: { queues: 64, handSize: 1, queueLengthLimit: 50 } };
    expect((await admin().post(`${FC}/prioritylevelconfigurations`, limitedLevel('test-fair', queuing))).status).to.equal(201);
    expect((await admin().post(`${FC}/flowschemas`, userSchema('test-fair', 'test-fair', 400, [flooder, other]))).status).to.equal(201);
    await eventually('dave classified test-fair', () => classifiedAs(admin().get('/api/v1/namespaces/default', as(flooder)), 'test-fair', 'test-fair'));
    const inQueue = () => metric(admin(), 'apiserver_flowcontrol_current_inqueue_requests', { flow_schema: 'test-fair' });
    const held = await heldCreate(server().url, flooder, 'dave-held');
    const completed: string[] = [];
    const send = (user: string) => admin().get('/api/v1/namespaces/default/configmaps', as(user)).then((r) => completed.push(`${user}:${r.status}`));
    const flood: Promise<unknown>[] = [];
    try {
      await eventually('dave holds the seat', async () => (await metric(admin(), 'apiserver_flowcontrol_current_executing_requests', { flow_schema: 'test-fair' })) === 1);
      for (let i = 0; i < 10; i++) flood.push(send(flooder));
      await eventually('the flood is queued', async () => (await inQueue()) === 10);
      flood.push(send(other));
      await eventually('erin is queued', async () => (await inQueue()) === 11);
    } finally {
      expect(await held.release()).to.equal(201);
    }
    await Promise.all(flood);
    expect(completed).to.have.length(11);
    expect(completed.every((c) => c.endsWith(':200'))).to.equal(true);
    expect(completed[0], `completion order ${completed.join(' ')}`).to.equal(`${other}:200`);
  });

  it('holds a watch seat only while the watch is set up', async () => {
    const watch = await admin().watch('/api/v1/namespaces/default/configmaps?watch=1', as('erin'));
    try {
      expect(watch.status).to.equal(200);
      const res = await admin().get('/api/v1/namespaces/default/configmaps', as('erin'));
      expect(res.status).to.equal(200);
      expect(await metric(admin(), 'apiserver_flowcontrol_current_executing_requests', { flow_schema: 'test-fair' })).to.equal(0);
    } finally {
      watch.close();
    }
  });

  it('estimates a create by the watches registered on its resource, forgetting closed ones', async () => {
    const labels = { priority_level: 'global-default', flow_schema: 'global-default' };
    const sum = () => metric(admin(), 'apiserver_flowcontrol_watch_count_samples_sum', labels);
    const count = () => metric(admin(), 'apiserver_flowcontrol_watch_count_samples_count', labels);
    const create = async (name: string) => {
      const res = await admin().post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }, as('grace'));
      expect(res.status).to.equal(201);
    };
    const watches = [];
    try {
      for (let i = 0; i < 12; i++) {
        const w = await admin().watch('/api/v1/namespaces/default/configmaps?watch=1', as('grace'));
        expect(w.status).to.equal(200);
        watches.push(w);
      }
      const [sum0, count0] = [await sum(), await count()];
      await create('grace-watched');
      expect(await count()).to.equal(count0 + 1);
      expect(await sum()).to.equal(sum0 + 12);
    } finally {
      for (const w of watches) w.close();
    }
    const [sum1, count1] = [await sum(), await count()];
    await eventually('the closed watches are forgotten', async () => {
      await create(`grace-unwatched-${Date.now()}`);
      return (await sum()) === sum1 && (await count()) > count1;
    });
  });

  it('marks a FlowSchema naming a missing level Dangling', async () => {
    expect((await admin().post(`${FC}/flowschemas`, userSchema('test-dangling', 'no-such-level', 300, ['frank']))).status).to.equal(201);
    await eventually('Dangling=True', async () => {
      const c = ((await admin().get(`${FC}/flowschemas/test-dangling`)).body?.status?.conditions ?? []) as Array<Record<string, string>>;
      return c.some((x) => x.type === 'Dangling' && x.status === 'True' && x.reason === 'NotFound');
    });
    const cond = (await admin().get(`${FC}/flowschemas/test-dangling`)).body.status.conditions[0];
    expect(cond.message).to.equal('This FlowSchema references the PriorityLevelConfiguration object named "no-such-level" but there is no such object');
    // frank's requests fall through to global-default.
    await eventually('frank classified global-default', () => classifiedAs(admin().get('/api/v1/namespaces/default', as('frank')), 'global-default', 'global-default'));
  });

  it('exports the flowcontrol metrics', async () => {
    const text = (await admin().get('/metrics')).text;
    for (const name of [
      'apiserver_flowcontrol_rejected_requests_total',
      'apiserver_flowcontrol_dispatched_requests_total',
      'apiserver_flowcontrol_current_inqueue_requests',
      'apiserver_flowcontrol_current_executing_requests',
      'apiserver_flowcontrol_current_executing_seats',
      'apiserver_flowcontrol_request_wait_duration_seconds',
      'apiserver_flowcontrol_request_execution_seconds',
      'apiserver_flowcontrol_nominal_limit_seats',
      'apiserver_flowcontrol_current_limit_seats',
      'apiserver_flowcontrol_lower_limit_seats',
      'apiserver_flowcontrol_upper_limit_seats',
      'apiserver_flowcontrol_demand_seats_average',
      'apiserver_flowcontrol_demand_seats_stdev',
      'apiserver_flowcontrol_demand_seats_high_watermark',
      'apiserver_flowcontrol_demand_seats_smoothed',
      'apiserver_flowcontrol_target_seats',
      'apiserver_flowcontrol_seat_fair_frac',
      'apiserver_flowcontrol_watch_count_samples',
      'apiserver_flowcontrol_work_estimated_seats',
    ]) {
      expect(text, name).to.include(`# TYPE ${name} `);
    }
    expect(text).to.include('# HELP apiserver_flowcontrol_request_concurrency_limit [ALPHA] (Deprecated since 1.30.0) Nominal number of execution seats configured for each priority level');
    expect(text).to.include('apiserver_flowcontrol_nominal_limit_seats{priority_level="global-default"} 1');
    expect(text).to.include('# HELP apiserver_flowcontrol_demand_seats_smoothed [ALPHA] Smoothed seat demands');
    // global-default: 20 of 245 shares of 3 seats → nominal 1, lendable round(0.5) = 1 → bounds [0, 4].
    expect(text).to.include('apiserver_flowcontrol_upper_limit_seats{priority_level="global-default"} 4');
  });
});

describe('API Priority and Fairness disabled', function () {
  this.timeout(60_000);
  const server = useTestServer({ flowControl: { enablePriorityAndFairness: false, maxRequestsInFlight: 400, maxMutatingRequestsInFlight: 200 } });

  it('sends no classification headers', async () => {
    const res = await server().admin.get('/api/v1/namespaces/default');
    expect(res.status).to.equal(200);
    expect(res.headers[FS_HEADER]).to.equal(undefined);
    expect(res.headers[PL_HEADER]).to.equal(undefined);
  });
});
