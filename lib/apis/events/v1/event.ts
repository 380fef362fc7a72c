/**
 * `events.<vendor>/v1` Event: the events API's view of the core/v1 Event objects (upstream v1.30
 * `staging/src/k8s.io/api/events/v1/types.go`: field order, JSON names, protobuf numbers; stored
 * as core/v1 Events through ./conversion.ts). Short name `ev`, as the core resource; no defaults.
 * Field selectors as upstream's events/v1 field label conversion allows (regarding.*, reason,
 * reportingController, type). Its stricter create and update rules: ./event-validation.ts.
 */
import { field, int32, microTime, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { eventSource } from '../../core/v1/event.js';
import { objectReference } from '../../core/v1/references.js';
import { byPath } from '../../field-selectors.js';
import { objectMeta } from '../../meta/v1/types.js';
import { eventsV1EventPrinter } from '../../printers/event.js';
import { vendorGroup } from '../../vendor.js';

/** The API group of the events API (`events.<vendor domain>`). */
export const EVENTS_GROUP = vendorGroup('events');

/** Count and last time of a repeating event. */
export const eventSeriesV1 = struct('api.events.v1.EventSeries', {
  count: field(1, int32, { required: true, omitEmpty: false, description: 'How many times the event happened up to the last heartbeat.' }),
  lastObservedTime: field(2, microTime, { required: true, omitEmpty: false, description: 'When the event last happened before the last heartbeat.' }),
});

/** The Event kind of the events API: namespaced, short name `ev`. */
export const eventV1 = defineKind({
  group: EVENTS_GROUP,
  version: 'v1',
  kind: 'Event',
  resource: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  description: 'A report of an occurrence concerning an object, such as a state change or an error.',
  fieldSelectors: byPath(
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
  ),
  printerColumns: eventsV1EventPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    eventTime: field(2, microTime, { required: true, omitEmpty: false, description: 'When the event was first observed.' }),
    series: field(3, eventSeriesV1, { description: 'The series the event belongs to; absent for a singleton event.' }),
    reportingController: field(4, string, { description: 'The controller that emitted the event.' }),
    reportingInstance: field(5, string, { description: 'The instance of the controller that emitted the event.' }),
    action: field(6, string, { description: 'What was done, or failed, regarding the object.' }),
    reason: field(7, string, { description: 'Why the action was taken.' }),
    regarding: field(8, objectReference, { omitEmpty: false, description: 'The object the event is about.' }),
    related: field(9, objectReference, { description: 'A secondary object of the action.' }),
    note: field(10, string, { description: 'Human-readable description of the status of the action.' }),
    type: field(11, string, { description: 'Normal or Warning.' }),
    deprecatedSource: field(12, eventSource, { omitEmpty: false, description: 'The core/v1 source of the event, kept for compatibility.' }),
    deprecatedFirstTimestamp: field(13, time, { omitEmpty: false, description: 'The core/v1 firstTimestamp, kept for compatibility.' }),
    deprecatedLastTimestamp: field(14, time, { omitEmpty: false, description: 'The core/v1 lastTimestamp, kept for compatibility.' }),
    deprecatedCount: field(15, int32, { description: 'The core/v1 count, kept for compatibility.' }),
  },
});
