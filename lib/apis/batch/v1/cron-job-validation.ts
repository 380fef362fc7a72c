/**
 * CronJob validation with the upstream (v1.30) paths and messages: names of at most 52
 * characters (the controller appends an 11-character suffix to job names), a parsable schedule
 * without TZ/CRON_TZ (use `timeZone`), a known explicit time zone, the job template (no selector,
 * no manual selector) and non-negative limits. A missing schedule is reported by the schema.
 */
import { type FieldError, FieldPath, invalid, notSupported } from '../../../apimachinery/field-errors.js';
import { validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { obj, str, type Obj } from '../../core/v1/obj-access.js';
import { cronScheduleError, timeZoneError } from './cron-schedule.js';
import { validateJobSpecCommon } from './job-validation.js';

const spec = FieldPath.of('spec');
/** Longest CronJob name: 63 (a job name) minus the 11-character `-<timestamp>` suffix. */
export const CRON_JOB_NAME_MAX = 52;
const ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** `schedule` parses and does not carry TZ/CRON_TZ (the `timeZone` field replaces it). */
function validateSchedule(schedule: string): FieldError[] {
  if (!schedule) return [];
  const path = spec.child('schedule');
  const errs: FieldError[] = [];
  const parseError = cronScheduleError(schedule);
  if (parseError) errs.push(invalid(path, schedule, parseError));
  if (schedule.includes('TZ')) errs.push(invalid(path, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  return errs;
}

/** An explicit IANA time zone, when set. */
function validateTimeZone(timeZone: unknown): FieldError[] {
  if (typeof timeZone !== 'string') return [];
  const path = spec.child('timeZone');
  if (timeZone === '') return [invalid(path, timeZone, 'timeZone must be nil or non-empty string')];
  for (const part of timeZone.split('/'))
    if (part === '.' || part === '..' || part.startsWith('-') || !ZONE_PART.test(part)) return [invalid(path, timeZone, `unknown time zone ${timeZone}`)];
  const errs: FieldError[] = [];
  if (timeZone.toLowerCase() === 'local') errs.push(invalid(path, timeZone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  const zoneError = timeZoneError(timeZone);
  if (zoneError) errs.push(invalid(path, timeZone, zoneError));
  return errs;
}

/** The job template of a CronJob: a valid JobSpec whose selector the controller generates. */
function validateJobTemplate(template: unknown, path: FieldPath): FieldError[] {
  const jobSpec = obj(obj(template)?.spec) ?? {};
  const errs = validateJobSpecCommon(jobSpec, path.child('spec'));
  if (jobSpec.selector !== undefined) errs.push(invalid(path.child('spec', 'selector'), jobSpec.selector, '`selector` will be auto-generated'));
  if (jobSpec.manualSelector === true) errs.push(notSupported(path.child('spec', 'manualSelector'), true, ['nil', 'false']));
  return errs;
}

/**
 * CronJob validation on create and update: the spec and the 52-character name limit. Upstream
 * skips the name limit, the TZ rule and unchanged time zones on update, for objects stored by
 * older servers; objects stored here always passed them on create.
 */
export function validateCronJob(cj: Obj): FieldError[] {
  const s = obj(cj.spec) ?? {};
  const errs = validateSchedule(str(s.schedule));
  errs.push(...validateNonnegative(s.startingDeadlineSeconds, spec.child('startingDeadlineSeconds')));
  errs.push(...validateTimeZone(s.timeZone));
  errs.push(...validateJobTemplate(s.jobTemplate, spec.child('jobTemplate')));
  errs.push(...validateNonnegative(s.successfulJobsHistoryLimit, spec.child('successfulJobsHistoryLimit')));
  errs.push(...validateNonnegative(s.failedJobsHistoryLimit, spec.child('failedJobsHistoryLimit')));
  const name = str(obj(cj.metadata)?.name);
  if (name.length > CRON_JOB_NAME_MAX) errs.push(invalid(FieldPath.of('metadata', 'name'), name, `must be no more than ${CRON_JOB_NAME_MAX} characters`));
  return errs;
}
