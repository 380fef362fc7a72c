/**
 * core/v1 Namespace: a scope for names (upstream field structure and protobuf numbers).
 * spec 000 § Resources and their fields, § Object deletion lifecycle.
 */
import { field, listOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { defaultNamespace } from './namespace-defaults.js';
import { validateNamespace, validateNamespaceStatusUpdate } from './namespace-validation.js';
import { CORE } from './references.js';
import { byPath } from '../../field-selectors.js';
import { namespacePrinter } from '../../printers/core.js';

/** One observed condition of a namespace (e.g. content deletion failures). */
export const namespaceCondition = struct(`${CORE}.NamespaceCondition`, {
  type: field(1, string, { required: true, omitEmpty: false }),
  status: field(2, string, { required: true, omitEmpty: false }),
  lastTransitionTime: field(4, time, { omitEmpty: false }),
  reason: field(5, string),
  message: field(6, string),
});

/** Desired state of a namespace: the finalizers that hold its deletion. */
export const namespaceSpec = struct(`${CORE}.NamespaceSpec`, {
  finalizers: field(1, listOf(string, { listType: 'atomic' }), { description: 'Finalizers that must all be removed before the namespace is deleted from storage.' }),
});

/** Observed state of a namespace: lifecycle phase and conditions. */
export const namespaceStatus = struct(`${CORE}.NamespaceStatus`, {
  phase: field(1, string, { default: 'Active', description: 'Lifecycle phase: Active or Terminating.' }),
  conditions: field(
    2,
    listOf(namespaceCondition, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }),
  ),
});

/** The Namespace kind: cluster-scoped, DNS-1123 label names, status subresource. */
export const namespace = defineKind({
  group: '',
  version: 'v1',
  kind: 'Namespace',
  resource: 'namespaces',
  singular: 'namespace',
  namespaced: false,
  shortNames: ['ns'],
  nameRule: 'dns1123Label',
  statusSubresource: true,
  description: 'A scope in which namespaced object names are unique.',
  fieldSelectors: byPath('status.phase'),
  printerColumns: namespacePrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, namespaceSpec, { omitEmpty: false, description: 'Desired behaviour of the namespace.' }),
    status: field(3, namespaceStatus, { default: {}, omitEmpty: false, description: 'Observed state of the namespace.' }),
  },
  validate: validateNamespace,
  validateStatusUpdate: validateNamespaceStatusUpdate,
});

namespace.schema.defaulter = defaultNamespace;
