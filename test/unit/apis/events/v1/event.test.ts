import { expect } from 'chai';
import { canonicalize } from '../../../../../lib/apimachinery/schema/canonical.js';
import { event } from '../../../../../lib/apis/core/v1/event.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { EVENTS_GROUP, eventsV1Kinds, eventV1, eventV1Conversion as conv } from '../../../../../lib/apis/events/v1/index.js';
import { eventV1Strategy } from '../../../../../lib/registry/events/event/strategy.js';
import { eventStrategy } from '../../../../../lib/registry/simple-strategies.js';
import { internalContext } from '../../../../../lib/request/context.js';
import { cellsOf, meta } from '../../printers/helpers.js';
import { decodeAndDefault, fixture, messages, unsetFields, variant } from '../../kind-pipeline.js';
import { covers } from '../../../../conformance/covers.js';

const ctx = internalContext({ name: 'test', groups: [] });

/** A valid new events/v1 Event. */
const minimal = (): Obj => ({
  apiVersion: 'events.orch.io/v1',
  kind: 'Event',
  metadata: { name: 'web.1', namespace: 'default' },
  eventTime: '2024-05-01T10:00:00.123456Z',
  reportingController: 'example.com/controller',
  reportingInstance: 'controller-1',
  action: 'Scale',
  reason: 'Scaled',
  regarding: { kind: 'Deployment', namespace: 'default', name: 'web' },
  note: 'Scaled up',
  type: 'Normal',
});

/** The stored (core) form of an events/v1 object, as a create through events/v1 reaches the strategy. */
function stored(o: Obj): Obj {
  decodeAndDefault(eventV1, o);
  return conv.toStorage(o);
}

