/**
 * node/v1 RuntimeClass: a container runtime configuration (its CRI handler), with the pod
 * overhead it adds and the scheduling constraints of the nodes that support it. Cluster-scoped;
 * upstream v1.30 field structure and protobuf numbers; no defaults, no short name. `handler` is
 * immutable. Validation in runtime-class-validation.ts.
 */
import { field, listOf, mapOf, quantity, string, struct } from '../../../apimachinery/schema/builder.js';
import { toleration } from '../../core/v1/affinity.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { runtimeClassPrinter } from '../../printers/scheduling.js';
import { vendorGroup } from '../../vendor.js';
import { validateRuntimeClass, validateRuntimeClassUpdate } from './runtime-class-validation.js';

/** `node.<vendor>`. */
export const NODE_GROUP = vendorGroup('node');
const V1 = 'api.node.v1';

/** The resources a pod of this class uses beyond its containers' requests. */
export const overhead = struct(`${V1}.Overhead`, {
  podFixed: field(1, mapOf(quantity), { description: 'Fixed overhead of a pod running with the class.' }),
});

/** Where pods of this class may run: the nodes that support it. */
export const scheduling = struct(`${V1}.Scheduling`, {
  nodeSelector: field(1, mapOf(string, { mapType: 'atomic' }), { description: 'Labels of the nodes that support the class; merged into the pod nodeSelector.' }),
  tolerations: field(2, listOf(toleration, { listType: 'atomic' }), { description: 'Tolerations added to the pods of the class.' }),
});

/** The RuntimeClass kind: cluster-scoped, DNS subdomain names. */
export const runtimeClass = defineKind({
  group: NODE_GROUP,
  version: 'v1',
  kind: 'RuntimeClass',
  resource: 'runtimeclasses',
  singular: 'runtimeclass',
  namespaced: false,
  description: 'A container runtime configuration pods may select by name.',
  printerColumns: runtimeClassPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    handler: field(2, string, { omitEmpty: false, description: 'The CRI handler (a DNS label); immutable.' }),
    overhead: field(3, overhead, { description: 'Pod overhead of the class.' }),
    scheduling: field(4, scheduling, { description: 'Scheduling constraints of the class.' }),
  },
  validate: validateRuntimeClass,
  validateUpdate: validateRuntimeClassUpdate,
});
