/**
 * FlowSchema and PriorityLevelConfiguration in `flowcontrol.apiserver.<vendor>/v1beta1`,
 * `v1beta2` and `v1beta3` → `v1` (spec 001 § Removed API versions, 1.26, 1.29 and 1.32 rows;
 * upstream `pkg/apis/flowcontrol/v1beta{1,2,3}` defaults and conversions). FlowSchemas keep their
 * shape. A limited priority level:
 *
 * - v1beta1, v1beta2: `assuredConcurrencyShares` is renamed `nominalConcurrencyShares`; unset or
 *   0 meant the default 30 there, and is written 30.
 * - v1beta3: `nominalConcurrencyShares` unset or 0 means 30, except that 0 with the round-trip
 *   annotation (APF_PRESERVE_ZERO_SHARES_ANNOTATION, either spelling) stays 0; the annotation is
 *   dropped (v1 holds 0 itself and defaults only an unset value).
 */
import type { Obj } from '../define.js';
import { FLOWCONTROL_GROUP } from '../flowcontrol/v1/types.js';
import { APF_PRESERVE_ZERO_SHARES_ANNOTATIONS } from '../vendor.js';
import { type MigrationRow, isObj, rename, sameShape } from './types.js';

/** The default concurrency shares of a limited priority level. */
const DEFAULT_SHARES = 30;

/** The round-trip annotation in the vendor and the upstream spelling. */
const PRESERVE_ZERO_KEYS = APF_PRESERVE_ZERO_SHARES_ANNOTATIONS;

/** The `spec.limited` object of a priority level, or undefined. */
function limitedOf(obj: Obj): Obj | undefined {
  const spec = obj.spec;
  return isObj(spec) && isObj(spec.limited) ? spec.limited : undefined;
}

/** A v1beta1 or v1beta2 PriorityLevelConfiguration in v1's shape. */
export function priorityLevelV1beta2ToV1(obj: Obj): Obj {
  const limited = limitedOf(obj);
  if (limited) {
    rename(limited, 'assuredConcurrencyShares', 'nominalConcurrencyShares');
    if (!limited.nominalConcurrencyShares) limited.nominalConcurrencyShares = DEFAULT_SHARES;
  }
  return obj;
}

/** A v1beta3 PriorityLevelConfiguration in v1's shape. */
export function priorityLevelV1beta3ToV1(obj: Obj): Obj {
  const meta = isObj(obj.metadata) ? obj.metadata : undefined;
  const annotations = meta && isObj(meta.annotations) ? meta.annotations : undefined;
  const preserveZero = annotations !== undefined && PRESERVE_ZERO_KEYS.some((k) => k in annotations);
  if (annotations) {
    for (const k of PRESERVE_ZERO_KEYS) delete annotations[k];
    if (Object.keys(annotations).length === 0) delete meta!.annotations;
  }
  const limited = limitedOf(obj);
  if (limited && !limited.nominalConcurrencyShares) limited.nominalConcurrencyShares = preserveZero && limited.nominalConcurrencyShares === 0 ? 0 : DEFAULT_SHARES;
  return obj;
}

const v1 = { group: FLOWCONTROL_GROUP, version: 'v1' };
const PLC = 'PriorityLevelConfiguration';

/** The flow-control rows, newest removal first as in the spec. */
export const flowcontrolRows: readonly MigrationRow[] = [
  sameShape(FLOWCONTROL_GROUP, 'v1beta3', 'FlowSchema', v1, '1.32'),
  { from: { group: FLOWCONTROL_GROUP, version: 'v1beta3', kind: PLC }, to: { ...v1, kind: PLC }, removedIn: '1.32', convert: priorityLevelV1beta3ToV1 },
  sameShape(FLOWCONTROL_GROUP, 'v1beta2', 'FlowSchema', v1, '1.29'),
  { from: { group: FLOWCONTROL_GROUP, version: 'v1beta2', kind: PLC }, to: { ...v1, kind: PLC }, removedIn: '1.29', convert: priorityLevelV1beta2ToV1 },
  sameShape(FLOWCONTROL_GROUP, 'v1beta1', 'FlowSchema', v1, '1.26'),
  { from: { group: FLOWCONTROL_GROUP, version: 'v1beta1', kind: PLC }, to: { ...v1, kind: PLC }, removedIn: '1.26', convert: priorityLevelV1beta2ToV1 },
];
