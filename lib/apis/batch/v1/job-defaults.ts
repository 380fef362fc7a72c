/**
 * `SetDefaults_Job` of batch/v1 (v1.30): applied to the spec of a Job object only, never to the
 * job template of a CronJob. Completions and parallelism 1 (parallelism alone when completions
 * is set), backoffLimit 6 (2147483647 with a per-index limit), completion mode NonIndexed,
 * suspend false, pod failure pattern status True, pod replacement policy (Failed with a pod
 * failure policy, else TerminatingOrFailed), and the Job's labels from its template when unset.
 */
import { obj, objs, type Obj } from '../../core/v1/obj-access.js';

/** The JobSpec defaulter hook; acts only when `spec` is the root object's `spec` (a Job). */
export function defaultJobSpec(spec: Obj, root: Obj): void {
  if (root.spec !== spec) return;
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex === undefined ? 6 : 2147483647;
  const templateLabels = obj(obj(obj(spec.template)?.metadata)?.labels);
  const meta = (root.metadata ??= {}) as Obj;
  if (templateLabels && Object.keys(obj(meta.labels) ?? {}).length === 0) meta.labels = { ...templateLabels };
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  for (const rule of objs(obj(spec.podFailurePolicy)?.rules)) for (const p of objs(rule.onPodConditions)) if (!p.status) p.status = 'True';
  spec.podReplacementPolicy ??= spec.podFailurePolicy === undefined ? 'TerminatingOrFailed' : 'Failed';
}
