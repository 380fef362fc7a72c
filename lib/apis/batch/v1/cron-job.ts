/**
 * batch/v1 CronJob: creates Jobs on a cron schedule. Declared once here with the upstream v1.30
 * structure. Defaults as `SetDefaults_CronJob`: concurrency Allow, not suspended, keep 3
 * successful and 1 failed job. Short name `cj`, category `all`.
 */
import { boolean, enumOf, field, int32, int64, listOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { objectReference } from '../../core/v1/references.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { validateCronJob } from './cron-job-validation.js';
import { BATCH, jobTemplateSpec } from './job-types.js';
import { cronJobPrinter } from '../../printers/workloads.js';

/** The schedule and the Jobs to create. */
export const cronJobSpec = struct(
  `${BATCH}.CronJobSpec`,
  {
    schedule: field(1, string, { required: true, omitEmpty: false, description: 'Cron schedule (five fields or a descriptor such as @hourly).' }),
    timeZone: field(8, string, { pointer: true, description: 'IANA time zone of the schedule.' }),
    startingDeadlineSeconds: field(2, int64),
    concurrencyPolicy: field(3, enumOf('Allow', 'Forbid', 'Replace'), { default: 'Allow' }),
    suspend: field(4, boolean, { default: false }),
    jobTemplate: field(5, jobTemplateSpec, { required: true, omitEmpty: false }),
    successfulJobsHistoryLimit: field(6, int32, { default: 3 }),
    failedJobsHistoryLimit: field(7, int32, { default: 1 }),
  },
  { description: 'The desired behaviour of a CronJob.' },
);

/** The running Jobs and the last schedule and success times. */
export const cronJobStatus = struct(
  `${BATCH}.CronJobStatus`,
  {
    active: field(1, listOf(objectReference, { listType: 'atomic' })),
    lastScheduleTime: field(4, time),
    lastSuccessfulTime: field(5, time),
  },
  { description: 'The most recently observed status of a CronJob.' },
);

/** The batch/v1 CronJob kind (`cj`, category `all`, with a status subresource; names ≤ 52 characters). */
export const cronJob = defineKind({
  group: 'batch',
  version: 'v1',
  kind: 'CronJob',
  resource: 'cronjobs',
  singular: 'cronjob',
  namespaced: true,
  shortNames: ['cj'],
  categories: ['all'],
  statusSubresource: true,
  nameRule: 'dns1123Subdomain',
  description: 'Creates Jobs on a repeating schedule.',
  printerColumns: cronJobPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, cronJobSpec, { omitEmpty: false }),
    status: field(3, cronJobStatus, { omitEmpty: false }),
  },
  validate: validateCronJob,
});
