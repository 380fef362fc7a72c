/**
 * AGE as kubectl prints it (issue #22 § Lists are live): the server's own rendering of upstream
 * `duration.HumanDuration` (lib/apimachinery/table/human-duration.ts, pure and shared with the
 * Table cells the server writes), applied to a creation timestamp in the browser.
 */
import { humanDuration } from '../../../lib/apimachinery/table/human-duration.js';

/** The age at `now` (ms since the epoch) of an RFC 3339 timestamp, or undefined when it does not parse (issue #22 § Lists are live). */
export function ageOf(timestamp: string, now: number): string | undefined {
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? undefined : humanDuration(now - t);
}
