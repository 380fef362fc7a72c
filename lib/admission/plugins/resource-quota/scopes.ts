/**
 * A quota's scopes (upstream `getScopeSelectorsFromQuota`): each name of `spec.scopes` as an
 * `Exists` requirement, then `spec.scopeSelector.matchExpressions`. An object is tracked by a
 * quota only when it matches every requirement (spec 001 § Admission control, ResourceQuota).
 */
import { type Obj, list, obj, objs, str } from '../../../apis/core/v1/obj-access.js';

/** One scope requirement: Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass or CrossNamespacePodAffinity with In, NotIn, Exists or DoesNotExist. */
export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values: string[];
}

/** The scope requirements of a ResourceQuota object, in the order upstream evaluates them. */
export function scopeRequirements(quota: Obj): ScopeRequirement[] {
  const spec = obj(quota.spec) ?? {};
  const out: ScopeRequirement[] = list(spec.scopes).map((s) => ({ scopeName: str(s), operator: 'Exists', values: [] }));
  for (const e of objs(obj(spec.scopeSelector)?.matchExpressions)) {
    out.push({ scopeName: str(e.scopeName), operator: str(e.operator), values: list(e.values).map(str) });
  }
  return out;
}
