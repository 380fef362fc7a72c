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
import { goRFC3339Millis } from '../../apimachinery/go-time.js';

/** Go's zero time, 0001-01-01T00:00:00Z, in epoch ms. */
const ZERO_TIME_MS = Date.parse('0001-01-01T00:00:00Z');

/**
 * The instant of an RFC 3339 timestamp in epoch ms (fractional; Go's `time.Parse(time.RFC3339, …)`,
 * lib/apimachinery/go-time.ts), `null` for the empty string, `null` text and the zero time
 * (metav1.Time `UnmarshalQueryParameter` then `IsZero`), or undefined when it does not parse.
 */
export function parseQueryTime(text: string): number | null | undefined {
  if (text === '' || text === 'null') return null;
  const ms = goRFC3339Millis(text);
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
