/**
 * CronJob schedules and time zones, checked as upstream does: schedules with the standard cron
 * parser the controller uses (five fields minute hour day-of-month month day-of-week, lists,
 * ranges, steps, month and weekday names, `?`, the `@yearly`… `@hourly` and `@every <duration>`
 * descriptors, an optional `TZ=`/`CRON_TZ=` prefix) with its error messages; time zones as IANA
 * names known to the runtime's time zone database.
 */
import { DurationError, parseDurationNanos } from '../../../apimachinery/duration.js';

interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
/** Minute, hour, day of month, month, day of week. */
const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
const INT64_MAX = (1n << 63n) - 1n;

/** A failed parse, with the parser's message. */
class CronError extends Error {}

/** Go `strconv.Atoi` then the parser's non-negative rule. */
function parseInt(expr: string): number {
  if (!/^[+-]?[0-9]+$/.test(expr)) throw new CronError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`);
  const big = BigInt(expr);
  if (big > INT64_MAX || big < -INT64_MAX - 1n) throw new CronError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`);
  const n = Number(big);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, b: Bounds): number {
  const named = b.names?.[expr.toLowerCase()];
  return named ?? parseInt(expr);
}

/** One comma-separated part of a field: `*`, `?`, `n`, `a-b`, each optionally `/step`. */
function checkRange(expr: string, b: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, b);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, b);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseInt(rangeAndStep[1]!);
    if (lowAndHigh.length === 1) end = b.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < b.min) throw new CronError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new CronError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

function checkDescriptor(spec: string): void {
  if (DESCRIPTORS.has(spec)) return;
  if (spec.startsWith('@every ')) {
    try {
      parseDurationNanos(spec.slice('@every '.length));
      return;
    } catch (err) {
      if (err instanceof DurationError) throw new CronError(`failed to parse duration ${spec}: ${err.message}`);
      throw err;
    }
  }
  throw new CronError(`unrecognized descriptor: ${spec}`);
}

/** The parser's error for `schedule`, or undefined when it parses (upstream `cron.ParseStandard`). */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    let spec = schedule;
    if (spec.length === 0) throw new CronError('empty spec string');
    if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
      const space = spec.indexOf(' ');
      const zone = spec.slice(spec.indexOf('=') + 1, space < 0 ? undefined : space);
      const zoneError = timeZoneError(zone);
      if (zoneError) throw new CronError(`provided bad location ${zone}: ${zoneError}`);
      spec = space < 0 ? '' : spec.slice(space).trim();
    }
    if (spec.startsWith('@')) {
      checkDescriptor(spec);
      return undefined;
    }
    const fields = spec.split(/\s+/).filter((f) => f !== '');
    if (fields.length !== FIELDS.length) throw new CronError(`expected exactly ${FIELDS.length} fields, found ${fields.length}: [${fields.join(' ')}]`);
    fields.forEach((f, i) => {
      for (const part of f.split(',').filter((p) => p !== '')) checkRange(part, FIELDS[i]!);
    });
    return undefined;
  } catch (err) {
    if (err instanceof CronError) return err.message;
    throw err;
  }
}

let knownZones: Map<string, string> | undefined;

/** Canonical IANA names by lower case, to reject case variants the runtime would accept. */
function zonesByLowerCase(): Map<string, string> {
  knownZones ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
  return knownZones;
}

/** Go `time.LoadLocation`'s error for `name` (`unknown time zone X`), or undefined when known. */
export function timeZoneError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  const canonical = zonesByLowerCase().get(name.toLowerCase());
  if (canonical !== undefined && canonical !== name) return `unknown time zone ${name}`;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return undefined;
  } catch (err) {
    if (err instanceof RangeError) return `unknown time zone ${name}`;
    throw err;
  }
}
