/**
 * Role and ClusterRole validation with the upstream paths and messages (upstream rbac
 * validation `ValidatePolicyRule`, `ValidateClusterRole`): rules need verbs; non-resource URLs
 * only in cluster roles and never mixed with resources; resource rules need groups and
 * resources; aggregation selectors are valid label selectors. ObjectMeta (path-segment names) is
 * checked by the caller.
 */
import { type FieldError, FieldPath, invalid, required } from '../../../apimachinery/field-errors.js';
import { labelSelectorFromObject, SelectorParseError, type LabelSelectorObject } from '../../../apimachinery/labels/selector.js';
import { validateLabelSelectorObject } from '../../../apimachinery/labels/validation.js';
import type { Obj } from '../../define.js';

const count = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

/** One rule at `path`; `namespaced` forbids non-resource URLs (Role). */
export function validatePolicyRule(rule: Obj, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (Array.isArray(rule.verbs) && rule.verbs.length === 0) errs.push(required(path.child('verbs'), 'verbs must contain at least one value'));
  if (count(rule.nonResourceURLs) > 0) {
    if (namespaced) errs.push(invalid(path.child('nonResourceURLs'), rule.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
    if (count(rule.apiGroups) > 0 || count(rule.resources) > 0 || count(rule.resourceNames) > 0)
      errs.push(invalid(path.child('nonResourceURLs'), rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    return errs;
  }
  if (count(rule.apiGroups) === 0) errs.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (count(rule.resources) === 0) errs.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  if (count(rule.resourceNames) > 0 && count(rule.resources) > 1)
    errs.push(required(path.child('resourceNames'), 'resource names cannot apply to multiple resources'));
  return errs;
}

function validateRules(role: Obj, namespaced: boolean): FieldError[] {
  const rules = Array.isArray(role.rules) ? (role.rules as Obj[]) : [];
  return rules.flatMap((r, i) => validatePolicyRule(r ?? {}, namespaced, FieldPath.of('rules').index(i)));
}

/** Role, on create and update. */
export function validateRole(role: Obj): FieldError[] {
  return validateRules(role, true);
}

/** ClusterRole, on create and update: rules, and a set `aggregationRule` needs valid selectors. */
export function validateClusterRole(role: Obj): FieldError[] {
  const errs = validateRules(role, false);
  const aggregation = role.aggregationRule as Obj | undefined;
  if (aggregation) {
    const selectors = Array.isArray(aggregation.clusterRoleSelectors) ? (aggregation.clusterRoleSelectors as LabelSelectorObject[]) : [];
    const path = FieldPath.of('aggregationRule', 'clusterRoleSelectors');
    if (selectors.length === 0) errs.push(required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((sel, i) => {
      errs.push(...validateLabelSelectorObject(sel, path.index(i)));
      try {
        labelSelectorFromObject(sel);
      } catch (e) {
        if (!(e instanceof SelectorParseError)) throw e;
        errs.push(invalid(path.index(i), null, 'invalid label selector.'));
      }
    });
  }
  return errs;
}
