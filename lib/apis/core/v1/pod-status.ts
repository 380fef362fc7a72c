/**
 * core/v1 PodStatus and what it reaches: container states and statuses, volume mount statuses,
 * pod conditions, pod and host IPs, resource claim statuses. Numbers and merge markers as
 * upstream v1.30. Status values are reported by nodes and controllers and are not enum-checked.
 */
import { boolean, field, int32, listOf, mapOf, quantity, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { CORE } from './references.js';
import { resourceRequirements } from './resources.js';

const req = { required: true, omitEmpty: false } as const;

/** A container that is not yet running, and why. */
export const containerStateWaiting = struct(`${CORE}.ContainerStateWaiting`, {
  reason: field(1, string),
  message: field(2, string),
});

/** A running container and when it started. */
export const containerStateRunning = struct(`${CORE}.ContainerStateRunning`, {
  startedAt: field(1, time, { omitEmpty: false }),
});

/** A container that exited, with its exit code and times. */
export const containerStateTerminated = struct(`${CORE}.ContainerStateTerminated`, {
  exitCode: field(1, int32, req),
  signal: field(2, int32),
  reason: field(3, string),
  message: field(4, string),
  startedAt: field(5, time, { omitEmpty: false }),
  finishedAt: field(6, time, { omitEmpty: false }),
  containerID: field(7, string),
});

/** The state of a container: at most one of waiting, running, terminated. */
export const containerState = struct(`${CORE}.ContainerState`, {
  waiting: field(1, containerStateWaiting),
  running: field(2, containerStateRunning),
  terminated: field(3, containerStateTerminated),
});

/** The status of one volume mount of a container. */
export const volumeMountStatus = struct(`${CORE}.VolumeMountStatus`, {
  name: field(1, string, req),
  mountPath: field(2, string, req),
  readOnly: field(3, boolean),
  recursiveReadOnly: field(4, string),
});

/** The observed status of one container. */
export const containerStatus = struct(
  `${CORE}.ContainerStatus`,
  {
    name: field(1, string, req),
    state: field(2, containerState, { omitEmpty: false }),
    lastState: field(3, containerState, { omitEmpty: false }),
    ready: field(4, boolean, req),
    restartCount: field(5, int32, req),
    image: field(6, string, req),
    imageID: field(7, string, req),
    containerID: field(8, string),
    started: field(9, boolean),
    allocatedResources: field(10, mapOf(quantity)),
    resources: field(11, resourceRequirements),
    volumeMounts: field(12, listOf(volumeMountStatus, { patchStrategy: 'merge', patchMergeKey: 'mountPath' })),
  },
  { description: 'The observed status of a container of the pod.' },
);

/** A condition of the pod (PodScheduled, Initialized, ContainersReady, Ready, or custom). */
export const podCondition = struct(`${CORE}.PodCondition`, {
  type: field(1, string, req),
  status: field(2, string, req),
  lastProbeTime: field(3, time, { omitEmpty: false }),
  lastTransitionTime: field(4, time, { omitEmpty: false }),
  reason: field(5, string),
  message: field(6, string),
});

/** One IP address of the pod. */
export const podIP = struct(`${CORE}.PodIP`, { ip: field(1, string) });

/** One IP address of the pod's host. */
export const hostIP = struct(`${CORE}.HostIP`, { ip: field(1, string) });

/** The claim generated for a pod resource claim that used a template. */
export const podResourceClaimStatus = struct(`${CORE}.PodResourceClaimStatus`, {
  name: field(1, string, req),
  resourceClaimName: field(2, string, { pointer: true }),
});

/** The observed state of a pod, as last reported. */
export const podStatus = struct(
  `${CORE}.PodStatus`,
  {
    phase: field(1, string, { description: 'Pending, Running, Succeeded, Failed or Unknown.' }),
    conditions: field(2, listOf(podCondition, { patchStrategy: 'merge', patchMergeKey: 'type' })),
    message: field(3, string),
    reason: field(4, string),
    nominatedNodeName: field(11, string),
    hostIP: field(5, string),
    hostIPs: field(16, listOf(hostIP, { listType: 'atomic', patchStrategy: 'merge', patchMergeKey: 'ip' })),
    podIP: field(6, string),
    podIPs: field(12, listOf(podIP, { patchStrategy: 'merge', patchMergeKey: 'ip' })),
    startTime: field(7, time),
    initContainerStatuses: field(10, listOf(containerStatus, { listType: 'atomic' })),
    containerStatuses: field(8, listOf(containerStatus, { listType: 'atomic' })),
    qosClass: field(9, string),
    ephemeralContainerStatuses: field(13, listOf(containerStatus, { listType: 'atomic' })),
    resize: field(14, string),
    resourceClaimStatuses: field(
      15,
      listOf(podResourceClaimStatus, { listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' }),
    ),
  },
  { description: 'The most recently observed status of a pod.' },
);
