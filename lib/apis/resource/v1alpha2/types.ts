/**
 * The structs of `resource.<vendor>/v1alpha2` (dynamic resource allocation; upstream v1.30
 * k8s.io/api/resource/v1alpha2 types.go: declaration order, `omitempty`, pointers, list markers;
 * protobuf numbers of its generated.proto). Go inline members (`ResourceModel` in a
 * ResourceSlice, the `*Model` structs, `NamedResourcesAttributeValue`) sit flat in JSON and
 * belong to their embedded message in protobuf.
 */
import { boolean, field, int64, listOf, quantity, raw, string, struct } from '../../../apimachinery/schema/builder.js';
import { nodeSelector } from '../../core/v1/affinity.js';
import { inlined } from '../../core/v1/references.js';
import { vendorGroup } from '../../vendor.js';

/** The API group of the dynamic resource allocation kinds (upstream `resource.k8s.io`). */
export const RESOURCE_GROUP = vendorGroup('resource');

/** Definition id prefix of the v1alpha2 structs. */
export const RESOURCE_V1ALPHA2 = 'api.resource.v1alpha2';
const id = (name: string) => `${RESOURCE_V1ALPHA2}.${name}`;

/** Default of a claim's `allocationMode` (upstream `SetDefaults_ResourceClaimSpec`). */
export const DEFAULT_ALLOCATION_MODE = 'WaitForFirstConsumer';

/** ResourceClaimParametersReference: a claim's parameters object, in the claim's namespace. */
export const resourceClaimParametersReference = struct(id('ResourceClaimParametersReference'), {
  apiGroup: field(1, string, { description: 'Group of the referent; empty for the core group.' }),
  kind: field(2, string, { omitEmpty: false, description: 'Kind of the referent.' }),
  name: field(3, string, { omitEmpty: false, description: 'Name of the referent.' }),
});

/** ResourceClassParametersReference: a class's parameters object. */
export const resourceClassParametersReference = struct(id('ResourceClassParametersReference'), {
  apiGroup: field(1, string, { description: 'Group of the referent; empty for the core group.' }),
  kind: field(2, string, { omitEmpty: false, description: 'Kind of the referent.' }),
  name: field(3, string, { omitEmpty: false, description: 'Name of the referent.' }),
  namespace: field(4, string, { description: 'Namespace of a namespaced referent.' }),
});

/** ResourceClaimSpec: the class, parameters and allocation mode of a claim. */
export const resourceClaimSpec = struct(id('ResourceClaimSpec'), {
  resourceClassName: field(1, string, { omitEmpty: false, description: 'Name of the ResourceClass of the claim.' }),
  parametersRef: field(2, resourceClaimParametersReference, { description: 'Object holding the parameters of the claim.' }),
  allocationMode: field(3, string, { default: DEFAULT_ALLOCATION_MODE, description: 'Immediate or WaitForFirstConsumer (default).' }),
});

/** NamedResourcesAllocationResult: the instance allocated. */
const namedResourcesAllocationResult = struct(id('NamedResourcesAllocationResult'), {
  name: field(1, string, { omitEmpty: false, description: 'Name of the selected instance.' }),
});

/** AllocationResultModel: exactly one model. */
const allocationResultModel = struct(id('AllocationResultModel'), {
  namedResources: field(1, namedResourcesAllocationResult, { description: 'Allocation of the named resources model.' }),
});

/** DriverAllocationResult: vendor parameters and the model result of one request. */
const driverAllocationResult = struct(id('DriverAllocationResult'), {
  vendorRequestParameters: field(1, raw, { description: 'Per-request vendor parameters at allocation time.' }),
  ...inlined(2, allocationResultModel),
});

