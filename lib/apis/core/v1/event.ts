/**
 * core/v1 Event: a report of something that happened to an object (the core-group Event with
 * `involvedObject`; upstream field structure and protobuf numbers). Names are only checked as
 * path segments, as upstream does for this group. spec 000 § Resources and their fields.
 */
import { field, int32, microTime, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { validateEvent } from './event-validation.js';
import { CORE, objectReference } from './references.js';
import { byPath, fieldValue } from '../../field-selectors.js';
import { eventPrinter } from '../../printers/event.js';

/** The component and host that reported an old-style event. */
export const eventSource = struct(`${CORE}.EventSource`, {
  component: field(1, string),
  host: field(2, string),
});

/** Count and last time of a repeating event. */
export const eventSeries = struct(`${CORE}.EventSeries`, {
  count: field(1, int32),
  lastObservedTime: field(2, microTime, { omitEmpty: false }),
});

/** The core Event kind: namespaced, path-segment names. */
export const event = defineKind({
  group: '',
  version: 'v1',
  kind: 'Event',
  resource: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  nameRule: 'pathSegment',
  description: 'A report of an occurrence concerning an object, such as a state change or an error.',
  fieldSelectors: {
    ...byPath(
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'type',
    ),
    source: (o) => fieldValue(o, 'source.component'),
  },
  printerColumns: eventPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    involvedObject: field(2, objectReference, { required: true, omitEmpty: false, description: 'The object the event is about.' }),
    reason: field(3, string, { description: 'Short machine-readable cause of the event.' }),
    message: field(4, string, { description: 'Human-readable description of the event.' }),
    source: field(5, eventSource, { omitEmpty: false, description: 'Component and host that reported an old-style event.' }),
    firstTimestamp: field(6, time, { omitEmpty: false }),
    lastTimestamp: field(7, time, { omitEmpty: false }),
    count: field(8, int32),
    type: field(9, string, { description: 'Normal or Warning.' }),
    eventTime: field(10, microTime, { omitEmpty: false, description: 'When a new-style event was first observed.' }),
    series: field(11, eventSeries),
    action: field(12, string),
    related: field(13, objectReference, { description: 'A secondary object involved in the event.' }),
    reportingComponent: field(14, string, { omitEmpty: false }),
    reportingInstance: field(15, string, { omitEmpty: false }),
  },
  validate: validateEvent,
});
