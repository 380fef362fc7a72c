import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const EVENTS = '/apis/events.orch.io/v1/namespaces/default/events';
const MERGE = 'application/merge-patch+json';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

const newEvent = (name: string, body: object = {}) => ({
  apiVersion: 'events.orch.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2024-05-01T10:00:00.000001Z',
  reportingController: 'example.com/controller',
  reportingInstance: 'controller-1',
  action: 'Reconcile',
  reason: 'Synced',
  regarding: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'settings' },
  note: 'Synced the settings',
  type: 'Normal',
  ...body,
});

describe('events.orch.io/v1 Event against the real server (issue #12 item 1)', () => {
  const server = useTestServer();
  const admin = () => server().admin;

  it('creates an event with the zero values upstream writes', async () => {
    const res = await admin().post(EVENTS, newEvent('e1'));
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.deep.include({
      apiVersion: 'events.orch.io/v1',
      kind: 'Event',
      eventTime: '2024-05-01T10:00:00.000001Z',
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
    expect(res.body.metadata.generation).to.equal(undefined);
  });

  it('gets, lists with field selectors, and deletes', async () => {
    await admin().post(EVENTS, newEvent('e2', { type: 'Warning', reason: 'Failed' }));
    expect((await admin().get(`${EVENTS}/e2`)).body.reason).to.equal('Failed');
    const selected = await admin().get('/apis/events.orch.io/v1/events?fieldSelector=type=Warning,regarding.kind=ConfigMap');
    expect(selected.body.kind).to.equal('EventList');
    expect(selected.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['e2']);
    expect((await admin().get(`${EVENTS}?fieldSelector=source=kubelet`)).status).to.equal(400);
    expect((await admin().delete(`${EVENTS}/e2`)).status).to.equal(200);
    expect((await admin().get(`${EVENTS}/e2`)).status).to.equal(404);
  });

  it(`updates the series of an event; PUT creates a missing event${covers('001 § Event resource (events API group, version v1) › series.count', '001 § Event resource (events API group, version v1) › series.lastObservedTime')}`, async () => {
    const created = (await admin().post(EVENTS, newEvent('e3'))).body;
    const put = await admin().put(`${EVENTS}/e3`, { ...created, series: { count: 2, lastObservedTime: '2024-05-01T10:01:00.000000Z' } });
    expect(put.status, put.text).to.equal(200);
    expect(put.body.series).to.deep.equal({ count: 2, lastObservedTime: '2024-05-01T10:01:00.000000Z' });
    const patched = await admin().patch(`${EVENTS}/e3`, { series: { count: 3 } }, MERGE);
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body.series.count).to.equal(3);
    const made = await admin().put(`${EVENTS}/e4`, newEvent('e4'));
    expect(made.status, made.text).to.equal(201);
  });

  it(`answers 422 with upstream causes for a new event without its required fields${covers('001 § Event resource (events API group, version v1) › action, reason, reportingController, reportingInstance', '001 § Event resource (events API group, version v1) › type', '001 § Event resource (events API group, version v1) › deprecatedFirstTimestamp, deprecatedLastTimestamp, deprecatedCount, deprecatedSource.component, deprecatedSource.host')}`, async () => {
    const res = await admin().post(EVENTS, newEvent('e5', { reportingInstance: undefined, action: undefined, type: undefined, deprecatedLastTimestamp: '2024-05-01T10:00:00Z' }));
    expect(res.status).to.equal(422);
    expect(res.body.details).to.deep.include({ name: 'e5', kind: 'Event' });
    expect(res.body.details.causes).to.deep.equal([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'reportingInstance' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'action' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": has invalid value: ', field: 'type' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": needs to be unset', field: 'lastTimestamp' },
    ]);
  });

  it('prints the core Event columns', async () => {
    await admin().post(EVENTS, newEvent('e6'));
    const table = await admin().get(`${EVENTS}/e6`, { headers: { Accept: TABLE } });
    expect(table.status).to.equal(200);
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
    expect(table.body.rows[0].cells.slice(1, 7)).to.deep.equal(['Normal', 'Synced', 'configmap/settings', '', 'example.com/controller, controller-1', 'Synced the settings']);
  });

  it('is discovered in its own group with short name ev', async () => {
    const group = (await admin().get('/apis/events.orch.io')).body;
    expect(group.preferredVersion.version).to.equal('v1');
    const list = (await admin().get('/apis/events.orch.io/v1')).body;
    expect(list.resources).to.deep.equal([
      { name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ev'], storageVersionHash: list.resources[0].storageVersionHash },
    ]);
  });
});