/** StructuredResourceHandle: the in-tree allocation result. */
const structuredResourceHandle = struct(id('StructuredResourceHandle'), {
  vendorClassParameters: field(1, raw, { description: 'Class vendor parameters at allocation time.' }),
  vendorClaimParameters: field(2, raw, { description: 'Claim vendor parameters at allocation time.' }),
  nodeName: field(4, string, { description: 'Node providing the resources, if node-local.' }),
  results: field(5, listOf(driverAllocationResult, { listType: 'atomic' }), { omitEmpty: false, description: 'The allocated driver resources.' }),
});

/** ResourceHandle: opaque or structured data for one kubelet plugin. */
const resourceHandle = struct(id('ResourceHandle'), {
  driverName: field(1, string, { description: 'Driver whose kubelet plugin handles the data.' }),
  data: field(2, string, { description: 'Opaque data, at most 16 KiB.' }),
  structuredData: field(5, structuredResourceHandle, { description: 'Structured data, used instead of data.' }),
});

/** AllocationResult: what the driver allocated. */
export const allocationResult = struct(id('AllocationResult'), {
  resourceHandles: field(1, listOf(resourceHandle, { listType: 'atomic' }), { description: 'Data for the kubelet plugins, at most 32.' }),
  availableOnNodes: field(2, nodeSelector, { description: 'Nodes the allocated resource is available on.' }),
  shareable: field(3, boolean, { description: 'The resource supports several consumers at once.' }),
});

/** ResourceClaimConsumerReference: a consumer of a claim, in its namespace. */
export const resourceClaimConsumerReference = struct(id('ResourceClaimConsumerReference'), {
  apiGroup: field(1, string, { description: 'Group of the consumer; empty for the core group.' }),
  resource: field(3, string, { omitEmpty: false, description: 'Resource of the consumer (pods).' }),
  name: field(4, string, { omitEmpty: false, description: 'Name of the consumer.' }),
  uid: field(5, string, { omitEmpty: false, description: 'UID of the consumer.' }),
});

/** ResourceClaimStatus: allocation and reservations. */
export const resourceClaimStatus = struct(id('ResourceClaimStatus'), {
  driverName: field(1, string, { description: 'Driver of the class when allocation started.' }),
  allocation: field(2, allocationResult, { description: 'Set once the resource is allocated.' }),
  reservedFor: field(3, listOf(resourceClaimConsumerReference, { listType: 'map', listMapKeys: ['uid'], patchStrategy: 'merge', patchMergeKey: 'uid' }), {
    description: 'Consumers allowed to use the claim, at most 32.',
  }),
  deallocationRequested: field(4, boolean, { description: 'The claim is to be deallocated.' }),
});

/** PodSchedulingContextSpec: the node selected and the candidates. */
export const podSchedulingContextSpec = struct(id('PodSchedulingContextSpec'), {
  selectedNode: field(1, string, { description: 'Node allocation is attempted for.' }),
  potentialNodes: field(2, listOf(string, { listType: 'atomic' }), { description: 'Nodes the pod might run on, at most 128.' }),
});

/** ResourceClaimSchedulingStatus: unsuitable nodes of one claim of the pod. */
const resourceClaimSchedulingStatus = struct(id('ResourceClaimSchedulingStatus'), {
  name: field(1, string, { description: 'The pod.spec.resourceClaims entry.' }),
  unsuitableNodes: field(2, listOf(string, { listType: 'atomic' }), { description: 'Nodes the claim cannot be allocated for, at most 128.' }),
});

/** PodSchedulingContextStatus: availability per claim. */
export const podSchedulingContextStatus = struct(id('PodSchedulingContextStatus'), {
  resourceClaims: field(1, listOf(resourceClaimSchedulingStatus, { listType: 'map', listMapKeys: ['name'] }), { description: 'Availability of each WaitForFirstConsumer claim.' }),
});

/** NamedResourcesIntSlice and NamedResourcesStringSlice. */
const namedResourcesIntSlice = struct(id('NamedResourcesIntSlice'), { ints: field(1, listOf(int64, { listType: 'atomic' }), { omitEmpty: false }) });
const namedResourcesStringSlice = struct(id('NamedResourcesStringSlice'), { strings: field(1, listOf(string, { listType: 'atomic' }), { omitEmpty: false }) });

