/**
 * `events.<vendor>/v1` Event ↔ core/v1 Event, the kind both are stored as (upstream v1.30
 * `pkg/apis/events/v1/conversion.go`: events/v1 converts through the internal core Event):
 * `regarding` ↔ `involvedObject`, `note` ↔ `message`, `deprecatedSource` ↔ `source`,
 * `deprecatedFirstTimestamp` / `deprecatedLastTimestamp` / `deprecatedCount` ↔
 * `firstTimestamp` / `lastTimestamp` / `count`, `reportingController` ↔ `reportingComponent`;
 * metadata, `eventTime`, `series`, `reportingInstance`, `action`, `reason`, `related` and `type`
 * carry over. Field selectors of events/v1 name the core labels through EVENT_V1_FIELD_LABELS.
 */
import type { Obj } from '../../define.js';

/** Each events/v1 field and the core/v1 field it is, where the names differ. */
const RENAMED: ReadonlyArray<readonly [events: string, core: string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['reportingController', 'reportingComponent'],
];

/** The fields both versions name alike. */
const SHARED = ['metadata', 'eventTime', 'series', 'reportingInstance', 'action', 'reason', 'related', 'type'];

function copyFields(from: Obj, pairs: ReadonlyArray<readonly [string, string]>): Obj {
  const out: Obj = {};
  for (const [src, dst] of pairs) if (from[src] !== undefined) out[dst] = from[src];
  return out;
}

const TO_CORE = [...SHARED.map((f) => [f, f] as const), ...RENAMED];
const TO_EVENTS = [...SHARED.map((f) => [f, f] as const), ...RENAMED.map(([events, core]) => [core, events] as const)];

/** An events/v1 Event as the core/v1 Event it is stored as (upstream Convert_v1_Event_To_core_Event). */
export function eventFromV1(ev: Obj): Obj {
  return copyFields(ev, TO_CORE);
}

/** A stored core/v1 Event as events/v1 serves it (upstream Convert_core_Event_To_v1_Event). */
export function eventToV1(ev: Obj): Obj {
  return copyFields(ev, TO_EVENTS);
}

/**
 * The field-selector labels of events/v1 and the core labels they select on (upstream
 * AddFieldLabelConversionsForEvent of events/v1); no other label is accepted.
 */
export const EVENT_V1_FIELD_LABELS: Readonly<Record<string, string>> = Object.freeze({
  'metadata.name': 'metadata.name',
  'metadata.namespace': 'metadata.namespace',
  reason: 'reason',
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reportingController: 'reportingComponent',
  type: 'type',
});
