/**
 * AGE as kubectl prints it (issue #22 § Lists are live; "AGE as kubectl prints it"): the
 * precision and thresholds of upstream `duration.HumanDuration` — seconds below 2 minutes, `XmYs`
 * below 10 minutes, minutes below 3 hours, `XhYm` below 8 hours, hours below 2 days, `XdYh` below
 * 8 days, days below 2 years, `XyYd` below 8 years, then years. Up to two seconds in the future
 * (clock skew) is `0s`; more is `<invalid>`.
 */

/** `<major><unit1>`, or `<major><unit1><minor><unit2>` when minor is not zero. */
function pair(major: number, unit1: string, minor: number, unit2: string): string {
  return minor === 0 ? `${major}${unit1}` : `${major}${unit1}${minor}${unit2}`;
}

/** A duration in milliseconds as kubectl prints an age (issue #22 § Lists are live). */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) return pair(minutes, 'm', seconds % 60, 's');
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) return pair(hours, 'h', minutes % 60, 'm');
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 8 * 24) return pair(days, 'd', hours % 24, 'h');
  if (hours < 2 * 365 * 24) return `${days}d`;
  const years = Math.trunc(hours / (365 * 24));
  if (hours < 8 * 365 * 24) return pair(years, 'y', days % 365, 'd');
  return `${years}y`;
}

/** The age at `now` (ms since the epoch) of an RFC 3339 timestamp, or undefined when it does not parse (issue #22 § Lists are live). */
export function ageOf(timestamp: string, now: number): string | undefined {
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? undefined : humanDuration(now - t);
}
