/**
 * The kinds of `flowcontrol.apiserver.<vendor>/v1` (upstream v1.30 API Priority and Fairness):
 * FlowSchema and PriorityLevelConfiguration, cluster-scoped, DNS subdomain names, each with a
 * status subresource; no short names, categories or field selectors beyond `metadata.name`, as
 * upstream. Enforcement (matching and queuing requests) is not part of these definitions.
 */
import { field } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { flowSchemaPrinter, priorityLevelConfigurationPrinter } from '../../printers/flowcontrol.js';
import { flowSchemaSpec, flowSchemaStatus } from './flow-schema-types.js';
import { validateFlowSchema, validateFlowSchemaStatusUpdate } from './flow-schema-validation.js';
import { priorityLevelConfigurationSpec, priorityLevelConfigurationStatus } from './priority-level-types.js';
import { validatePriorityLevelConfiguration, validatePriorityLevelConfigurationStatusUpdate } from './priority-level-validation.js';
import { FLOWCONTROL_GROUP } from './types.js';

/** The FlowSchema kind: which requests go to which priority level. */
export const flowSchema = defineKind({
  group: FLOWCONTROL_GROUP,
  version: 'v1',
  kind: 'FlowSchema',
  resource: 'flowschemas',
  singular: 'flowschema',
  namespaced: false,
  statusSubresource: true,
  description: 'A class of requests, by subject and target, and the priority level they are handled at.',
  printerColumns: flowSchemaPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, flowSchemaSpec, { default: {}, omitEmpty: false }),
    status: field(3, flowSchemaStatus, { omitEmpty: false }),
  },
  validate: validateFlowSchema,
  validateStatusUpdate: validateFlowSchemaStatusUpdate,
});

/** The PriorityLevelConfiguration kind: how the requests of one priority level are limited and queued. */
export const priorityLevelConfiguration = defineKind({
  group: FLOWCONTROL_GROUP,
  version: 'v1',
  kind: 'PriorityLevelConfiguration',
  resource: 'prioritylevelconfigurations',
  singular: 'prioritylevelconfiguration',
  namespaced: false,
  statusSubresource: true,
  description: 'The concurrency share, borrowing and queuing of one priority level.',
  printerColumns: priorityLevelConfigurationPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, priorityLevelConfigurationSpec, { omitEmpty: false }),
    status: field(3, priorityLevelConfigurationStatus, { omitEmpty: false }),
  },
  validate: validatePriorityLevelConfiguration,
  validateStatusUpdate: validatePriorityLevelConfigurationStatusUpdate,
});
