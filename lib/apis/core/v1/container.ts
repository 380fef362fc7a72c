/**
 * core/v1 Container and EphemeralContainer with their ports, volume mounts and devices and resize
 * policies. Numbers and markers as upstream v1.30; defaults as `SetDefaults_Container`
 * (termination message path and policy, pull policy by image tag) and `+default` (port protocol).
 */
import { boolean, enumOf, field, int32, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import type { Field } from '../../../apimachinery/schema/types.js';
import { PORT_PROTOCOLS } from './endpoints.js';
import { envFromSource, envVar } from './env.js';
import { defaultPullPolicy } from './image-reference.js';
import { lifecycle, probe } from './probe.js';
import { CORE, inlined } from './references.js';
import { resourceRequirements } from './resources.js';
import { securityContext } from './security-context.js';

/** A port exposed by a container; unique per (containerPort, protocol). */
export const containerPort = struct(`${CORE}.ContainerPort`, {
  name: field(1, string, { description: 'IANA service name, unique within the pod.' }),
  hostPort: field(2, int32),
  containerPort: field(3, int32, { required: true, omitEmpty: false }),
  protocol: field(4, enumOf(...PORT_PROTOCOLS), { default: 'TCP' }),
  hostIP: field(5, string),
});

/** Mounts a pod volume into a container's filesystem. */
export const volumeMount = struct(`${CORE}.VolumeMount`, {
  name: field(1, string, { required: true, omitEmpty: false }),
  readOnly: field(2, boolean),
  recursiveReadOnly: field(7, string),
  mountPath: field(3, string, { required: true, omitEmpty: false }),
  subPath: field(4, string),
  mountPropagation: field(5, string),
  subPathExpr: field(6, string),
});

/** Maps a raw block device of a claim into a container. */
export const volumeDevice = struct(`${CORE}.VolumeDevice`, {
  name: field(1, string, { required: true, omitEmpty: false }),
  devicePath: field(2, string, { required: true, omitEmpty: false }),
});

/** Whether resizing a resource in place restarts the container. */
export const containerResizePolicy = struct(`${CORE}.ContainerResizePolicy`, {
  resourceName: field(1, string, { omitEmpty: false }),
  restartPolicy: field(2, string, { omitEmpty: false }),
});

/** The container fields shared by Container and EphemeralContainer (EphemeralContainerCommon). */
const containerFields: Record<string, Field> = {
  name: field(1, string, { required: true, omitEmpty: false, description: 'DNS label, unique among all containers of the pod.' }),
  image: field(2, string, { description: 'Container image reference.' }),
  command: field(3, listOf(string, { listType: 'atomic' })),
  args: field(4, listOf(string, { listType: 'atomic' })),
  workingDir: field(5, string),
  ports: field(6, listOf(containerPort, { listType: 'map', listMapKeys: ['containerPort', 'protocol'], patchStrategy: 'merge', patchMergeKey: 'containerPort' })),
  envFrom: field(19, listOf(envFromSource, { listType: 'atomic' })),
  env: field(7, listOf(envVar, { patchStrategy: 'merge', patchMergeKey: 'name' })),
  resources: field(8, resourceRequirements, { omitEmpty: false }),
  resizePolicy: field(23, listOf(containerResizePolicy, { listType: 'atomic' })),
  restartPolicy: field(24, enumOf('Always'), { description: 'Only `Always`, on init containers (sidecars).' }),
  volumeMounts: field(9, listOf(volumeMount, { patchStrategy: 'merge', patchMergeKey: 'mountPath' })),
  volumeDevices: field(21, listOf(volumeDevice, { patchStrategy: 'merge', patchMergeKey: 'devicePath' })),
  livenessProbe: field(10, probe),
  readinessProbe: field(11, probe),
  startupProbe: field(22, probe),
  lifecycle: field(12, lifecycle),
  terminationMessagePath: field(13, string, { default: '/dev/termination-log' }),
  terminationMessagePolicy: field(20, enumOf('File', 'FallbackToLogsOnError'), { default: 'File' }),
  imagePullPolicy: field(14, enumOf('Always', 'IfNotPresent', 'Never'), { description: 'Always for `:latest` or untagged images, else IfNotPresent.' }),
  securityContext: field(15, securityContext),
  stdin: field(16, boolean),
  stdinOnce: field(17, boolean),
  tty: field(18, boolean),
};

/** `SetDefaults_Container`: the pull policy follows the image tag. */
function defaultContainer(c: Record<string, unknown>): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = defaultPullPolicy(typeof c.image === 'string' ? c.image : '');
}

/** One application container of a pod. */
export const container = struct(`${CORE}.Container`, containerFields, {
  defaulter: defaultContainer,
  description: 'A single application container that runs within a pod.',
});

/** The fields of Container as embedded in EphemeralContainer. */
export const ephemeralContainerCommon = struct(`${CORE}.EphemeralContainerCommon`, containerFields);

/** A debugging container added to a running pod through its ephemeralcontainers subresource. */
export const ephemeralContainer = struct(
  `${CORE}.EphemeralContainer`,
  {
    ...inlined(1, ephemeralContainerCommon),
    targetContainerName: field(2, string),
  },
  { defaulter: defaultContainer, description: 'A temporary container added to a running pod for debugging.' },
);
