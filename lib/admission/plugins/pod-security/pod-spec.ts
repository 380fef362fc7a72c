/**
 * Where the PodSecurity plugin finds a pod spec (upstream `DefaultPodSpecExtractor`): a Pod's own
 * metadata and spec, or the pod template of a workload (ReplicationController, PodTemplate,
 * ReplicaSet, Deployment, StatefulSet, DaemonSet, Job, CronJob); and which pod updates change what
 * the policy evaluates (upstream `isSignificantPodUpdate`).
 */
import type { Obj } from '../../../apis/core/v1/obj-access.js';
import { obj, objs, str, strMap } from '../../../apis/core/v1/obj-access.js';
import { SECCOMP_CONTAINER_ANNOTATION_PREFIXES } from '../../../apis/vendor.js';

/** `group/resource` of the workload resources that embed a pod template, with the path to it. */
const TEMPLATE_PATHS: ReadonlyMap<string, readonly string[]> = new Map([
  ['/replicationcontrollers', ['spec', 'template']],
  ['/podtemplates', ['template']],
  ['apps/replicasets', ['spec', 'template']],
  ['apps/deployments', ['spec', 'template']],
  ['apps/statefulsets', ['spec', 'template']],
  ['apps/daemonsets', ['spec', 'template']],
  ['batch/jobs', ['spec', 'template']],
  ['batch/cronjobs', ['spec', 'jobTemplate', 'spec', 'template']],
]);

/** True for a workload resource whose objects carry a pod template. */
export function isPodController(group: string, resource: string): boolean {
  return TEMPLATE_PATHS.has(`${group}/${resource}`);
}

/** A workload's pod template metadata and spec, or null when it has no template (nothing to evaluate). */
export function podTemplateOf(group: string, resource: string, o: Obj): { meta: Obj; spec: Obj } | null {
  const path = TEMPLATE_PATHS.get(`${group}/${resource}`);
  if (!path) return null;
  let cur: Obj | undefined = o;
  for (const key of path) cur = obj(cur?.[key]);
  if (!cur) return null;
  return { meta: obj(cur.metadata) ?? {}, spec: obj(cur.spec) ?? {} };
}

/** True when a container update could change the evaluation: a new image, or a changed seccomp annotation. */
function significantContainerUpdate(c: Obj, old: Obj, annotations: Record<string, string>, oldAnnotations: Record<string, string>): boolean {
  if (str(c.image) !== str(old.image)) return true;
  return SECCOMP_CONTAINER_ANNOTATION_PREFIXES.some((p) => annotations[p + str(c.name)] !== oldAnnotations[p + str(c.name)]);
}

/**
 * True when a pod update must be evaluated: containers or init containers added or removed, an
 * image or a per-container seccomp annotation changed, an ephemeral container added or changed.
 * Other pod fields are immutable, so any other update keeps the verdict of the pod's creation.
 */
export function isSignificantPodUpdate(pod: Obj, oldPod: Obj): boolean {
  const spec = obj(pod.spec) ?? {};
  const oldSpec = obj(oldPod.spec) ?? {};
  const annotations = strMap(obj(pod.metadata)?.annotations);
  const oldAnnotations = strMap(obj(oldPod.metadata)?.annotations);
  for (const field of ['containers', 'initContainers']) {
    const cs = objs(spec[field]);
    const old = objs(oldSpec[field]);
    if (cs.length !== old.length) return true;
    if (cs.some((c, i) => significantContainerUpdate(c, old[i]!, annotations, oldAnnotations))) return true;
  }
  const oldEphemeral = objs(oldSpec.ephemeralContainers);
  return objs(spec.ephemeralContainers).some((c) => {
    const old = oldEphemeral.find((o) => str(o.name) === str(c.name));
    return !old || significantContainerUpdate(c, old, annotations, oldAnnotations);
  });
}
