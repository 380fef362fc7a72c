/**
 * The structures of `flowcontrol.apiserver.<vendor>/v1beta3` (upstream v1.30
 * `k8s.io/api/flowcontrol/v1beta3`): those of v1 under v1beta3 definition ids, except
 * `LimitedPriorityLevelConfiguration.nominalConcurrencyShares`, a plain int32 (not a pointer)
 * that upstream's v1beta3 defaulter sets to 30 when it is 0 — unless the object carries the
 * round-trip annotation APF_PRESERVE_ZERO_SHARES_ANNOTATION, which says that 0 means 0
 * (`pkg/apis/flowcontrol/v1beta3/defaults.go`).
 */
import { field, int32 } from '../../../apimachinery/schema/builder.js';
import type { Field, StructSchema } from '../../../apimachinery/schema/types.js';
import { newRehomer } from '../../rehome.js';
import type { Obj } from '../../define.js';
import { APF_PRESERVE_ZERO_SHARES_ANNOTATIONS } from '../../vendor.js';
import { flowSchemaSpec, flowSchemaStatus } from '../v1/flow-schema-types.js';
import { DEFAULT_NOMINAL_CONCURRENCY_SHARES, limitedPriorityLevelConfiguration, priorityLevelConfigurationSpec, priorityLevelConfigurationStatus } from '../v1/priority-level-types.js';
import { FLOWCONTROL } from '../v1/types.js';

/** Definition id prefix of the v1beta3 structs. */
export const FLOWCONTROL_V1BETA3 = 'api.flowcontrol.v1beta3';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `SetDefaults_PriorityLevelConfiguration` and `SetDefaults_LimitedPriorityLevelConfiguration` of v1beta3; `root` is the object. */
function defaultLimitedV1beta3(l: Obj, root: Obj): void {
  const annotations = isObj(root.metadata) && isObj(root.metadata.annotations) ? root.metadata.annotations : {};
  if (!APF_PRESERVE_ZERO_SHARES_ANNOTATIONS.some((k) => Object.hasOwn(annotations, k)) && (l.nominalConcurrencyShares ?? 0) === 0) {
    l.nominalConcurrencyShares = DEFAULT_NOMINAL_CONCURRENCY_SHARES;
  }
  if (l.lendablePercent === undefined || l.lendablePercent === null) l.lendablePercent = 0;
}

/** The v1beta3 LimitedPriorityLevelConfiguration: v1's with a non-pointer share count. */
const limitedV1beta3: StructSchema = {
  ...limitedPriorityLevelConfiguration,
  id: `${FLOWCONTROL_V1BETA3}.LimitedPriorityLevelConfiguration`,
  fields: {
    ...(limitedPriorityLevelConfiguration.fields as Record<string, Field>),
    nominalConcurrencyShares: field(1, int32, { omitEmpty: false, description: 'Share of the server concurrency limit; 0 is defaulted to 30 unless the object carries the preserve-zero annotation.' }),
  },
  defaulter: defaultLimitedV1beta3,
};

/** Every v1 struct under the v1beta3 id, the limited configuration replaced by its v1beta3 form. */
const v1beta3 = newRehomer({ from: `${FLOWCONTROL}.`, to: `${FLOWCONTROL_V1BETA3}.`, overrides: new Map([[limitedPriorityLevelConfiguration.id, limitedV1beta3]]) });

/** The v1beta3 FlowSchema spec and status. */
export const flowSchemaSpecV1beta3 = v1beta3(flowSchemaSpec);
export const flowSchemaStatusV1beta3 = v1beta3(flowSchemaStatus);
/** The v1beta3 PriorityLevelConfiguration spec and status. */
export const priorityLevelConfigurationSpecV1beta3 = v1beta3(priorityLevelConfigurationSpec);
export const priorityLevelConfigurationStatusV1beta3 = v1beta3(priorityLevelConfigurationStatus);
