/**
 * core/v1 ComponentStatus: the health of one component of the control plane, probed when read
 * and never stored (upstream v1.30 field structure and protobuf numbers). Deprecated since
 * v1.19, as upstream's type says: every request answered through it carries the warning
 * `v1 ComponentStatus is deprecated in v1.19+`. Cluster-scoped, short name `cs`, no category,
 * no field selectors beyond name and namespace; upstream's printer (Name, Status, Message, Error).
 * Served read-only by lib/registry/core/componentstatus.
 */
import { field, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { componentStatusPrinter } from '../../printers/component-status.js';
import { CORE } from './references.js';

/** The one condition type upstream defines. */
export const COMPONENT_HEALTHY = 'Healthy';

const req = { required: true, omitEmpty: false } as const;

/** One observed condition of a component. */
export const componentCondition = struct(`${CORE}.ComponentCondition`, {
  type: field(1, string, { ...req, description: 'Type of condition: Healthy.' }),
  status: field(2, string, { ...req, description: 'Status of the condition: True, False or Unknown.' }),
  message: field(3, string, { description: 'What the probe answered.' }),
  error: field(4, string, { description: 'Why the probe could not be run.' }),
});

/** The ComponentStatus kind (`cs`). */
export const componentStatus = defineKind({
  group: '',
  version: 'v1',
  kind: 'ComponentStatus',
  resource: 'componentstatuses',
  singular: 'componentstatus',
  namespaced: false,
  shortNames: ['cs'],
  deprecatedSince: '1.19',
  description: 'The health of one component of the control plane, probed when read. Deprecated in v1.19+.',
  printerColumns: componentStatusPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    conditions: field(2, listOf(componentCondition, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }), {
      description: 'The observed conditions of the component.',
    }),
  },
});
