/**
 * batch/v1 Job structures: JobSpec with its pod failure and success policies, JobTemplateSpec
 * (for CronJobs), JobStatus with conditions and uncounted terminated pods. Field set, numbers
 * and markers as upstream v1.30 (successPolicy and managedBy included).
 */
import { boolean, enumOf, field, int32, int64, listOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { podTemplateSpec } from '../../core/v1/workloads.js';
import { labelSelector, objectMeta } from '../../meta/v1/types.js';
import { defaultJobSpec } from './job-defaults.js';

/** Struct id prefix of batch/v1 types. */
export const BATCH = 'api.batch.v1';

/** Matches a failed pod by the exit codes of its containers. */
export const podFailurePolicyOnExitCodesRequirement = struct(`${BATCH}.PodFailurePolicyOnExitCodesRequirement`, {
  containerName: field(1, string, { omitEmpty: false, pointer: true }),
  operator: field(2, string, { omitEmpty: false, description: 'In or NotIn.' }),
  values: field(3, listOf(int32, { listType: 'set' }), { omitEmpty: false }),
});

/** Matches a failed pod by one of its conditions. */
export const podFailurePolicyOnPodConditionsPattern = struct(`${BATCH}.PodFailurePolicyOnPodConditionsPattern`, {
  type: field(1, string, { omitEmpty: false }),
  status: field(2, string, { omitEmpty: false, description: 'Condition status to match; defaults to True.' }),
});

/** What happens when a failed pod matches: FailJob, FailIndex, Ignore or Count. */
export const podFailurePolicyRule = struct(`${BATCH}.PodFailurePolicyRule`, {
  action: field(1, string, { omitEmpty: false }),
  onExitCodes: field(2, podFailurePolicyOnExitCodesRequirement, { omitEmpty: false, pointer: true }),
  onPodConditions: field(3, listOf(podFailurePolicyOnPodConditionsPattern, { listType: 'atomic' }), { omitEmpty: false }),
});

/** Rules, evaluated in order, deciding how pod failures count against the backoff limit. */
export const podFailurePolicy = struct(`${BATCH}.PodFailurePolicy`, {
  rules: field(1, listOf(podFailurePolicyRule, { listType: 'atomic' }), { omitEmpty: false }),
});

/** Declares an Indexed Job succeeded once enough (or the given) indexes succeeded. */
export const successPolicyRule = struct(`${BATCH}.SuccessPolicyRule`, {
  succeededIndexes: field(1, string, { pointer: true }),
  succeededCount: field(2, int32),
});

/** When an Indexed Job may be declared succeeded before all indexes finish. */
export const successPolicy = struct(`${BATCH}.SuccessPolicy`, {
  rules: field(1, listOf(successPolicyRule, { listType: 'atomic' }), { omitEmpty: false }),
});

/** The desired behaviour of a Job (defaults apply to Job objects only, not CronJob templates). */
export const jobSpec = struct(
  `${BATCH}.JobSpec`,
  {
    parallelism: field(1, int32, { description: 'Maximum pods running at once.' }),
    completions: field(2, int32, { description: 'Successful pods needed.' }),
    activeDeadlineSeconds: field(3, int64),
    podFailurePolicy: field(11, podFailurePolicy),
    successPolicy: field(16, successPolicy),
    backoffLimit: field(7, int32, { description: 'Retries before the Job fails.' }),
    backoffLimitPerIndex: field(12, int32),
    maxFailedIndexes: field(13, int32),
    selector: field(4, labelSelector),
    manualSelector: field(5, boolean),
    template: field(6, podTemplateSpec, { required: true, omitEmpty: false, description: 'The pods to run; restartPolicy OnFailure or Never.' }),
    ttlSecondsAfterFinished: field(8, int32),
    completionMode: field(9, enumOf('NonIndexed', 'Indexed')),
    suspend: field(10, boolean),
    podReplacementPolicy: field(14, string),
    managedBy: field(15, string, { pointer: true }),
  },
  { defaulter: defaultJobSpec, description: 'The desired behaviour of a Job.' },
);

/** Metadata and spec of the Jobs a CronJob creates. */
export const jobTemplateSpec = struct(`${BATCH}.JobTemplateSpec`, {
  metadata: field(1, objectMeta, { omitEmpty: false }),
  spec: field(2, jobSpec, { omitEmpty: false }),
});

/** A condition of a Job (Complete, Failed, Suspended, FailureTarget, SuccessCriteriaMet). */
export const jobCondition = struct(`${BATCH}.JobCondition`, {
  type: field(1, string, { required: true, omitEmpty: false }),
  status: field(2, string, { required: true, omitEmpty: false }),
  lastProbeTime: field(3, time, { omitEmpty: false }),
  lastTransitionTime: field(4, time, { omitEmpty: false }),
  reason: field(5, string),
  message: field(6, string),
});

/** UIDs of finished pods not yet counted in the status counters. */
export const uncountedTerminatedPods = struct(`${BATCH}.UncountedTerminatedPods`, {
  succeeded: field(1, listOf(string, { listType: 'set' })),
  failed: field(2, listOf(string, { listType: 'set' })),
});

/** The observed state of a Job. */
export const jobStatus = struct(
  `${BATCH}.JobStatus`,
  {
    conditions: field(1, listOf(jobCondition, { listType: 'atomic', patchStrategy: 'merge', patchMergeKey: 'type' })),
    startTime: field(2, time),
    completionTime: field(3, time),
    active: field(4, int32),
    succeeded: field(5, int32),
    failed: field(6, int32),
    terminating: field(11, int32),
    completedIndexes: field(7, string),
    failedIndexes: field(10, string, { pointer: true }),
    uncountedTerminatedPods: field(8, uncountedTerminatedPods),
    ready: field(9, int32),
  },
  { description: 'The most recently observed status of a Job.' },
);
