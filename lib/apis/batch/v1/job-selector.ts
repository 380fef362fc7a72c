/**
 * The generated selector of a Job (upstream job strategy `generateSelector`): unless
 * `spec.manualSelector` is true, the pod template gets the job-name and controller-uid labels
 * (legacy and group-prefixed) and the selector matches the controller uid. The Job strategy
 * calls `generateJobSelector` in prepareForCreate, once the uid is assigned. A Job without labels
 * then gets its template's (SetDefaults_Job as upstream applies it decoding the stored object).
 */
import { vendorGroup } from '../../vendor.js';

type Obj = Record<string, unknown>;

const BATCH_PREFIX = `${vendorGroup('batch')}/`;
/** `job-name` (legacy, unprefixed). */
export const LEGACY_JOB_NAME_LABEL = 'job-name';
/** `<batch group>/job-name`. */
export const JOB_NAME_LABEL = `${BATCH_PREFIX}job-name`;
/** `controller-uid` (legacy, unprefixed). */
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
/** `<batch group>/controller-uid`. */
export const CONTROLLER_UID_LABEL = `${BATCH_PREFIX}controller-uid`;

const child = (o: Obj, key: string): Obj => {
  const v = o[key];
  if (v && typeof v === 'object' && !Array.isArray(v)) return v as Obj;
  const created: Obj = {};
  o[key] = created;
  return created;
};

/**
 * Adds the generated labels to the template (keeping labels the user set, which validation then
 * checks) and `controller-uid` to `spec.selector.matchLabels`; no-op for a manual selector.
 */
export function generateJobSelector(job: Obj): void {
  const spec = child(job, 'spec');
  if (spec.manualSelector === true) return;
  const meta = child(job, 'metadata');
  const name = String(meta.name ?? '');
  const uid = String(meta.uid ?? '');
  const labels = child(child(child(spec, 'template'), 'metadata'), 'labels');
  for (const key of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL]) labels[key] ??= name;
  for (const key of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL]) labels[key] ??= uid;
  const matchLabels = child(child(spec, 'selector'), 'matchLabels');
  matchLabels[CONTROLLER_UID_LABEL] ??= uid;
  // Upstream's SetDefaults_Job (labels of a Job without any: its template's) runs again when the
  // created object is decoded from storage, now seeing the generated labels: the answer to the
  // create, and every read, carry them on the Job itself. Managed fields were computed before.
  const jobLabels = meta.labels;
  if (!jobLabels || typeof jobLabels !== 'object' || Object.keys(jobLabels).length === 0) meta.labels = { ...labels };
}
