/**
 * ResourceQuota validation with the upstream paths and messages (v1.30 `ValidateResourceQuota`,
 * `validateResourceQuotaScopes`, `validateScopedResourceSelectorRequirement`,
 * `ValidateResourceQuotaUpdate`, `ValidateResourceQuotaStatusUpdate`): quota resource names and
 * amounts in `hard` (and in the status lists), supported and non-conflicting scopes that apply
 * to every limited resource, scope selector operators and values; scopes are immutable.
 * ObjectMeta (DNS subdomain names) is checked by the caller.
 */
import { type FieldError, FieldPath, GoSyntax, invalid, required } from '../../../apimachinery/field-errors.js';
import { Quantity } from '../../../apimachinery/quantity.js';
import type { Obj } from '../../define.js';
import { list, obj, objs, str } from './obj-access.js';
import { parseQuantity } from './resources-validation.js';
import { isStandardQuotaResource, scopeAppliesToResource, validateQuantityValue, validateQuotaResourceName } from './resource-quota-names.js';

/** The scopes a quota may use. */
export const QUOTA_SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
const CONFLICTING_SCOPES = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];
const EXISTS_ONLY = ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'];

/** Names and amounts of a resource list (`spec.hard`, `status.hard`, `status.used`). */
function validateResourceList(resources: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [name, value] of Object.entries(obj(resources) ?? {})) {
    const p = path.key(name);
    errs.push(...validateQuotaResourceName(name, p));
    const q = parseQuantity(value, p);
    if (q instanceof Quantity) errs.push(...validateQuantityValue(name, q, p));
    else errs.push(q);
  }
  return errs;
}

/** Limited resources the quota system knows that `scope` does not apply to. */
const mismatched = (scope: string, hard: string[]): boolean => hard.some((k) => isStandardQuotaResource(k) && !scopeAppliesToResource(scope, k));

const conflicting = (scopes: Set<string>): boolean => CONFLICTING_SCOPES.some((pair) => pair.every((s) => scopes.has(s)));

function validateScopes(spec: Obj, hard: string[], path: FieldPath): FieldError[] {
  const scopes = list(spec.scopes).map(str);
  if (scopes.length === 0) return [];
  const errs: FieldError[] = [];
  for (const scope of scopes) {
    if (!QUOTA_SCOPES.includes(scope)) errs.push(invalid(path, scopes, 'unsupported scope'));
    if (mismatched(scope, hard)) errs.push(invalid(path, scopes, 'unsupported scope applied to resource'));
  }
  if (conflicting(new Set(scopes))) errs.push(invalid(path, scopes, 'conflicting scopes'));
  return errs;
}

function validateScopeSelector(spec: Obj, hard: string[], path: FieldPath): FieldError[] {
  const selector = obj(spec.scopeSelector);
  if (!selector) return [];
  const errs: FieldError[] = [];
  const exprPath = path.child('matchExpressions');
  const seen = new Set<string>();
  for (const req of objs(selector.matchExpressions)) {
    const scope = str(req.scopeName);
    const values = list(req.values);
    if (!QUOTA_SCOPES.includes(scope)) errs.push(invalid(exprPath.child('scopeName'), scope, 'unsupported scope'));
    if (mismatched(scope, hard)) errs.push(invalid(exprPath, selector, 'unsupported scope applied to resource'));
    if (EXISTS_ONLY.includes(scope) && req.operator !== 'Exists')
      errs.push(invalid(exprPath.child('operator'), str(req.operator), "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"));
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(exprPath.child('values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(invalid(exprPath.child('values'), values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        break;
      default:
        errs.push(invalid(exprPath.child('operator'), str(req.operator), 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  const scopes = list(spec.scopes);
  if (conflicting(seen)) errs.push(invalid(exprPath, scopes.length > 0 ? scopes : new GoSyntax('null'), 'conflicting scopes'));
  return errs;
}

/** The spec of a quota (upstream `ValidateResourceQuotaSpec`). */
function validateSpec(spec: Obj, path: FieldPath): FieldError[] {
  const hard = Object.keys(obj(spec.hard) ?? {}).sort();
  return [
    ...validateResourceList(spec.hard, path.child('hard')),
    ...validateScopes(spec, hard, path.child('scopes')),
    ...validateScopeSelector(spec, hard, path.child('scopeSelector')),
  ];
}

/** The status lists of a quota. */
function validateStatus(status: unknown, path: FieldPath): FieldError[] {
  const s = obj(status) ?? {};
  return [...validateResourceList(s.hard, path.child('hard')), ...validateResourceList(s.used, path.child('used'))];
}

/** Create and update: spec and status (upstream `ValidateResourceQuota`). */
export function validateResourceQuota(quota: Obj): FieldError[] {
  return [...validateSpec(obj(quota.spec) ?? {}, FieldPath.of('spec')), ...validateStatus(quota.status, FieldPath.of('status'))];
}

/** Update: the set of scopes cannot change. */
export function validateResourceQuotaUpdate(quota: Obj, old: Obj): FieldError[] {
  const scopes = list(obj(quota.spec)?.scopes).map(str);
  const next = new Set(scopes);
  const prev = new Set(list(obj(old.spec)?.scopes).map(str));
  const same = next.size === prev.size && [...next].every((s) => prev.has(s));
  return same ? [] : [invalid('spec.scopes', scopes.length > 0 ? scopes : new GoSyntax('null'), 'field is immutable')];
}

/** A status write: the enforced and used lists hold quota resources and valid amounts. */
export function validateResourceQuotaStatusUpdate(quota: Obj): FieldError[] {
  return validateStatus(quota.status, FieldPath.of('status'));
}
