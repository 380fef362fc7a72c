/**
 * One storage served in several versions or groups (issue #12 item 1): autoscaling/v1 and
 * autoscaling/v2 HorizontalPodAutoscalers over the same v2 objects, `events.<vendor>/v1` and
 * core/v1 Events over the same core objects — each client reads back what it wrote, reads what
 * the other wrote converted, and lists, watches, patches, selects and records managed fields in
 * its own version; discovery lists both versions (v2 preferred) with one storage version hash.
 */
import { expect } from 'chai';
import { decodeProtobuf, encodeProtobuf } from '../../../lib/apimachinery/serializers/protobuf/index.js';
import { horizontalPodAutoscalerV1 } from '../../../lib/apis/autoscaling/v1/index.js';
import { horizontalPodAutoscaler } from '../../../lib/apis/autoscaling/v2/index.js';
import { useTestServer } from '../../framework/test-server.js';

const V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const CORE_EVENTS = '/api/v1/namespaces/default/events';
const EVENTS = '/apis/events.orch.io/v1/namespaces/default/events';
const EVENTS_ALIAS = '/apis/events.k8s.io/v1/namespaces/default/events';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const METRICS = 'autoscaling.alpha.orch.io/metrics';
const BEHAVIOR = 'autoscaling.alpha.orch.io/behavior';

const target = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };

const v2hpa = (name: string, spec: object = {}) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: {
    scaleTargetRef: target,
    minReplicas: 2,
    maxReplicas: 10,
    metrics: [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '100' } } },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 120 } },
    ...spec,
  },
});

const v1hpa = (name: string, spec: object = {}) => ({
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: { scaleTargetRef: target, maxReplicas: 5, targetCPUUtilizationPercentage: 70, ...spec },
});

