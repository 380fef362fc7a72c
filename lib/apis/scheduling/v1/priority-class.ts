/**
 * scheduling/v1 PriorityClass: a named pod priority value. Cluster-scoped; upstream v1.30 field
 * structure and protobuf numbers; `SetDefaults_PriorityClass`: preemptionPolicy
 * PreemptLowerPriority. Short name `pc`. `value` and `preemptionPolicy` are immutable; names
 * with the `system-` prefix are reserved (system-priority-classes.ts). Validation in
 * priority-class-validation.ts; as upstream, an update is checked by
 * `validatePriorityClassUpdate` instead of (not on top of) `validatePriorityClass` (the registry
 * strategy runs it so).
 */
import { boolean, field, int32, string } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { priorityClassPrinter } from '../../printers/scheduling.js';
import { vendorGroup } from '../../vendor.js';
import { validatePriorityClass, validatePriorityClassUpdate } from './priority-class-validation.js';

/** `scheduling.<vendor>`. */
export const SCHEDULING_GROUP = vendorGroup('scheduling');

/** The PriorityClass kind: cluster-scoped, short name `pc`. */
export const priorityClass = defineKind({
  group: SCHEDULING_GROUP,
  version: 'v1',
  kind: 'PriorityClass',
  resource: 'priorityclasses',
  singular: 'priorityclass',
  namespaced: false,
  shortNames: ['pc'],
  description: 'A mapping from a priority class name to the priority value of the pods that use it.',
  printerColumns: priorityClassPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    value: field(2, int32, { omitEmpty: false, description: 'The priority of the pods of this class; immutable.' }),
    globalDefault: field(3, boolean, { description: 'The priority of pods without a class; at most one class may set it.' }),
    description: field(4, string, { description: 'When to use this class.' }),
    preemptionPolicy: field(5, string, { default: 'PreemptLowerPriority', description: 'PreemptLowerPriority (default) or Never; immutable.' }),
  },
  validate: validatePriorityClass,
  validateUpdate: validatePriorityClassUpdate,
});
