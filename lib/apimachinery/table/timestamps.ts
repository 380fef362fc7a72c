/**
 * Reading `metav1.Time` / `metav1.MicroTime` values (RFC 3339 strings) for Table cells: epoch
 * milliseconds, the zero time, ages (`translateTimestampSince` upstream) and the RFC 3339 text of
 * the `Created At` column. Pure: the current time is always passed in.
 */
import { humanDuration } from './human-duration.js';

/** Go's zero time, 0001-01-01T00:00:00Z, in epoch milliseconds. */
const ZERO_TIME_MS = Date.parse('0001-01-01T00:00:00Z');

const RFC3339 = /^(\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The instant of an RFC 3339 timestamp in epoch ms — fractional, so that a MicroTime keeps its
 * microseconds (Go truncates ages to whole units from nanosecond instants) — or undefined when
 * absent, malformed or the zero time (upstream `Time.IsZero`).
 */
export function timestampMillis(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const whole = Date.parse(`${m[1]}${m[3]!.toUpperCase()}`);
  if (Number.isNaN(whole)) return undefined;
  const ms = m[2] === undefined ? whole : whole + Number(`0.${m[2]}`) * 1000;
  return ms === ZERO_TIME_MS ? undefined : ms;
}

/** The age of a timestamp at `now` (`3m12s`), or `<unknown>` for an absent or zero time. */
export function ageSince(value: unknown, now: number): string {
  const ms = timestampMillis(value);
  return ms === undefined ? '<unknown>' : humanDuration(now - ms);
}

/**
 * RFC 3339 in UTC with whole seconds (`2024-05-01T10:00:00Z`), as Go formats
 * `Time.UTC().Format(time.RFC3339)`; the zero time for an absent value.
 */
export function rfc3339(value: unknown): string {
  const ms = timestampMillis(value) ?? ZERO_TIME_MS;
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}
