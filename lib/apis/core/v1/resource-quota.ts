/**
 * core/v1 ResourceQuota: aggregate limits on the resources a namespace may consume, with the
 * enforced and used amounts in its status. Upstream v1.30 field structure and protobuf numbers;
 * no defaults. Short name `quota`, no category, status subresource; no field selectors beyond
 * name and namespace.
 */
import { field, listOf, mapOf, quantity, string, struct } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { resourceQuotaPrinter } from '../../printers/storage-core.js';
import { CORE } from './references.js';
import { validateResourceQuota, validateResourceQuotaStatusUpdate, validateResourceQuotaUpdate } from './resource-quota-validation.js';

/** One scope requirement: a scope name, an operator and values. */
export const scopedResourceSelectorRequirement = struct(`${CORE}.ScopedResourceSelectorRequirement`, {
  scopeName: field(1, string, { omitEmpty: false, description: 'Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass or CrossNamespacePodAffinity.' }),
  operator: field(2, string, { omitEmpty: false, description: 'In, NotIn, Exists or DoesNotExist.' }),
  values: field(3, listOf(string, { listType: 'atomic' })),
});

/** The AND of scope requirements; atomic. */
export const scopeSelector = struct(
  `${CORE}.ScopeSelector`,
  { matchExpressions: field(1, listOf(scopedResourceSelectorRequirement, { listType: 'atomic' })) },
  { mapType: 'atomic' },
);

/** The desired hard limits and the objects they apply to. */
export const resourceQuotaSpec = struct(
  `${CORE}.ResourceQuotaSpec`,
  {
    hard: field(1, mapOf(quantity), { description: 'Hard limits by resource name.' }),
    scopes: field(2, listOf(string, { listType: 'atomic' }), { description: 'Filters every tracked object must match.' }),
    scopeSelector: field(3, scopeSelector),
  },
  { description: 'The desired hard limits of a quota.' },
);

/** The enforced limits and the observed usage. */
export const resourceQuotaStatus = struct(
  `${CORE}.ResourceQuotaStatus`,
  {
    hard: field(1, mapOf(quantity)),
    used: field(2, mapOf(quantity)),
  },
  { description: 'The enforced hard limits and the observed use.' },
);

/** The ResourceQuota kind (`quota`, with a status subresource). */
export const resourceQuota = defineKind({
  group: '',
  version: 'v1',
  kind: 'ResourceQuota',
  resource: 'resourcequotas',
  singular: 'resourcequota',
  namespaced: true,
  shortNames: ['quota'],
  statusSubresource: true,
  description: 'Aggregate quota restrictions enforced per namespace.',
  printerColumns: resourceQuotaPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, resourceQuotaSpec, { omitEmpty: false }),
    status: field(3, resourceQuotaStatus, { omitEmpty: false }),
  },
  validate: validateResourceQuota,
  validateUpdate: validateResourceQuotaUpdate,
  validateStatusUpdate: validateResourceQuotaStatusUpdate,
});
