/**
 * Go's `time.Parse(time.RFC3339, value)` as the upstream server runs it (Go 1.22): metav1.Time
 * and MicroTime in request bodies, bootstrap token expirations and printer columns go through
 * it. The layout `2006-01-02T15:04:05Z07:00` is read element by element with Go's acceptances —
 * an hour of one or two digits, a fraction after the seconds (`.` or `,`, any number of digits,
 * nine kept), `Z` or a `±hh:mm` offset of at most 24:60, an upper-case `T` and `Z` only — and a
 * value that does not parse gets Go's error text (spec 001 § Errors: decode errors as upstream):
 *
 * - `parsing time "<value>" as "2006-01-02T15:04:05Z07:00": cannot parse "<rest>" as "<element>"`
 * - `parsing time "<value>": month out of range` (also hour, minute, second, day, time zone offset hour/minute)
 * - `parsing time "<value>": extra text: "<rest>"`
 */
import { goTimeQuote } from './go-quote.js';

/** An instant Go parsed: epoch milliseconds of its whole second (UTC), and the fraction in nanoseconds (0–999,999,999). */
export interface GoTime {
  secondMs: number;
  nanos: number;
}

/**
 * The layout's numbers after the year, in order: the literal before each, its layout element, whether
 * it takes exactly two digits, its largest value and its name in range errors (the day's range
 * depends on the month and is checked last, as Go does).
 */
const NUMBER_FIELDS: ReadonlyArray<readonly [prefix: string, element: string, fixed: boolean, max: number, name: string]> = [
  ['-', '01', true, 12, 'month'],
  ['-', '02', true, 99, 'day'],
  ['T', '15', false, 23, 'hour'],
  [':', '04', true, 59, 'minute'],
  [':', '05', true, 59, 'second'],
];

/** The layout the errors name. */
export const RFC3339_LAYOUT = '2006-01-02T15:04:05Z07:00';

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

/** The days of `month` (1–12) in `year` (Go's `daysIn`). */
export function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Go's `getnum`: one or two leading digits (two when `fixed`); undefined when missing. */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [s.charCodeAt(0) - 0x30, s.slice(1)];
  return [(s.charCodeAt(0) - 0x30) * 10 + (s.charCodeAt(1) - 0x30), s.slice(2)];
}

/**
 * Parses `value` as Go's `time.Parse(time.RFC3339, value)` does.
 * @returns the instant, or `{ error }` with Go's error text. Pure; throws nothing.
 */
export function parseGoRFC3339(value: string): GoTime | { error: string } {
  const cannot = (rest: string, element: string) => ({
    error: `parsing time ${goTimeQuote(value)} as ${goTimeQuote(RFC3339_LAYOUT)}: cannot parse ${goTimeQuote(rest)} as ${goTimeQuote(element)}`,
  });
  const outOfRange = (what: string) => ({ error: `parsing time ${goTimeQuote(value)}: ${what} out of range` });
  const literal = (rest: string, prefix: string): string | undefined => (rest.startsWith(prefix) ? rest.slice(prefix.length) : undefined);
  let rest = value;
  // 2006
  if (rest.length < 4 || !/^\d{4}/.test(rest)) return cannot(rest, '2006');
  const year = Number(rest.slice(0, 4));
  rest = rest.slice(4);
  const n: number[] = [];
  for (const [prefix, element, fixed, max, name] of NUMBER_FIELDS) {
    const after = literal(rest, prefix);
    if (after === undefined) return cannot(rest.slice(firstMismatch(rest, prefix)), prefix);
    const got = getnum(after, fixed);
    if (!got) return cannot(after, element);
    if (got[0] > max || (name === 'month' && got[0] === 0)) return outOfRange(name);
    n.push(got[0]);
    rest = got[1];
  }
  const [month, day, hour, minute, second] = n as [number, number, number, number, number];
  // A fraction the layout does not name: `.` or `,` and digits, nine of them kept.
  let nanos = 0;
  if (rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1)) {
    let end = 2;
    while (end < rest.length && isDigit(rest, end)) end++;
    nanos = Number(rest.slice(1, Math.min(end, 10)).padEnd(9, '0'));
    rest = rest.slice(end);
  }
  // Z07:00
  let offsetSeconds = 0;
  if (rest.startsWith('Z')) rest = rest.slice(1);
  else {
    if (rest.length < 6 || rest[3] !== ':') return cannot(rest, 'Z07:00');
    const hh = getnum(rest.slice(1, 3), true);
    const mm = getnum(rest.slice(4, 6), true);
    const sign = rest[0];
    if (!hh || !mm || (sign !== '+' && sign !== '-')) return cannot(rest, 'Z07:00');
    if (mm[0] > 60) return outOfRange('time zone offset minute');
    if (hh[0] > 24) return outOfRange('time zone offset hour');
    offsetSeconds = (sign === '-' ? -1 : 1) * (hh[0] * 60 + mm[0]) * 60;
    rest = rest.slice(6);
  }
  if (rest !== '') return { error: `parsing time ${goTimeQuote(value)}: extra text: ${goTimeQuote(rest)}` };
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return { secondMs: d.getTime() - offsetSeconds * 1000, nanos };
}

/** Where `rest` stops matching `prefix` (Go's `skip` reports the value from there). */
function firstMismatch(rest: string, prefix: string): number {
  let i = 0;
  while (i < prefix.length && rest[i] === prefix[i]) i++;
  return i;
}

/** The instant `value` names in epoch milliseconds (the fraction kept), or undefined when Go's `time.Parse(time.RFC3339, …)` refuses it. */
export function goRFC3339Millis(value: string): number | undefined {
  const t = parseGoRFC3339(value);
  return 'error' in t ? undefined : t.secondMs + t.nanos / 1e6;
}
