/**
 * Durations for people, as Table cells print ages (`5s`, `3m12s`, `2d3h`): the precision and
 * thresholds of upstream `duration.HumanDuration` and `duration.ShortHumanDuration`. A duration
 * slightly negative (clock skew under two seconds) prints as `0s`; more negative as `<invalid>`.
 * Durations are milliseconds. Pure.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY_HOURS = 24;
const YEAR_HOURS = 365 * DAY_HOURS;

/** Whole units in `ms`, truncated toward zero (Go integer division of durations). */
function whole(ms: number, unit: number): number {
  return Math.trunc(ms / unit);
}

/** `<invalid>`, `0s` or undefined when the duration is not negative. */
function negative(ms: number): string | undefined {
  const seconds = whole(ms, SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  return undefined;
}

/** `<major><unit1>` or `<major><unit1><minor><unit2>` when minor is not zero. */
function pair(major: number, unit1: string, minor: number, unit2: string): string {
  return minor === 0 ? `${major}${unit1}` : `${major}${unit1}${minor}${unit2}`;
}

/**
 * Two or three significant figures: seconds below 2 minutes, `XmYs` below 10 minutes, minutes
 * below 3 hours, `XhYm` below 8 hours, hours below 2 days, `XdYh` below 8 days, days below 2
 * years, `XyYd` below 8 years, then years.
 */
export function humanDuration(ms: number): string {
  const neg = negative(ms);
  if (neg !== undefined) return neg;
  const seconds = whole(ms, SECOND);
  if (seconds < 120) return `${seconds}s`;
  const minutes = whole(ms, MINUTE);
  if (minutes < 10) return pair(minutes, 'm', seconds % 60, 's');
  if (minutes < 180) return `${minutes}m`;
  const hours = whole(ms, HOUR);
  if (hours < 8) return pair(hours, 'h', minutes % 60, 'm');
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / DAY_HOURS);
  if (hours < 8 * DAY_HOURS) return pair(days, 'd', hours % DAY_HOURS, 'h');
  if (hours < 2 * YEAR_HOURS) return `${days}d`;
  const years = Math.trunc(hours / YEAR_HOURS);
  if (hours < 8 * YEAR_HOURS) return pair(years, 'y', days % 365, 'd');
  return `${years}y`;
}

/** One unit only: seconds below a minute, then minutes, hours, days, years. */
export function shortHumanDuration(ms: number): string {
  const neg = negative(ms);
  if (neg !== undefined) return neg;
  const seconds = whole(ms, SECOND);
  if (seconds < 60) return `${seconds}s`;
  const minutes = whole(ms, MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = whole(ms, HOUR);
  if (hours < DAY_HOURS) return `${hours}h`;
  if (hours < YEAR_HOURS) return `${Math.trunc(hours / DAY_HOURS)}d`;
  return `${Math.trunc(ms / HOUR / YEAR_HOURS)}y`;
}