describe('events.orch.io/v1 Event (issue #12 item 1)', () => {
  it('declares the upstream discovery facts: the events group, short name ev', () => {
    expect(EVENTS_GROUP).to.equal('events.orch.io');
    expect(eventV1).to.include({ group: 'events.orch.io', version: 'v1', resource: 'events', singular: 'event', namespaced: true, statusSubresource: false });
    expect(eventV1.shortNames).to.deep.equal(['ev']);
    expect(eventV1.schema.id).to.equal('api.events.v1.Event');
    expect(eventsV1Kinds).to.deep.equal([eventV1]);
    expect(conv.storageKind).to.equal(event);
  });

  it('has no defaults, and decodes the complete fixture with every field', () => {
    const o = minimal();
    decodeAndDefault(eventV1, o);
    expect(o).to.deep.equal(minimal());
    // Fixtures of vendor groups leave apiVersion out (it spells the vendor word).
    const complete = { apiVersion: eventV1.apiVersion, ...fixture('event-events-v1') };
    expect(decodeAndDefault(eventV1, complete)).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(eventV1.schema, complete)).to.deep.equal([]);
  });

  it(`converts to the core Event with upstream’s field mapping, and back losslessly${covers('001 § Event resource (events API group, version v1) › regarding', '001 § Event resource (events API group, version v1) › eventTime', '001 § Event resource (events API group, version v1) › series.lastObservedTime', '001 § Event resource (events API group, version v1) › series.count', '001 § Event resource (events API group, version v1) › reportingController / reportingInstance', '001 § Event resource (events API group, version v1) › deprecatedFirstTimestamp, deprecatedLastTimestamp, deprecatedCount, deprecatedSource.component, deprecatedSource.host')}`, () => {
    const complete: Obj = { apiVersion: eventV1.apiVersion, ...fixture('event-events-v1') };
    decodeAndDefault(eventV1, complete);
    const core = conv.toStorage(complete);
    expect(core).to.deep.include({
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: complete.regarding,
      message: complete.note,
      source: complete.deprecatedSource,
      firstTimestamp: complete.deprecatedFirstTimestamp,
      lastTimestamp: complete.deprecatedLastTimestamp,
      count: complete.deprecatedCount,
      reportingComponent: complete.reportingController,
      reportingInstance: complete.reportingInstance,
      eventTime: complete.eventTime,
      series: complete.series,
    });
    expect(conv.toServed(core)).to.deep.equal(complete);
    const coreFixture = canonicalize(event.schema, fixture('event'));
    expect(conv.toStorage(conv.toServed(coreFixture))).to.deep.equal(coreFixture);
  });

  it('serves an old-style core Event with the zero values upstream writes', () => {
    const served = conv.toServed({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'x', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'R', message: 'm', count: 2 });
    expect(served).to.deep.equal({
      kind: 'Event',
      apiVersion: 'events.orch.io/v1',
      metadata: { name: 'x', namespace: 'default', creationTimestamp: null },
      eventTime: null,
      reason: 'R',
      regarding: { kind: 'Pod', name: 'p' },
      note: 'm',
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
      deprecatedCount: 2,
    });
  });

  it('maps its field-selector labels to the core ones', () => {
    expect(conv.fieldLabel('regarding.name')).to.equal('involvedObject.name');
    expect(conv.fieldLabel('reportingController')).to.equal('reportingComponent');
    expect(conv.fieldLabel('type')).to.equal('type');
    expect(Object.keys(eventV1.fieldSelectors)).to.deep.equal([
      'reason',
      'regarding.kind',
      'regarding.namespace',
      'regarding.name',
      'regarding.uid',
      'regarding.apiVersion',
      'regarding.resourceVersion',
      'regarding.fieldPath',
      'reportingController',
      'type',
    ]);
  });

  const createCases: Array<[string, (o: Obj) => void, string[]]> = [
    ['a complete new event is valid', () => undefined, []],
    ['eventTime is required (without it the event is old-style, whose reporting fields are not checked)', (o) => {
      for (const f of ['eventTime', 'reportingController', 'reportingInstance', 'action', 'reason']) delete o[f];
    }, ['eventTime: Required value']],
    ['type is Normal or Warning', (o) => (o.type = 'Info'), ['type: Invalid value: "": has invalid value: Info']],
    ['the deprecated fields are refused (under their core names, as upstream)', (o) => {
      o.deprecatedFirstTimestamp = '2024-05-01T10:00:00Z';
      o.deprecatedLastTimestamp = '2024-05-01T10:00:00Z';
      o.deprecatedCount = 1;
      o.deprecatedSource = { host: 'node-1' };
    }, [
      'firstTimestamp: Invalid value: "": needs to be unset',
      'lastTimestamp: Invalid value: "": needs to be unset',
      'count: Invalid value: "": needs to be unset',
      'source: Invalid value: "": needs to be unset',
    ]],
    ['a series counts at least 2 and has a last observed time', (o) => (o.series = { count: 1 }), [
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
    ]],
    ['the name is a DNS subdomain, not only a path segment', (o) => ((o.metadata as Obj).name = 'Web_1'), [
      'metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
    ]],
  ];
  /** The spec 001 Event rows some cases cover. */
  const specRows: Record<string, string[]> = {
    'eventTime is required (without it the event is old-style, whose reporting fields are not checked)': ['001 § Event resource (events API group, version v1) › eventTime'],
    'type is Normal or Warning': ['001 § Event resource (events API group, version v1) › type'],
    'the deprecated fields are refused (under their core names, as upstream)': ['001 § Event resource (events API group, version v1) › deprecatedFirstTimestamp, deprecatedLastTimestamp, deprecatedCount, deprecatedSource.component, deprecatedSource.host'],
    'a series counts at least 2 and has a last observed time': ['001 § Event resource (events API group, version v1) › series.count', '001 § Event resource (events API group, version v1) › series.lastObservedTime'],
  };
  for (const [name, mutate, expected] of createCases) {
    const rows = specRows[name];
    it(`create validation: ${name}${rows ? covers(...rows) : ''}`, () => {
      expect(messages(eventV1Strategy.validate(ctx, stored(variant(minimal(), mutate))))).to.deep.equal(expected);
    });
  }

  it(`create validation: the core rules still apply (reporting fields of a new-style event)${covers('001 § Event resource (events API group, version v1) › action, reason, reportingController, reportingInstance')}`, () => {
    const o = variant(minimal(), (x) => {
      delete x.reportingController;
      delete x.action;
    });
    expect(messages(eventV1Strategy.validate(ctx, stored(o)))).to.deep.equal([
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'action: Required value',
    ]);
  });

  it('a core/v1 write keeps the legacy rules only', () => {
    const o = variant(stored(minimal()), (x) => {
      x.type = 'Info';
      x.count = 4;
    });
    expect(messages(eventStrategy.validate(ctx, o))).to.deep.equal([]);
  });

  it('update validation: every field but the series and metadata is immutable, eventTime to the microsecond', () => {
    const old = variant(stored(minimal()), (x) => ((x.metadata as Obj).resourceVersion = '1'));
    const series = variant(old, (x) => {
      x.series = { count: 2, lastObservedTime: '2024-05-01T10:01:00.000001Z' };
      (x.metadata as Obj).labels = { a: 'b' };
      x.eventTime = '2024-05-01T10:00:00.1234569Z';
    });
    expect(messages(eventV1Strategy.validateUpdate(ctx, series, old))).to.deep.equal([]);
    const changed = variant(old, (x) => {
      x.message = 'other';
      x.involvedObject = { kind: 'Deployment', namespace: 'default', name: 'api' };
      x.reason = 'Other';
      x.eventTime = '2024-05-01T10:00:01Z';
      x.related = { kind: 'Pod', name: 'p' };
    });
    expect(messages(eventV1Strategy.validateUpdate(ctx, changed, old))).to.deep.equal([
      'involvedObject: Invalid value: core.ObjectReference{Kind:"Deployment", Namespace:"default", Name:"api", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
      'reason: Invalid value: "Other": field is immutable',
      'message: Invalid value: "other": field is immutable',
      'reason: Invalid value: "Other": field is immutable',
      'eventTime: Invalid value: 2024-05-01 10:00:01 +0000 UTC: field is immutable',
      'related: Invalid value: core.ObjectReference{Kind:"Pod", Namespace:"", Name:"p", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
    ]);
  });

  it('prints as the core Event it is stored as', () => {
    const o = { ...minimal(), metadata: meta('web.1', 60), series: { count: 3, lastObservedTime: '2024-05-01T11:59:30Z' } };
    expect(cellsOf(eventV1, o)).to.deep.equal(['30s', 'Normal', 'Scaled', 'deployment/web', '', 'example.com/controller, controller-1', 'Scaled up', '119m', 3, 'web.1']);
  });
});
