/**
 * The core/v1 workload kinds and shared workload types owned here: Pod, and PodTemplateSpec for
 * the workload controllers of other groups (apps/v1, batch/v1).
 */
export { pod } from './pod.js';
export { podTemplateSpec } from './pod-template.js';
export { validatePodTemplateSpec } from './pod-spec-validation.js';
