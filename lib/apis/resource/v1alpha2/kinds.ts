/**
 * The kinds of `resource.<vendor>/v1alpha2` (dynamic resource allocation; upstream v1.30
 * k8s.io/api/resource/v1alpha2, off by default, spec 001 § API versions and groups): the
 * cluster-scoped ResourceClass and ResourceSlice; the namespaced ResourceClaim and
 * PodSchedulingContext (each with a `status` subresource), ResourceClaimTemplate,
 * ResourceClaimParameters and ResourceClassParameters. Field structure, `omitempty` and protobuf
 * numbers as upstream's types; a claim's `allocationMode` defaults to `WaitForFirstConsumer`;
 * ResourceSlices select on `nodeName` and `driverName`; validation in ./validation.ts.
 */
import { boolean, field, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { nodeSelector } from '../../core/v1/affinity.js';
import { inlined } from '../../core/v1/references.js';
import { str } from '../../core/v1/obj-access.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import * as p from '../../printers/resource.js';
import * as t from './types.js';
import * as v from './validation.js';

const base = { group: t.RESOURCE_GROUP, version: 'v1alpha2' } as const;
const metadata = field(1, objectMeta, { omitEmpty: false });

/** ResourceClass: how claims of a class are allocated, by which driver. */
export const resourceClass = defineKind({
  ...base,
  kind: 'ResourceClass',
  resource: 'resourceclasses',
  singular: 'resourceclass',
  namespaced: false,
  description: 'A class of resources, allocated by one dynamic resource driver.',
  printerColumns: p.resourceClassPrinter,
  fields: {
    metadata,
    driverName: field(2, string, { omitEmpty: false, description: 'The driver allocating claims of the class.' }),
    parametersRef: field(3, t.resourceClassParametersReference, { description: 'Object holding the parameters of the class.' }),
    suitableNodes: field(4, nodeSelector, { description: 'Nodes the scheduler considers for unallocated claims.' }),
    structuredParameters: field(5, boolean, { pointer: true, description: 'Allocation uses structured parameters.' }),
    defaultClaimParametersRef: field(6, t.resourceClassParametersReference, { description: 'Default claim parameters of the class.' }),
  },
  validate: v.validateResourceClass,
});

/** ResourceClaim: resources a consumer needs; its status tracks the allocation. */
export const resourceClaim = defineKind({
  ...base,
  kind: 'ResourceClaim',
  resource: 'resourceclaims',
  singular: 'resourceclaim',
  namespaced: true,
  statusSubresource: true,
  description: 'A request for resources of a class, allocated by its driver.',
  printerColumns: p.resourceClaimPrinter,
  fields: {
    metadata,
    spec: field(2, t.resourceClaimSpec, { omitEmpty: false, default: {}, description: 'The resources needed; immutable.' }),
    status: field(3, t.resourceClaimStatus, { omitEmpty: false, default: {}, description: 'Whether and how the resources are allocated.' }),
  },
  validate: v.validateResourceClaim,
  validateUpdate: v.validateResourceClaimUpdate,
  validateStatusUpdate: v.validateResourceClaimStatusUpdate,
});

/** ResourceClaimTemplate: the claims created for pods. */
export const resourceClaimTemplate = defineKind({
  ...base,
  kind: 'ResourceClaimTemplate',
  resource: 'resourceclaimtemplates',
  singular: 'resourceclaimtemplate',
  namespaced: true,
  description: 'A template of the ResourceClaims created for pods.',
  printerColumns: p.resourceClaimTemplatePrinter,
  fields: {
    metadata,
    spec: field(
      2,
      struct(`${t.RESOURCE_V1ALPHA2}.ResourceClaimTemplateSpec`, {
        metadata: field(1, objectMeta, { omitEmpty: false, description: 'Labels and annotations of the created claims.' }),
        spec: field(2, t.resourceClaimSpec, { omitEmpty: false, default: {}, description: 'The spec of the created claims.' }),
      }),
      { omitEmpty: false, default: {}, description: 'The claims to create; immutable.' },
    ),
  },
  validate: v.validateResourceClaimTemplate,
  validateUpdate: v.validateResourceClaimTemplateUpdate,
});

/** PodSchedulingContext: where the claims of a pod can be allocated. */
export const podSchedulingContext = defineKind({
  ...base,
  kind: 'PodSchedulingContext',
  resource: 'podschedulingcontexts',
  singular: 'podschedulingcontext',
  namespaced: true,
  statusSubresource: true,
  description: 'Scheduling information of a pod with WaitForFirstConsumer claims.',
  printerColumns: p.podSchedulingContextPrinter,
  fields: {
    metadata,
    spec: field(2, t.podSchedulingContextSpec, { omitEmpty: false, default: {}, description: 'Where the resources of the pod are needed.' }),
    status: field(3, t.podSchedulingContextStatus, { omitEmpty: false, default: {}, description: 'Where the resources of the pod can be allocated.' }),
  },
  validate: v.validatePodSchedulingContext,
  validateStatusUpdate: v.validatePodSchedulingContextStatusUpdate,
});

/** ResourceClaimParameters: in-tree requests of a claim. */
export const resourceClaimParameters = defineKind({
  ...base,
  kind: 'ResourceClaimParameters',
  resource: 'resourceclaimparameters',
  singular: 'resourceclaimparameters',
  namespaced: true,
  description: 'The resource requests of a claim in the in-tree format.',
  printerColumns: p.resourceParametersPrinter,
  fields: {
    metadata,
    generatedFrom: field(2, t.resourceClaimParametersReference, { description: 'The object these parameters were generated from.' }),
    shareable: field(3, boolean, { description: 'The allocated claim may be shared.' }),
    driverRequests: field(4, listOf(t.driverRequests, { listType: 'atomic' }), { description: 'The requests, at most one entry per driver.' }),
  },
  validate: v.validateResourceClaimParameters,
});

/** ResourceClassParameters: in-tree constraints of a class. */
export const resourceClassParameters = defineKind({
  ...base,
  kind: 'ResourceClassParameters',
  resource: 'resourceclassparameters',
  singular: 'resourceclassparameters',
  namespaced: true,
  description: 'The parameters and filters of a class in the in-tree format.',
  printerColumns: p.resourceParametersPrinter,
  fields: {
    metadata,
    generatedFrom: field(2, t.resourceClassParametersReference, { description: 'The object these parameters were generated from.' }),
    vendorParameters: field(3, listOf(t.vendorParameters, { listType: 'atomic' }), { description: 'Vendor parameters, at most one entry per driver.' }),
    filters: field(4, listOf(t.resourceFilter, { listType: 'atomic' }), { description: 'Constraints on the resources of the class.' }),
  },
  validate: v.validateResourceClassParameters,
});

/** ResourceSlice: resources a driver offers, on one node or cluster-wide. */
export const resourceSlice = defineKind({
  ...base,
  kind: 'ResourceSlice',
  resource: 'resourceslices',
  singular: 'resourceslice',
  namespaced: false,
  description: 'Resources available from one driver, on one node or in the cluster.',
  printerColumns: p.resourceSlicePrinter,
  fieldSelectors: { nodeName: (o) => str(o.nodeName), driverName: (o) => str(o.driverName) },
  fields: {
    metadata,
    nodeName: field(2, string, { description: 'The node providing the resources; immutable.' }),
    driverName: field(3, string, { omitEmpty: false, description: 'The driver providing the resources; immutable.' }),
    ...inlined(4, t.resourceModel),
  },
  validate: v.validateResourceSlice,
  validateUpdate: v.validateResourceSliceUpdate,
});
