/**
 * Table columns of the workload kinds (spec 000 § Table representation), cells as the upstream
 * v1.30 printers compute them:
 * - Deployment: Name, Ready (`ready/desired`), Up-to-date, Available, Age; wide: Containers,
 *   Images, Selector.
 * - Job: Name, Status (Complete, Failed, Terminating, Suspended, FailureTarget or Running),
 *   Completions (`succeeded/completions`, `succeeded/1 of <parallelism>`), Duration (start to
 *   completion, or to now), Age; wide: Containers, Images, Selector.
 * - CronJob: Name, Schedule, Timezone, Suspend, Active, Last Schedule, Age; wide: Containers,
 *   Images, Selector (of the job template).
 */
import { humanDuration } from '../../apimachinery/table/human-duration.js';
import { ageSince, timestampMillis } from '../../apimachinery/table/timestamps.js';
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { objs, str, type Obj } from '../core/v1/obj-access.js';
import {
  AGE_COLUMN,
  age,
  at,
  boolPtr,
  column,
  conditionStatus,
  formatLabelSelector,
  int,
  NAME_COLUMN,
  objectName,
  podTemplateCells,
  podTemplateColumns,
  selectorString,
} from './common.js';

const DEPLOYMENT_COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Ready', 'string', 'Ready pods out of the desired replicas.'),
  column('Up-to-date', 'string', 'Pods running the current pod template.'),
  column('Available', 'string', 'Pods ready for at least minReadySeconds.'),
  AGE_COLUMN,
  ...podTemplateColumns('The label selector of the deployment pods.'),
]);

function deploymentCells(d: Obj, now: number): Array<string | number> {
  const spec = at(d, 'spec');
  const status = at(d, 'status');
  return [
    objectName(d),
    `${int(status.readyReplicas)}/${int(spec.replicas)}`,
    int(status.updatedReplicas),
    int(status.availableReplicas),
    age(d, now),
    ...podTemplateCells(at(spec, 'template'), selectorString(spec.selector)),
  ];
}

/** The Deployment printer. */
export const deploymentPrinter: TablePrinter = Object.freeze({ columns: DEPLOYMENT_COLUMNS, cells: deploymentCells });

const JOB_COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Status', 'string', 'Summary of the job state.'),
  column('Completions', 'string', 'Succeeded pods out of the completions wanted.'),
  column('Duration', 'string', 'Time the job ran, from start to completion or until now.'),
  AGE_COLUMN,
  ...podTemplateColumns('The label selector of the job pods.'),
]);

/** Whether the first condition of `type` is True (upstream `hasJobCondition`). */
function hasCondition(status: Obj, type: string): boolean {
  return conditionStatus(status, type) === 'True';
}

function jobStatus(job: Obj, status: Obj): string {
  if (hasCondition(status, 'Complete')) return 'Complete';
  if (hasCondition(status, 'Failed')) return 'Failed';
  if (at(job, 'metadata').deletionTimestamp != null) return 'Terminating';
  if (hasCondition(status, 'Suspended')) return 'Suspended';
  if (hasCondition(status, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function completions(spec: Obj, status: Obj): string {
  const succeeded = int(status.succeeded);
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = int(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(status: Obj, now: number): string {
  const start = timestampMillis(status.startTime);
  if (start === undefined) return '';
  const end = timestampMillis(status.completionTime) ?? now;
  return humanDuration(end - start);
}

function jobCells(job: Obj, now: number): string[] {
  const spec = at(job, 'spec');
  const status = at(job, 'status');
  return [
    objectName(job),
    jobStatus(job, status),
    completions(spec, status),
    jobDuration(status, now),
    age(job, now),
    ...podTemplateCells(at(spec, 'template'), formatLabelSelector(spec.selector)),
  ];
}

/** The Job printer. */
export const jobPrinter: TablePrinter = Object.freeze({ columns: JOB_COLUMNS, cells: jobCells });

const CRON_JOB_COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Schedule', 'string', 'The cron schedule of the job runs.'),
  column('Timezone', 'string', 'The time zone of the schedule.'),
  column('Suspend', 'boolean', 'Whether later runs are suspended.'),
  column('Active', 'integer', 'Jobs currently running.'),
  column('Last Schedule', 'string', 'Time since a job was last scheduled.'),
  AGE_COLUMN,
  ...podTemplateColumns('The label selector of the job template.'),
]);

function cronJobCells(cj: Obj, now: number): Array<string | number> {
  const spec = at(cj, 'spec');
  const status = at(cj, 'status');
  const jobSpec = at(spec, 'jobTemplate', 'spec');
  const lastSchedule = status.lastScheduleTime == null ? '<none>' : ageSince(status.lastScheduleTime, now);
  return [
    objectName(cj),
    str(spec.schedule),
    typeof spec.timeZone === 'string' ? spec.timeZone : '<none>',
    boolPtr(spec.suspend),
    objs(status.active).length,
    lastSchedule,
    age(cj, now),
    ...podTemplateCells(at(jobSpec, 'template'), formatLabelSelector(jobSpec.selector)),
  ];
}

/** The CronJob printer. */
export const cronJobPrinter: TablePrinter = Object.freeze({ columns: CRON_JOB_COLUMNS, cells: cronJobCells });
