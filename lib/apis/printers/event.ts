/**
 * The core Event's Table columns (spec 000 § Table representation): Last Seen, Type, Reason,
 * Object, Message; wide: Subobject, Source, First Seen, Count, Name. Cells as the upstream v1.30
 * printer:
 * - First Seen: age of firstTimestamp, else of eventTime; Last Seen: age of lastTimestamp, else
 *   First Seen; for a series, its lastObservedTime.
 * - Count: the series count, else `count`, at least 1 (singleton new-style events have none).
 * - Object: `<kind lower-cased>/<name>` of the involved object (the kind alone without a name).
 * - Source: component (or reportingComponent), then `, host` (or reportingInstance) when set.
 * An events/v1 Event prints as the core Event it is stored as (upstream prints the internal one).
 */
import { ageSince, timestampMillis } from '../../apimachinery/table/timestamps.js';
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { obj, str, type Obj } from '../core/v1/obj-access.js';
import { eventFromV1 } from '../events/v1/conversion.js';
import { at, column, int, NAME_COLUMN, objectName, WIDE } from './common.js';

const COLUMNS = Object.freeze([
  column('Last Seen', 'string', 'Time since the event was last observed.'),
  column('Type', 'string', 'Normal or Warning.'),
  column('Reason', 'string', 'Short machine-readable cause of the event.'),
  column('Object', 'string', 'The object the event is about, as kind/name.'),
  column('Subobject', 'string', 'The part of the object the event is about (field path).', WIDE),
  column('Source', 'string', 'The component and host that reported the event.', WIDE),
  column('Message', 'string', 'Human-readable description of the event.'),
  column('First Seen', 'string', 'Time since the event was first observed.', WIDE),
  column('Count', 'string', 'How many times the event was observed.', WIDE),
  { ...NAME_COLUMN, priority: 1 },
]);

/** The age of a timestamp, or undefined when it is absent or zero. */
function ageIfSet(value: unknown, now: number): string | undefined {
  return timestampMillis(value) === undefined ? undefined : ageSince(value, now);
}

/** `component, instance`, or the component alone without an instance. */
function source(ev: Obj): string {
  const src = at(ev, 'source');
  const component = str(src.component) || str(ev.reportingComponent);
  const instance = str(src.host) || str(ev.reportingInstance);
  return instance === '' ? component : `${component}, ${instance}`;
}

function target(ev: Obj): string {
  const involved = at(ev, 'involvedObject');
  const kind = str(involved.kind).toLowerCase();
  const name = str(involved.name);
  return name === '' ? kind : `${kind}/${name}`;
}

function eventCells(ev: Obj, now: number): Array<string | number> {
  const firstSeen = ageIfSet(ev.firstTimestamp, now) ?? ageSince(ev.eventTime, now);
  let lastSeen = ageIfSet(ev.lastTimestamp, now) ?? firstSeen;
  let count = int(ev.count);
  const series = obj(ev.series);
  if (series !== undefined) {
    lastSeen = ageSince(series.lastObservedTime, now);
    count = int(series.count);
  } else if (count === 0) {
    count = 1;
  }
  return [lastSeen, str(ev.type), str(ev.reason), target(ev), str(at(ev, 'involvedObject').fieldPath), source(ev), str(ev.message).trim(), firstSeen, count, objectName(ev)];
}

/** The Event printer. */
export const eventPrinter: TablePrinter = Object.freeze({ columns: COLUMNS, cells: eventCells });

/** The events/v1 Event printer: the same columns and cells, of the core Event it converts to. */
export const eventsV1EventPrinter: TablePrinter = Object.freeze({ columns: COLUMNS, cells: (ev: Obj, now: number) => eventCells(eventFromV1(ev), now) });
