/**
 * The apps/v1 kinds served: Deployment, then StatefulSet, DaemonSet, ReplicaSet and
 * ControllerRevision in upstream's discovery order (issue #12 item 1).
 */
import type { KindDefinition } from '../../define.js';
import { controllerRevision } from './controller-revision.js';
import { daemonSet } from './daemon-set.js';
import { deployment } from './deployment.js';
import { replicaSet } from './replica-set.js';
import { statefulSet } from './stateful-set.js';

export { controllerRevision, daemonSet, deployment, replicaSet, statefulSet };
export { DEPRECATED_TEMPLATE_GENERATION } from './daemon-set.js';

/** Every kind of the group version, Deployment first, then upstream's order. */
export const appsV1Kinds: readonly KindDefinition[] = [deployment, statefulSet, daemonSet, replicaSet, controllerRevision];
