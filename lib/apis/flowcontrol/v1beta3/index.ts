/**
 * The kinds of `flowcontrol.apiserver.<vendor>/v1beta3` (issue #15 item 1): FlowSchema and
 * PriorityLevelConfiguration served over the v1 objects through the conversions below
 * (the functions of ./conversion.ts bound to the kinds).
 */
import type { KindDefinition } from '../../define.js';
import { defineVersionConversion, type VersionConversion } from '../../version-conversion.js';
import { flowSchema, priorityLevelConfiguration } from '../v1/kinds.js';
import { flowSchemaConvert, priorityLevelFromV1beta3, priorityLevelToV1beta3 } from './conversion.js';
import { flowSchemaV1beta3, priorityLevelConfigurationV1beta3 } from './kinds.js';

export { flowSchemaConvert, priorityLevelFromV1beta3, priorityLevelToV1beta3 } from './conversion.js';
export { flowSchemaV1beta3, priorityLevelConfigurationV1beta3 } from './kinds.js';

/** v1beta3 FlowSchema served over v1 storage. */
export const flowSchemaV1beta3Conversion: VersionConversion = defineVersionConversion({
  storageKind: flowSchema,
  servedKind: flowSchemaV1beta3,
  toStorage: flowSchemaConvert,
  toServed: flowSchemaConvert,
});

/** v1beta3 PriorityLevelConfiguration served over v1 storage. */
export const priorityLevelConfigurationV1beta3Conversion: VersionConversion = defineVersionConversion({
  storageKind: priorityLevelConfiguration,
  servedKind: priorityLevelConfigurationV1beta3,
  toStorage: priorityLevelFromV1beta3,
  toServed: priorityLevelToV1beta3,
});

/** Every kind of the group version, for the catalogue. */
export const flowcontrolV1beta3Kinds: readonly KindDefinition[] = [flowSchemaV1beta3, priorityLevelConfigurationV1beta3];
