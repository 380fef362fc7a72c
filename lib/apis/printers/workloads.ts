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
 * - StatefulSet: Name, Ready (`ready/desired`), Age; wide: Containers, Images.
 * - DaemonSet: Name, Desired, Current, Ready, Up-to-date, Available, Node Selector, Age; wide:
 *   Containers, Images, Selector.
 * - ReplicaSet and ReplicationController: Name, Desired, Current, Ready, Age; wide: Containers,
 *   Images, Selector (the label map of a ReplicationController).
 * - ControllerRevision: Name, Controller (`<kind>.<group>/<name>` of the controlling owner, or
 *   `<none>`), Revision, Age.
 */
import { humanDuration } from '../../apimachinery/table/human-duration.js';
import { ageSince, timestampMillis } from '../../apimachinery/table/timestamps.js';
import type { TableColumnDefinition, TablePrinter } from '../../apimachinery/table/types.js';
import { objs, str, type Obj } from '../core/v1/obj-access.js';
import {
  AGE_COLUMN,
  age,
  at,
  boolPtr,
  column,
  conditionStatus,
  formatLabels,
  formatLabelSelector,
  int,
  NAME_COLUMN,
  objectName,
  podTemplateCells,
  podTemplateColumns,
  selectorString,
  WIDE,
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

const STATEFUL_SET_COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Ready', 'string', 'Number of the pod with ready state'),
  AGE_COLUMN,
  column('Containers', 'string', 'Container names of the pod template.', WIDE),
  column('Images', 'string', 'Container images of the pod template.', WIDE),
]);

function statefulSetCells(sts: Obj, now: number): string[] {
  const spec = at(sts, 'spec');
  const [containers, images] = podTemplateCells(at(spec, 'template'), '');
  return [objectName(sts), `${int(at(sts, 'status').readyReplicas)}/${int(spec.replicas)}`, age(sts, now), containers!, images!];
}

/** The StatefulSet printer. */
export const statefulSetPrinter: TablePrinter = Object.freeze({ columns: STATEFUL_SET_COLUMNS, cells: statefulSetCells });

const DAEMON_SET_COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Desired', 'integer', 'Nodes that should run the daemon pod.'),
  column('Current', 'integer', 'Nodes running at least one daemon pod that should run it.'),
  column('Ready', 'integer', 'Nodes running a ready daemon pod.'),
  column('Up-to-date', 'integer', 'Nodes running the updated daemon pod.'),
  column('Available', 'integer', 'Nodes running an available daemon pod.'),
  column('Node Selector', 'string', 'The node selector of the pod template.'),
  AGE_COLUMN,
  ...podTemplateColumns('The label selector of the daemon pods.'),
]);

function daemonSetCells(ds: Obj, now: number): Array<string | number> {
  const spec = at(ds, 'spec');
  const status = at(ds, 'status');
  const template = at(spec, 'template');
  return [
    objectName(ds),
    int(status.desiredNumberScheduled),
    int(status.currentNumberScheduled),
    int(status.numberReady),
    int(status.updatedNumberScheduled),
    int(status.numberAvailable),
    formatLabels(at(template, 'spec').nodeSelector),
    age(ds, now),
    ...podTemplateCells(template, formatLabelSelector(spec.selector)),
  ];
}

/** The DaemonSet printer. */
export const daemonSetPrinter: TablePrinter = Object.freeze({ columns: DAEMON_SET_COLUMNS, cells: daemonSetCells });

/** Name, Desired, Current, Ready, Age and the wide pod template columns of a replica controller. */
function replicaColumns(selectorDescription: string): readonly TableColumnDefinition[] {
  return Object.freeze([
    NAME_COLUMN,
    column('Desired', 'integer', 'Desired number of pods.'),
    column('Current', 'integer', 'Most recently observed number of pods.'),
    column('Ready', 'integer', 'Pods with a Ready condition.'),
    AGE_COLUMN,
    ...podTemplateColumns(selectorDescription),
  ]);
}

/** The cells of replicaColumns; `selector` is the Selector cell text. */
function replicaCells(o: Obj, now: number, selector: string): Array<string | number> {
  const spec = at(o, 'spec');
  const status = at(o, 'status');
  return [objectName(o), int(spec.replicas), int(status.replicas), int(status.readyReplicas), age(o, now), ...podTemplateCells(at(spec, 'template'), selector)];
}

/** The ReplicaSet printer. */
export const replicaSetPrinter: TablePrinter = Object.freeze({
  columns: replicaColumns('The label selector of the replica set pods.'),
  cells: (rs: Obj, now: number) => replicaCells(rs, now, formatLabelSelector(at(rs, 'spec').selector)),
});

/** The ReplicationController printer. */
export const replicationControllerPrinter: TablePrinter = Object.freeze({
  columns: replicaColumns('The label map selecting the pods of the controller.'),
  cells: (rc: Obj, now: number) => replicaCells(rc, now, formatLabels(at(rc, 'spec').selector)),
});

const CONTROLLER_REVISION_COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Controller', 'string', 'Controller of the object'),
  column('Revision', 'string', 'The revision of the state in data.'),
  AGE_COLUMN,
]);

/** `<kind>.<group>/<name>` in lower case (`<kind>/<name>` for the core group) of the controlling owner, or `<none>`. */
function controllerName(o: Obj): string {
  const ref = objs(at(o, 'metadata').ownerReferences).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = str(ref.apiVersion);
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = str(ref.kind);
  if (kind === '' && group === '') return str(ref.name);
  return `${(group ? `${kind}.${group}` : kind).toLowerCase()}/${str(ref.name)}`;
}

function controllerRevisionCells(cr: Obj, now: number): Array<string | number> {
  return [objectName(cr), controllerName(cr), int(cr.revision), age(cr, now)];
}

/** The ControllerRevision printer. */
export const controllerRevisionPrinter: TablePrinter = Object.freeze({ columns: CONTROLLER_REVISION_COLUMNS, cells: controllerRevisionCells });