/** NamedResourcesAttributeValue: exactly one typed value. */
const namedResourcesAttributeValue = struct(id('NamedResourcesAttributeValue'), {
  quantity: field(6, quantity, { pointer: true, description: 'A quantity.' }),
  bool: field(2, boolean, { pointer: true, description: 'A boolean.' }),
  int: field(7, int64, { pointer: true, description: 'A 64-bit integer.' }),
  intSlice: field(8, namedResourcesIntSlice, { description: 'A list of 64-bit integers.' }),
  string: field(5, string, { pointer: true, description: 'A string.' }),
  stringSlice: field(9, namedResourcesStringSlice, { description: 'A list of strings.' }),
  version: field(10, string, { pointer: true, description: 'A semantic version (semver.org 2.0.0).' }),
});

/** NamedResourcesAttribute: a name and its value. */
const namedResourcesAttribute = struct(id('NamedResourcesAttribute'), {
  name: field(1, string, { omitEmpty: false, description: 'Attribute name, a DNS subdomain unique in the instance.' }),
  ...inlined(2, namedResourcesAttributeValue),
});

/** NamedResourcesInstance: one hardware instance. */
const namedResourcesInstance = struct(id('NamedResourcesInstance'), {
  name: field(1, string, { omitEmpty: false, description: 'Instance name, a DNS subdomain unique on the node.' }),
  attributes: field(2, listOf(namedResourcesAttribute, { listType: 'atomic' }), { description: 'The attributes of the instance.' }),
});

/** NamedResourcesResources: the available instances. */
const namedResourcesResources = struct(id('NamedResourcesResources'), {
  instances: field(1, listOf(namedResourcesInstance, { listType: 'atomic' }), { omitEmpty: false, description: 'Every instance available.' }),
});

/** ResourceModel: exactly one model (inline in a ResourceSlice). */
export const resourceModel = struct(id('ResourceModel'), {
  namedResources: field(1, namedResourcesResources, { description: 'Resources of the named resources model.' }),
});

/** A `selector` CEL expression struct (NamedResourcesRequest, NamedResourcesFilter). */
const selectorStruct = (name: string) =>
  struct(id(name), { selector: field(1, string, { omitEmpty: false, description: 'CEL expression true for a suitable instance.' }) });

/** ResourceRequest: vendor parameters and exactly one request model (inline). */
const resourceRequest = struct(id('ResourceRequest'), {
  vendorParameters: field(1, raw, { description: 'Vendor parameters of the request.' }),
  ...inlined(2, struct(id('ResourceRequestModel'), { namedResources: field(1, selectorStruct('NamedResourcesRequest'), { description: 'A named resources request.' }) })),
});

/** DriverRequests: the requests of one driver. */
export const driverRequests = struct(id('DriverRequests'), {
  driverName: field(1, string, { description: 'The DRA driver.' }),
  vendorParameters: field(2, raw, { description: 'Vendor parameters of every request of the claim.' }),
  requests: field(3, listOf(resourceRequest, { listType: 'atomic' }), { description: 'The requests to the driver.' }),
});

/** ResourceFilter: a filter of one driver with exactly one model (inline). */
export const resourceFilter = struct(id('ResourceFilter'), {
  driverName: field(1, string, { description: 'The DRA driver.' }),
  ...inlined(2, struct(id('ResourceFilterModel'), { namedResources: field(1, selectorStruct('NamedResourcesFilter'), { description: 'A named resources filter.' }) })),
});

/** VendorParameters: opaque parameters of one driver. */
export const vendorParameters = struct(id('VendorParameters'), {
  driverName: field(1, string, { description: 'The DRA driver.' }),
  parameters: field(2, raw, { description: 'Arbitrary setup parameters.' }),
});
