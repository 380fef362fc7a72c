/**
 * core/v1 Node: a machine that runs pods (upstream v1.30 field structure and protobuf numbers,
 * including `status.runtimeHandlers`; `status.features` and later fields are not part of 1.30).
 * spec 000 § Resources and their fields.
 */
import { boolean, field, int32, int64, listOf, mapOf, quantity, string, struct, time } from '../../../apimachinery/schema/builder.js';
import type { ListMarkers } from '../../../apimachinery/schema/types.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { defaultNodeSpec, defaultNodeStatus } from './node-defaults.js';
import { validateNode, validateNodeStatusUpdate, validateNodeUpdate } from './node-validation.js';
import { CORE } from './references.js';
import { fieldValue } from '../../field-selectors.js';
import { nodePrinter } from '../../printers/node.js';

const req = { required: true, omitEmpty: false } as const;

/** A taint that repels pods not tolerating it. */
export const taint = struct(`${CORE}.Taint`, {
  key: field(1, string, req),
  value: field(2, string),
  effect: field(3, string, req),
  timeAdded: field(4, time),
});

/** A ConfigMap holding node agent configuration (deprecated feature). */
export const configMapNodeConfigSource = struct(`${CORE}.ConfigMapNodeConfigSource`, {
  namespace: field(1, string, req),
  name: field(2, string, req),
  uid: field(3, string),
  resourceVersion: field(4, string),
  kubeletConfigKey: field(5, string, req),
});

/** Where a node's agent configuration comes from (deprecated feature). */
export const nodeConfigSource = struct(`${CORE}.NodeConfigSource`, {
  configMap: field(2, configMapNodeConfigSource),
});

/** Desired configuration of a node. */
export const nodeSpec = struct(
  `${CORE}.NodeSpec`,
  {
    podCIDR: field(1, string, { description: 'The pod IP range assigned to the node (first of podCIDRs).' }),
    podCIDRs: field(7, listOf(string, { patchStrategy: 'merge', listType: 'set' }), { description: 'Pod IP ranges, at most one per IP family.' }),
    providerID: field(3, string),
    unschedulable: field(4, boolean, { description: 'When true, no new pods are scheduled onto the node.' }),
    taints: field(5, listOf(taint, { listType: 'atomic' }), { description: 'Taints that repel pods not tolerating them.' }),
    configSource: field(6, nodeConfigSource),
    externalID: field(2, string),
  },
  { defaulter: defaultNodeSpec },
);

/** One observed condition of a node. */
export const nodeCondition = struct(`${CORE}.NodeCondition`, {
  type: field(1, string, req),
  status: field(2, string, req),
  lastHeartbeatTime: field(3, time, { omitEmpty: false }),
  lastTransitionTime: field(4, time, { omitEmpty: false }),
  reason: field(5, string),
  message: field(6, string),
});

/** One address the node is reachable at, with its kind. */
export const nodeAddress = struct(`${CORE}.NodeAddress`, {
  type: field(1, string, req),
  address: field(2, string, req),
});

/** The port a node daemon listens on. */
export const daemonEndpoint = struct(`${CORE}.DaemonEndpoint`, {
  Port: field(1, int32, req),
});

/** The endpoints of the daemons running on a node. */
export const nodeDaemonEndpoints = struct(`${CORE}.NodeDaemonEndpoints`, {
  kubeletEndpoint: field(1, daemonEndpoint, { omitEmpty: false }),
});

/** Identifiers and software versions a node reports. */
export const nodeSystemInfo = struct(`${CORE}.NodeSystemInfo`, {
  machineID: field(1, string, req),
  systemUUID: field(2, string, req),
  bootID: field(3, string, req),
  kernelVersion: field(4, string, req),
  osImage: field(5, string, req),
  containerRuntimeVersion: field(6, string, req),
  kubeletVersion: field(7, string, req),
  kubeProxyVersion: field(8, string, req),
  operatingSystem: field(9, string, req),
  architecture: field(10, string, req),
});

/** One image present on a node. */
export const containerImage = struct(`${CORE}.ContainerImage`, {
  names: field(1, listOf(string, { listType: 'atomic' }), { omitEmpty: false }),
  sizeBytes: field(2, int64),
});

/** A volume attached to a node. */
export const attachedVolume = struct(`${CORE}.AttachedVolume`, {
  name: field(1, string, req),
  devicePath: field(2, string, req),
});

/** Status of the node agent configuration (deprecated feature). */
export const nodeConfigStatus = struct(`${CORE}.NodeConfigStatus`, {
  assigned: field(1, nodeConfigSource),
  active: field(2, nodeConfigSource),
  lastKnownGood: field(3, nodeConfigSource),
  error: field(4, string),
});

/** Features one container runtime handler supports. */
export const nodeRuntimeHandlerFeatures = struct(`${CORE}.NodeRuntimeHandlerFeatures`, {
  recursiveReadOnlyMounts: field(1, boolean),
});

/** A container runtime handler available on a node. */
export const nodeRuntimeHandler = struct(`${CORE}.NodeRuntimeHandler`, {
  name: field(1, string, { omitEmpty: false }),
  features: field(2, nodeRuntimeHandlerFeatures),
});

/** Markers of the condition and address lists: merged by `type`. */
const byType = (): ListMarkers => ({ patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] });

/** Most recently observed state of a node. */
export const nodeStatus = struct(
  `${CORE}.NodeStatus`,
  {
    capacity: field(1, mapOf(quantity), { description: 'Total resources of the node.' }),
    allocatable: field(2, mapOf(quantity), { description: 'Resources available to pods (defaults to capacity).' }),
    phase: field(3, string),
    conditions: field(4, listOf(nodeCondition, byType()), { description: 'Observed node conditions (Ready, MemoryPressure…).' }),
    addresses: field(5, listOf(nodeAddress, byType()), { description: 'Addresses the node is reachable at.' }),
    daemonEndpoints: field(6, nodeDaemonEndpoints, { omitEmpty: false }),
    nodeInfo: field(7, nodeSystemInfo, { omitEmpty: false, description: 'Identifiers and versions reported by the node.' }),
    images: field(8, listOf(containerImage, { listType: 'atomic' })),
    volumesInUse: field(9, listOf(string, { listType: 'atomic' })),
    volumesAttached: field(10, listOf(attachedVolume, { listType: 'atomic' })),
    config: field(11, nodeConfigStatus),
    runtimeHandlers: field(12, listOf(nodeRuntimeHandler, { listType: 'atomic' })),
  },
  { defaulter: defaultNodeStatus },
);

/** The Node kind: cluster-scoped, DNS subdomain names, status subresource. */
export const node = defineKind({
  group: '',
  version: 'v1',
  kind: 'Node',
  resource: 'nodes',
  singular: 'node',
  namespaced: false,
  shortNames: ['no'],
  statusSubresource: true,
  description: 'A worker machine on which pods are scheduled.',
  fieldSelectors: { 'spec.unschedulable': (o) => String(fieldValue(o, 'spec.unschedulable') === 'true') },
  printerColumns: nodePrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, nodeSpec, { omitEmpty: false, description: 'Desired configuration of the node.' }),
    status: field(3, nodeStatus, { omitEmpty: false, description: 'Most recently observed state of the node.' }),
  },
  validate: validateNode,
  validateUpdate: validateNodeUpdate,
  validateStatusUpdate: validateNodeStatusUpdate,
});
