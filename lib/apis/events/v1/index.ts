/**
 * The kinds of `events.<vendor>/v1` (issue #12 item 1): Event, served over the core/v1 Event
 * objects through eventV1Conversion (the functions of ./conversion.ts bound to the two kinds).
 */
import { event } from '../../core/v1/event.js';
import type { KindDefinition } from '../../define.js';
import { defineVersionConversion, type VersionConversion } from '../../version-conversion.js';
import { EVENT_V1_FIELD_LABELS, eventFromV1, eventToV1 } from './conversion.js';
import { eventV1 } from './event.js';

export { EVENT_V1_FIELD_LABELS, eventFromV1, eventToV1 } from './conversion.js';
export { EVENTS_GROUP, eventSeriesV1, eventV1 } from './event.js';
export { validateEventV1Create, validateEventV1Update } from './event-validation.js';

/** events/v1 Event served over core/v1 Event storage. */
export const eventV1Conversion: VersionConversion = defineVersionConversion({
  storageKind: event,
  servedKind: eventV1,
  toStorage: eventFromV1,
  toServed: eventToV1,
  fieldLabels: EVENT_V1_FIELD_LABELS,
});

/** Every kind of the group version, for the catalogue. */
export const eventsV1Kinds: readonly KindDefinition[] = [eventV1];
