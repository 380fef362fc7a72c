/**
 * The `policy/v1beta1` rows (spec 001 § Removed API versions, 1.25 row, and PodSecurityPolicy of
 * the 1.16 row; upstream `pkg/apis/policy/v1beta1/conversion.go`, `pkg/apis/policy/helper.go`).
 *
 * PodDisruptionBudget → `policy/v1`: an empty selector `{}` selects no Pods in v1beta1 but all in
 * v1, so it becomes the v1 form that matches none (one `Exists` requirement on
 * PDB_V1BETA1_SELECTOR_LABEL); v1beta1's explicit match-all form (a `DoesNotExist` requirement
 * on that label alone) becomes `{}`; any other selector loses requirements on that label. An unset
 * selector stays unset (it selects none in both).
 *
 * PodSecurityPolicy (in `policy/v1beta1`, and in `extensions/v1beta1`, whose replacement was
 * `policy/v1beta1`) has no replacement API: its conversion throws MigrationError.
 */
import type { Obj } from '../define.js';
import { POLICY_GROUP } from '../policy/v1/pod-disruption-budget.js';
import { PDB_V1BETA1_SELECTOR_LABEL } from '../vendor.js';
import { EXTENSIONS_GROUP } from './same-shape.js';
import { type MigrationRow, MigrationError, isObj, objects } from './types.js';

/** What to use instead of PodSecurityPolicy, as the spec words it. */
const PSP_INSTEAD = 'Pod security admission or a third-party admission webhook';

/** True for a selector with no requirement at all. */
function isEmptySelector(s: Obj): boolean {
  return Object.keys(s).every((k) => (k === 'matchLabels' ? isObj(s[k]) && Object.keys(s[k]).length === 0 : k === 'matchExpressions' ? objects(s[k]).length === 0 : s[k] === undefined));
}

/** True for v1beta1's match-all selector: exactly one `DoesNotExist` requirement on the label. */
function isV1beta1MatchAll(s: Obj): boolean {
  const exprs = objects(s.matchExpressions);
  const labels = isObj(s.matchLabels) ? Object.keys(s.matchLabels).length : 0;
  const e = exprs[0];
  const noValues = e?.values === undefined || (Array.isArray(e.values) && e.values.length === 0);
  return labels === 0 && exprs.length === 1 && e!.key === PDB_V1BETA1_SELECTOR_LABEL && e!.operator === 'DoesNotExist' && noValues;
}

/** Rewrites a policy/v1beta1 PodDisruptionBudget into v1 (see the file comment). */
export function podDisruptionBudgetToV1(obj: Obj): Obj {
  const spec = obj.spec;
  if (!isObj(spec) || !isObj(spec.selector)) return obj;
  const selector = spec.selector;
  if (isEmptySelector(selector)) spec.selector = { matchExpressions: [{ key: PDB_V1BETA1_SELECTOR_LABEL, operator: 'Exists' }] };
  else if (isV1beta1MatchAll(selector)) spec.selector = {};
  else if (Array.isArray(selector.matchExpressions)) {
    const kept = selector.matchExpressions.filter((e) => !(isObj(e) && e.key === PDB_V1BETA1_SELECTOR_LABEL));
    if (kept.length > 0) selector.matchExpressions = kept;
    else delete selector.matchExpressions;
  }
  return obj;
}

/** The conversion of a kind removed with no replacement API. */
function noReplacement(group: string, kind: string, removedIn: string): (obj: Obj) => Obj {
  return () => {
    throw new MigrationError(`${group}/v1beta1 ${kind} was removed in v${removedIn} with no replacement API; use ${PSP_INSTEAD}`);
  };
}

/** The policy rows. */
export const policyRows: readonly MigrationRow[] = [
  {
    from: { group: POLICY_GROUP, version: 'v1beta1', kind: 'PodDisruptionBudget' },
    to: { group: POLICY_GROUP, version: 'v1', kind: 'PodDisruptionBudget' },
    removedIn: '1.25',
    convert: podDisruptionBudgetToV1,
  },
  { from: { group: POLICY_GROUP, version: 'v1beta1', kind: 'PodSecurityPolicy' }, removedIn: '1.25', instead: PSP_INSTEAD, convert: noReplacement(POLICY_GROUP, 'PodSecurityPolicy', '1.25') },
  {
    from: { group: EXTENSIONS_GROUP, version: 'v1beta1', kind: 'PodSecurityPolicy' },
    to: { group: POLICY_GROUP, version: 'v1beta1', kind: 'PodSecurityPolicy' },
    removedIn: '1.16',
    convert: (obj) => obj,
  },
];
