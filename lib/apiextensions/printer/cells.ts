/**
 * The cell of a custom resource's printer column from the first value its JSONPath finds
 * (upstream tableconvertor `cellForJSONValue`, and `PrintResults` for `string` columns): typed as
 * the column's type, `null` (upstream's nil cell) when the value has another type, and a `date`
 * column as the age of the timestamp (`3m12s`; `<unknown>` for an empty or zero time,
 * `<invalid>` for a string that is not RFC 3339). Pure.
 */
import { printJSONPathValue } from '../../apimachinery/jsonpath/print.js';
import { humanDuration } from '../../apimachinery/table/human-duration.js';
import type { Cell } from '../../apimachinery/table/types.js';

/** Go's time.Parse(time.RFC3339, …): `2006-01-02T15:04:05[.frac](Z|±07:00)`. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,](\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;
/** Go's zero time, 0001-01-01T00:00:00Z, in epoch ms. */
const ZERO_TIME_MS = Date.parse('0001-01-01T00:00:00Z');

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The instant of an RFC 3339 timestamp in epoch ms (fractional), `null` for the empty string,
 * `null` text and the zero time (metav1.Time `UnmarshalQueryParameter` then `IsZero`), or
 * undefined when it does not parse.
 */
export function parseQueryTime(text: string): number | null | undefined {
  if (text === '' || text === 'null') return null;
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[8] !== undefined) {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[8] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  const fraction = m[7] === undefined ? 0 : Number(`0.${m[7].slice(0, 9)}`) * 1000;
  const ms = d.getTime() - offsetMinutes * 60000 + fraction;
  return ms === ZERO_TIME_MS ? null : ms;
}

/** A `date` cell: the age at `now` of an RFC 3339 timestamp. */
function dateCell(value: unknown, now: number): Cell {
  if (typeof value !== 'string') return null;
  const ms = parseQueryTime(value);
  if (ms === undefined) return '<invalid>';
  if (ms === null) return '<unknown>';
  return humanDuration(now - ms);
}

/**
 * The cell of a column of `type` (`integer`, `number`, `boolean`, `string`, `date`) for `value`
 * (the JSONPath's first result): integers truncate a fractional number, `string` columns print
 * any value (objects and arrays as JSON, null as `<no value>`), other mismatches and unknown
 * types give `null`.
 */
export function columnCell(type: string, value: unknown, now: number): Cell {
  if (type === 'string') return printJSONPathValue(value);
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return dateCell(value, now);
    default:
      return null;
  }
}
