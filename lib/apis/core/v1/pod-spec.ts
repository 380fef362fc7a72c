/**
 * core/v1 PodSpec and the small types only it reaches (DNS config, host aliases, readiness and
 * scheduling gates, OS, resource claims). Numbers and merge markers as upstream v1.30. Defaults:
 * `SetDefaults_PodSpec` (restart and DNS policy, grace period, scheduler, security context) for
 * every PodSpec, and `SetDefaults_Pod` (pod-defaults.ts) for the spec of a Pod object only.
 */
import { boolean, enumOf, field, int32, int64, listOf, mapOf, quantity, string, struct } from '../../../apimachinery/schema/builder.js';
import { affinity, toleration, topologySpreadConstraint } from './affinity.js';
import { container, ephemeralContainer } from './container.js';
import { defaultPodOnlyFields } from './pod-defaults.js';
import { CORE, localObjectReference } from './references.js';
import { podSecurityContext } from './security-context.js';
import { volume } from './volume.js';

/** One resolver option (`ndots`, `timeout`…). */
export const podDNSConfigOption = struct(`${CORE}.PodDNSConfigOption`, {
  name: field(1, string),
  value: field(2, string, { pointer: true }),
});

/** DNS parameters merged into those generated from the DNS policy. */
export const podDNSConfig = struct(`${CORE}.PodDNSConfig`, {
  nameservers: field(1, listOf(string, { listType: 'atomic' })),
  searches: field(2, listOf(string, { listType: 'atomic' })),
  options: field(3, listOf(podDNSConfigOption, { listType: 'atomic' })),
});

/** An entry of the pod's hosts file. */
export const hostAlias = struct(`${CORE}.HostAlias`, {
  ip: field(1, string),
  hostnames: field(2, listOf(string, { listType: 'atomic' })),
});

/** A pod condition that must be True for the pod to be ready. */
export const podReadinessGate = struct(`${CORE}.PodReadinessGate`, {
  conditionType: field(1, string, { required: true, omitEmpty: false }),
});

/** The operating system of the pod's containers (`linux` or `windows`). */
export const podOS = struct(`${CORE}.PodOS`, {
  name: field(1, string, { omitEmpty: false }),
});

/** A gate that keeps the pod from being scheduled until removed. */
export const podSchedulingGate = struct(`${CORE}.PodSchedulingGate`, {
  name: field(1, string, { required: true, omitEmpty: false }),
});

/** Where a pod resource claim comes from: an existing claim or a template (v1.30 shape). */
export const claimSource = struct(`${CORE}.ClaimSource`, {
  resourceClaimName: field(1, string, { pointer: true }),
  resourceClaimTemplateName: field(2, string, { pointer: true }),
});

/** A named resource claim of the pod, referenced by containers' `resources.claims`. */
export const podResourceClaim = struct(`${CORE}.PodResourceClaim`, {
  name: field(1, string, { required: true, omitEmpty: false }),
  source: field(2, claimSource, { omitEmpty: false }),
});

/** Restart policies of a pod, in upstream order. */
export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
/** DNS policies of a pod, in upstream order. */
export const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

/** The desired state of a pod: its containers, volumes and scheduling and runtime settings. */
export const podSpec = struct(
  `${CORE}.PodSpec`,
  {
    volumes: field(1, listOf(volume, { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' })),
    initContainers: field(20, listOf(container, { patchStrategy: 'merge', patchMergeKey: 'name' })),
    containers: field(2, listOf(container, { patchStrategy: 'merge', patchMergeKey: 'name' }), {
      required: true,
      omitEmpty: false,
      description: 'The containers of the pod; at least one.',
    }),
    ephemeralContainers: field(34, listOf(ephemeralContainer, { patchStrategy: 'merge', patchMergeKey: 'name' })),
    restartPolicy: field(3, enumOf(...RESTART_POLICIES), { default: 'Always', description: 'Restart policy of all containers.' }),
    terminationGracePeriodSeconds: field(4, int64, { default: 30 }),
    activeDeadlineSeconds: field(5, int64),
    dnsPolicy: field(6, enumOf(...DNS_POLICIES), { default: 'ClusterFirst' }),
    nodeSelector: field(7, mapOf(string, { mapType: 'atomic' })),
    serviceAccountName: field(8, string),
    serviceAccount: field(9, string, { description: 'Deprecated alias of serviceAccountName.' }),
    automountServiceAccountToken: field(21, boolean),
    nodeName: field(10, string, { description: 'The node the pod is bound to.' }),
    hostNetwork: field(11, boolean),
    hostPID: field(12, boolean),
    hostIPC: field(13, boolean),
    shareProcessNamespace: field(27, boolean),
    securityContext: field(14, podSecurityContext, { default: {} }),
    imagePullSecrets: field(15, listOf(localObjectReference, { patchStrategy: 'merge', patchMergeKey: 'name' })),
    hostname: field(16, string),
    subdomain: field(17, string),
    affinity: field(18, affinity),
    schedulerName: field(19, string, { default: 'default-scheduler' }),
    tolerations: field(22, listOf(toleration, { listType: 'atomic' })),
    hostAliases: field(23, listOf(hostAlias, { patchStrategy: 'merge', patchMergeKey: 'ip' })),
    priorityClassName: field(24, string),
    priority: field(25, int32),
    dnsConfig: field(26, podDNSConfig),
    readinessGates: field(28, listOf(podReadinessGate, { listType: 'atomic' })),
    runtimeClassName: field(29, string, { pointer: true }),
    enableServiceLinks: field(30, boolean),
    preemptionPolicy: field(31, enumOf('PreemptLowerPriority', 'Never')),
    overhead: field(32, mapOf(quantity)),
    topologySpreadConstraints: field(
      33,
      listOf(topologySpreadConstraint, {
        listType: 'map',
        listMapKeys: ['topologyKey', 'whenUnsatisfiable'],
        patchStrategy: 'merge',
        patchMergeKey: 'topologyKey',
      }),
    ),
    setHostnameAsFQDN: field(35, boolean),
    os: field(36, podOS),
    hostUsers: field(37, boolean),
    schedulingGates: field(38, listOf(podSchedulingGate, { listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name' })),
    resourceClaims: field(
      39,
      listOf(podResourceClaim, { listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' }),
    ),
  },
  { defaulter: defaultPodOnlyFields, description: 'The desired behaviour of a pod.' },
);
