/**
 * The kinds of `flowcontrol.apiserver.<vendor>/v1beta3` (upstream v1.30: introduced in 1.26,
 * deprecated in 1.29, removed in 1.32, replaced by v1; served and on by default in 1.30):
 * FlowSchema and PriorityLevelConfiguration, served over the v1 objects (./conversion.ts). Same
 * names, scope, status subresource and printer columns as v1; validation is v1's, on the
 * converted object, as upstream validates the internal one.
 */
import { field } from '../../../apimachinery/schema/builder.js';
import { defineKindVersion, type KindSpec } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { FLOWCONTROL_GROUP } from '../v1/types.js';
import { flowSchema, priorityLevelConfiguration } from '../v1/kinds.js';
import { flowSchemaSpecV1beta3, flowSchemaStatusV1beta3, priorityLevelConfigurationSpecV1beta3, priorityLevelConfigurationStatusV1beta3 } from './types.js';

/** Upstream's `APILifecycleDeprecated` / `APILifecycleRemoved` of the group version. */
const lifecycle = (kind: string): Pick<KindSpec, 'deprecatedSince' | 'removedIn' | 'replacement'> => ({
  deprecatedSince: '1.29',
  removedIn: '1.32',
  replacement: { group: FLOWCONTROL_GROUP, version: 'v1', kind },
});

/** FlowSchema of v1beta3. */
export const flowSchemaV1beta3 = defineKindVersion(
  flowSchema,
  'v1beta3',
  {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, flowSchemaSpecV1beta3, { default: {}, omitEmpty: false }),
    status: field(3, flowSchemaStatusV1beta3, { omitEmpty: false }),
  },
  lifecycle('FlowSchema'),
);

/** PriorityLevelConfiguration of v1beta3. */
export const priorityLevelConfigurationV1beta3 = defineKindVersion(
  priorityLevelConfiguration,
  'v1beta3',
  {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, priorityLevelConfigurationSpecV1beta3, { omitEmpty: false }),
    status: field(3, priorityLevelConfigurationStatusV1beta3, { omitEmpty: false }),
  },
  lifecycle('PriorityLevelConfiguration'),
);