describe('HorizontalPodAutoscaler in autoscaling/v1 and autoscaling/v2 over one storage (issue #12 item 1)', () => {
  const server = useTestServer();
  const admin = () => server().admin;

  it('a v2 client reads back what it wrote; a v1 client reads it with the v2-only data in annotations', async () => {
    const created = await admin().post(V2, v2hpa('a'));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.apiVersion).to.equal('autoscaling/v2');
    const v2 = (await admin().get(`${V2}/a`)).body;
    expect(v2.spec.metrics).to.deep.equal(v2hpa('a').spec.metrics);
    expect(v2.metadata.annotations).to.equal(undefined);
    const v1 = (await admin().get(`${V1}/a`)).body;
    expect(v1.apiVersion).to.equal('autoscaling/v1');
    expect(v1.spec).to.deep.equal({ scaleTargetRef: target, minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 60 });
    expect(JSON.parse(v1.metadata.annotations[METRICS])).to.deep.equal([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '100' } }]);
    expect(JSON.parse(v1.metadata.annotations[BEHAVIOR])).to.deep.equal({
      ScaleUp: { StabilizationWindowSeconds: 0, SelectPolicy: 'Max', Policies: [{ Type: 'Pods', Value: 4, PeriodSeconds: 15 }, { Type: 'Percent', Value: 100, PeriodSeconds: 15 }] },
      ScaleDown: { StabilizationWindowSeconds: 120, SelectPolicy: 'Max', Policies: [{ Type: 'Percent', Value: 100, PeriodSeconds: 15 }] },
    });
    expect(v1.status).to.deep.equal({ currentReplicas: 0, desiredReplicas: 0 });
  });

  it('a v1 client reads back what it wrote; a v2 client reads the CPU target as a metric', async () => {
    const created = await admin().post(V1, v1hpa('b'));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.spec).to.deep.equal({ scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 70 });
    expect(created.body.metadata.annotations).to.equal(undefined);
    const v2 = (await admin().get(`${V2}/b`)).body;
    expect(v2.spec.metrics).to.deep.equal([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
    expect(v2.status).to.deep.equal({ desiredReplicas: 0, currentMetrics: null });
  });

  it('a v1 object without a CPU target reads back with the 80% default', async () => {
    const created = await admin().post(V1, v1hpa('c', { targetCPUUtilizationPercentage: undefined }));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.spec.targetCPUUtilizationPercentage).to.equal(80);
  });

  it('a v1 update keeps the v2-only metrics and behavior it carries in annotations', async () => {
    await admin().post(V2, v2hpa('d'));
    const v1 = (await admin().get(`${V1}/d`)).body;
    const put = await admin().put(`${V1}/d`, { ...v1, spec: { ...v1.spec, maxReplicas: 12 } });
    expect(put.status, put.text).to.equal(200);
    const v2 = (await admin().get(`${V2}/d`)).body;
    expect(v2.spec.maxReplicas).to.equal(12);
    expect(v2.spec.metrics).to.deep.equal(v2hpa('d').spec.metrics.slice(1).concat(v2hpa('d').spec.metrics.slice(0, 1)));
    expect(v2.spec.behavior.scaleDown.stabilizationWindowSeconds).to.equal(120);
    expect(v2.metadata.annotations).to.equal(undefined);
  });

  it('patches apply in the version asked, then convert', async () => {
    await admin().post(V2, v2hpa('e'));
    const p1 = await admin().patch(`${V1}/e`, { spec: { targetCPUUtilizationPercentage: 90 } }, MERGE);
    expect(p1.status, p1.text).to.equal(200);
    expect(p1.body.spec.targetCPUUtilizationPercentage).to.equal(90);
    const v2 = (await admin().get(`${V2}/e`)).body;
    expect(v2.spec.metrics.map((m: { type: string }) => m.type)).to.deep.equal(['Pods', 'Resource']);
    expect(v2.spec.metrics[1].resource.target.averageUtilization).to.equal(90);
    const p2 = await admin().patch(`${V2}/e`, { spec: { minReplicas: 3 } }, STRATEGIC);
    expect(p2.status, p2.text).to.equal(200);
    expect((await admin().get(`${V1}/e`)).body.spec.minReplicas).to.equal(3);
  });

  it('lists in either version', async () => {
    await admin().post(V2, v2hpa('f'));
    const l1 = (await admin().get(`${V1}?fieldSelector=metadata.name=f`)).body;
    expect(l1).to.include({ kind: 'HorizontalPodAutoscalerList', apiVersion: 'autoscaling/v1' });
    expect(l1.items).to.have.length(1);
    expect(l1.items[0]).to.include({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' });
    expect(l1.items[0].spec.targetCPUUtilizationPercentage).to.equal(60);
    const l2 = (await admin().get(`${V2}?fieldSelector=metadata.name=f`)).body;
    expect(l2.items[0].apiVersion).to.equal('autoscaling/v2');
  });

  it('watches in either version', async () => {
    const w1 = await admin().watch(`${V1}?watch=true&fieldSelector=metadata.name=g`);
    const w2 = await admin().watch(`${V2}?watch=true&fieldSelector=metadata.name=g`);
    try {
      await admin().post(V2, v2hpa('g'));
      const e1 = await w1.until((ev) => ev.type === 'ADDED');
      const e2 = await w2.until((ev) => ev.type === 'ADDED');
      expect(e1.object).to.include({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' });
      expect(e1.object.spec.targetCPUUtilizationPercentage).to.equal(60);
      expect(e2.object.apiVersion).to.equal('autoscaling/v2');
      expect(e2.object.spec.metrics).to.have.length(2);
    } finally {
      w1.close();
      w2.close();
    }
  });

  it('writes the status through either version', async () => {
    await admin().post(V1, v1hpa('h'));
    const status = await admin().patch(`${V1}/h/status`, { status: { currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 55 } }, MERGE);
    expect(status.status, status.text).to.equal(200);
    expect(status.body.status).to.deep.equal({ currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 55 });
    const v2 = (await admin().get(`${V2}/h`)).body;
    expect(v2.status).to.deep.equal({
      currentReplicas: 3,
      desiredReplicas: 4,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 55 } } }],
    });
  });

  it('records managed fields in the version of the request', async () => {
    await admin().post(`${V1}?fieldManager=one`, v1hpa('i'));
    await admin().patch(`${V2}/i?fieldManager=two`, { spec: { maxReplicas: 7 } }, MERGE);
    const entries = (await admin().get(`${V2}/i`)).body.metadata.managedFields as Array<Record<string, unknown>>;
    const one = entries.find((e) => e.manager === 'one')!;
    const two = entries.find((e) => e.manager === 'two')!;
    expect(one.apiVersion).to.equal('autoscaling/v1');
    expect(one.fieldsV1).to.deep.equal({ 'f:spec': { 'f:scaleTargetRef': {}, 'f:minReplicas': {}, 'f:targetCPUUtilizationPercentage': {} } });
    expect(two).to.deep.include({ apiVersion: 'autoscaling/v2', fieldsV1: { 'f:spec': { 'f:maxReplicas': {} } } });
  });

  it('applies server-side in either version; a field at the same path conflicts across versions', async () => {
    const APPLY = 'application/apply-patch+yaml';
    const config = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'ssa' }, spec: { scaleTargetRef: target, maxReplicas: 5 } };
    const first = await admin().patch(`${V1}/ssa?fieldManager=v1-applier`, config, APPLY);
    expect(first.status, first.text).to.equal(201);
    expect(first.body.spec).to.deep.include({ maxReplicas: 5, targetCPUUtilizationPercentage: 80 });
    const other = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'ssa' }, spec: { scaleTargetRef: target, maxReplicas: 6 } };
    const conflict = await admin().patch(`${V2}/ssa?fieldManager=v2-applier`, other, APPLY);
    expect(conflict.status).to.equal(409);
    expect(conflict.body.message).to.equal('Apply failed with 1 conflict: conflict with "v1-applier": .spec.maxReplicas');
    const forced = await admin().patch(`${V2}/ssa?fieldManager=v2-applier&force=true`, other, APPLY);
    expect(forced.status, forced.text).to.equal(200);
    const entries = forced.body.metadata.managedFields as Array<{ manager: string; apiVersion: string; operation: string }>;
    expect(entries.map((e) => [e.manager, e.operation, e.apiVersion])).to.deep.equal([
      ['v1-applier', 'Apply', 'autoscaling/v1'],
      ['v2-applier', 'Apply', 'autoscaling/v2'],
    ]);
  });

  it('speaks protobuf in either version', async () => {
    const PB = 'application/vnd.orch.protobuf';
    const resolve = (apiVersion: string, kind: string) => (kind === 'HorizontalPodAutoscaler' ? (apiVersion === 'autoscaling/v1' ? horizontalPodAutoscalerV1.schema : horizontalPodAutoscaler.schema) : undefined);
    const body = encodeProtobuf(v1hpa('pb'), { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', schema: horizontalPodAutoscalerV1.schema });
    const created = await admin().request('POST', V1, { raw: body, contentType: PB, headers: { Accept: PB } });
    expect(created.status, created.text).to.equal(201);
    const v1 = decodeProtobuf(created.bytes, resolve);
    expect(v1).to.include({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' });
    expect((v1.object.spec as Record<string, unknown>).targetCPUUtilizationPercentage).to.equal(70);
    const v2 = decodeProtobuf((await admin().get(`${V2}/pb`, { headers: { Accept: PB } })).bytes, resolve);
    expect(v2.apiVersion).to.equal('autoscaling/v2');
    expect((v2.object.spec as { metrics: unknown[] }).metrics).to.have.length(1);
  });

  it('answers 422 with the v2 paths of upstream for an invalid v1 object', async () => {
    const res = await admin().post(V1, v1hpa('j', { minReplicas: 0, maxReplicas: 0, targetCPUUtilizationPercentage: 0 }));
    expect(res.status).to.equal(422);
    expect(res.body.details.causes).to.deep.equal([
      { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than or equal to 1', field: 'spec.minReplicas' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than 0', field: 'spec.maxReplicas' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than 0', field: 'spec.metrics[0].resource.target.averageUtilization' },
      { reason: 'FieldValueForbidden', message: 'Forbidden: must specify at least one Object or External metric to support scaling to zero replicas', field: 'spec.metrics' },
    ]);
  });
});

const coreEvent = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', apiVersion: 'v1' },
  reason: 'Started',
  message: 'Started container web',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2024-05-01T10:00:00Z',
  lastTimestamp: '2024-05-01T10:05:00Z',
  count: 3,
  type: 'Normal',
});

const v1Event = (name: string) => ({
  apiVersion: 'events.orch.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2024-05-01T10:00:00.123456Z',
  reportingController: 'example.com/controller',
  reportingInstance: 'controller-1',
  action: 'Scale',
  reason: 'Scaled',
  regarding: { kind: 'Deployment', namespace: 'default', name: 'web', apiVersion: 'apps/v1' },
  note: 'Scaled up to 3',
  type: 'Normal',
});

describe('Event in events.orch.io/v1 and core/v1 over one storage (issue #12 item 1)', () => {
  const server = useTestServer();
  const admin = () => server().admin;

  it('a core Event reads through events/v1 with its fields renamed', async () => {
    expect((await admin().post(CORE_EVENTS, coreEvent('k'))).status).to.equal(201);
    const ev = (await admin().get(`${EVENTS}/k`)).body;
    expect(ev).to.include({ apiVersion: 'events.orch.io/v1', kind: 'Event', reason: 'Started', note: 'Started container web', type: 'Normal', deprecatedCount: 3 });
    expect(ev.regarding).to.deep.equal({ kind: 'Pod', namespace: 'default', name: 'web', apiVersion: 'v1' });
    expect(ev.deprecatedSource).to.deep.equal({ component: 'kubelet', host: 'node-1' });
    expect(ev.deprecatedFirstTimestamp).to.equal('2024-05-01T10:00:00Z');
    expect(ev.eventTime).to.equal(null);
  });

  it('an events/v1 Event reads back as written and through core/v1', async () => {
    const created = await admin().post(EVENTS, v1Event('l'));
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.include({ note: 'Scaled up to 3', reportingController: 'example.com/controller', eventTime: '2024-05-01T10:00:00.123456Z' });
    expect(created.body.deprecatedSource).to.deep.equal({});
    const core = (await admin().get(`${CORE_EVENTS}/l`)).body;
    expect(core).to.include({ message: 'Scaled up to 3', reportingComponent: 'example.com/controller', reportingInstance: 'controller-1', action: 'Scale' });
    expect(core.involvedObject).to.deep.equal({ kind: 'Deployment', namespace: 'default', name: 'web', apiVersion: 'apps/v1' });
  });

  it('is served under the upstream alias too', async () => {
    await admin().post(EVENTS, v1Event('m'));
    const ev = (await admin().get(`${EVENTS_ALIAS}/m`)).body;
    expect(ev.apiVersion).to.equal('events.k8s.io/v1');
    expect(ev.note).to.equal('Scaled up to 3');
  });

  it('selects events/v1 with its own field labels and refuses the core ones', async () => {
    await admin().post(EVENTS, v1Event('n'));
    const byRegarding = (await admin().get(`${EVENTS}?fieldSelector=regarding.name=web,reportingController=example.com/controller`)).body;
    expect(byRegarding.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.include('n');
    const core = await admin().get(`${EVENTS}?fieldSelector=involvedObject.name=web`);
    expect(core.status).to.equal(400);
    expect(core.body.message).to.equal('field label not supported: involvedObject.name');
  });

  it('watches through events/v1', async () => {
    const w = await admin().watch(`${EVENTS}?watch=true&fieldSelector=metadata.name=o`);
    try {
      await admin().post(CORE_EVENTS, coreEvent('o'));
      const ev = await w.until((e) => e.type === 'ADDED');
      expect(ev.object).to.include({ apiVersion: 'events.orch.io/v1', note: 'Started container web' });
    } finally {
      w.close();
    }
  });

  it('refuses the deprecated fields and another type on a new events/v1 Event', async () => {
    const res = await admin().post(EVENTS, { ...v1Event('p'), type: 'Info', deprecatedCount: 2, deprecatedSource: { component: 'x' } });
    expect(res.status).to.equal(422);
    expect(res.body.details.causes).to.deep.equal([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": has invalid value: Info', field: 'type' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": needs to be unset', field: 'count' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": needs to be unset', field: 'source' },
    ]);
  });

  it('keeps an events/v1 Event immutable but its series and metadata', async () => {
    const created = (await admin().post(EVENTS, v1Event('q'))).body;
    const series = await admin().put(`${EVENTS}/q`, { ...created, series: { count: 2, lastObservedTime: '2024-05-01T10:10:00.000001Z' }, metadata: { ...created.metadata, labels: { a: 'b' } } });
    expect(series.status, series.text).to.equal(200);
    const note = await admin().patch(`${EVENTS}/q`, { note: 'other' }, MERGE);
    expect(note.status).to.equal(422);
    expect(note.body.details.causes).to.deep.equal([{ reason: 'FieldValueInvalid', message: 'Invalid value: "other": field is immutable', field: 'message' }]);
  });

  it('records managed fields with the version that wrote them', async () => {
    await admin().post(`${EVENTS}?fieldManager=ev1`, v1Event('r'));
    const entry = ((await admin().get(`${CORE_EVENTS}/r`)).body.metadata.managedFields as Array<Record<string, unknown>>)[0]!;
    expect(entry).to.include({ manager: 'ev1', apiVersion: 'events.orch.io/v1' });
    expect(Object.keys(entry.fieldsV1 as object)).to.include.members(['f:note', 'f:regarding', 'f:reportingController']);
  });
});

describe('discovery of the versions of one storage (issue #12 item 1)', () => {
  const server = useTestServer();

  it('lists autoscaling v2 then v1, v2 preferred, with one storage version hash', async () => {
    const group = (await server().admin.get('/apis/autoscaling')).body;
    expect(group.versions.map((v: { version: string }) => v.version)).to.deep.equal(['v2', 'v1']);
    expect(group.preferredVersion.version).to.equal('v2');
    const hash = async (v: string) =>
      ((await server().admin.get(`/apis/autoscaling/${v}`)).body.resources as Array<{ name: string; storageVersionHash?: string }>).find((r) => r.name === 'horizontalpodautoscalers')!.storageVersionHash;
    expect(await hash('v1')).to.equal(await hash('v2'));
  });

  it('lists events.orch.io/v1 events with the storage version hash of the core events', async () => {
    const hashOf = (list: { resources: Array<{ name: string; storageVersionHash?: string }> }) => list.resources.find((r) => r.name === 'events')!.storageVersionHash;
    const events = (await server().admin.get('/apis/events.orch.io/v1')).body;
    expect(hashOf(events)).to.equal(hashOf((await server().admin.get('/api/v1')).body));
    expect(events.resources.find((r: { name: string }) => r.name === 'events')).to.deep.include({ kind: 'Event', namespaced: true, shortNames: ['ev'] });
  });
});

describe('OpenAPI of the versions of one storage (issue #12 item 1)', () => {
  const server = useTestServer();
  const gvk = (def: { 'x-kubernetes-group-version-kind'?: unknown }) => def['x-kubernetes-group-version-kind'];

  it('/openapi/v2 defines both HorizontalPodAutoscaler versions and both Events, with their paths', async () => {
    const doc = (await server().admin.get('/openapi/v2')).body;
    expect(gvk(doc.definitions['io.orch.api.autoscaling.v1.HorizontalPodAutoscaler'])).to.deep.equal([{ group: 'autoscaling', kind: 'HorizontalPodAutoscaler', version: 'v1' }]);
    expect(gvk(doc.definitions['io.orch.api.autoscaling.v2.HorizontalPodAutoscaler'])).to.deep.equal([{ group: 'autoscaling', kind: 'HorizontalPodAutoscaler', version: 'v2' }]);
    expect(doc.definitions['io.orch.api.autoscaling.v2.HorizontalPodAutoscalerSpec'].required).to.deep.equal(['scaleTargetRef', 'maxReplicas']);
    expect(gvk(doc.definitions['io.orch.api.events.v1.Event'])).to.deep.include({ group: 'events.orch.io', kind: 'Event', version: 'v1' });
    expect(doc.definitions['io.orch.api.events.v1.Event'].required).to.deep.equal(['eventTime']);
    expect(doc.paths).to.include.keys(
      '/apis/autoscaling/v1/namespaces/{namespace}/horizontalpodautoscalers/{name}/status',
      '/apis/autoscaling/v2/namespaces/{namespace}/horizontalpodautoscalers/{name}/status',
      '/apis/events.orch.io/v1/namespaces/{namespace}/events/{name}',
    );
  });

  it('/openapi/v3 serves a document per version', async () => {
    const index = (await server().admin.get('/openapi/v3')).body;
    expect(index.paths).to.include.keys('apis/autoscaling/v1', 'apis/autoscaling/v2', 'apis/events.orch.io/v1', 'apis/events.k8s.io/v1');
    const v1 = (await server().admin.get('/openapi/v3/apis/autoscaling/v1')).body;
    expect(v1.components.schemas).to.include.keys('io.orch.api.autoscaling.v1.HorizontalPodAutoscaler');
    expect(Object.keys(v1.components.schemas)).to.not.include('io.orch.api.autoscaling.v2.HorizontalPodAutoscaler');
  });
});
