/**
 * Validation shared by webhooks and policies, with upstream v1.30's paths and messages
 * (`pkg/apis/admissionregistration/validation`): rules with operations (`validateRule`,
 * `validateResources` with its wildcard and subresource forms), named rules, match resources,
 * match conditions (at most 64, unique qualified names, CEL boolean expressions) and label
 * selectors. Values upstream prints with Go's `%#v` (typed slices) are shown the same way.
 */
import { type FieldError, type FieldPath, duplicate, GoSyntax, goStringSlice, invalid, notSupported, required, tooMany } from '../../../apimachinery/field-errors.js';
import type { LabelSelectorObject } from '../../../apimachinery/labels/selector.js';
import { validateLabelSelectorObject } from '../../../apimachinery/labels/validation.js';
import { isQualifiedName, isValidPathSegmentName } from '../../../apimachinery/validation/names.js';
import { list, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';
import type { AdmissionExpressionCompiler, ExpressionScope } from './expressions.js';
import { MATCH_POLICIES, OPERATIONS, SCOPES } from './types.js';

/** Go's `%#v` of a slice of a named string type of the internal package: `[]admissionregistration.T{"a", "b"}`. */
export function goTypedSlice(type: string, values: readonly string[]): GoSyntax {
  const name = `[]admissionregistration.${type}`;
  return new GoSyntax(values.length === 0 ? `${name}(nil)` : `${name}{${values.map((v) => JSON.stringify(v)).join(', ')}}`);
}

/** The strings of a list (non-strings read as Go's zero ""). */
export function strings(v: unknown): string[] {
  return list(v).map(str);
}

/** `sets.NewString(values...).List()`: the values sorted. */
export function sortedValues(values: readonly string[]): string[] {
  return [...values].sort();
}

function validateResources(resources: string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const withWildcardSubresource = new Set<string>();
  const subresourcesWithWildcardResource = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(path.index(i)));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSubresource = resSub !== '*';
      return;
    }
    const [res, sub] = [resSub.slice(0, slash), resSub.slice(slash + 1)];
    if (withWildcardSubresource.has(res)) errs.push(invalid(path.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subresourcesWithWildcardResource.has(sub)) errs.push(invalid(path.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSubresource.add(res);
    if (res === '*') subresourcesWithWildcardResource.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalid(path, goStringSlice(resources), "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSubresource) errs.push(invalid(path, goStringSlice(resources), "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

function validateRule(rule: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const groups = strings(rule.apiGroups);
  const versions = strings(rule.apiVersions);
  if (groups.length === 0) errs.push(required(path.child('apiGroups')));
  if (groups.length > 1 && groups.includes('*')) errs.push(invalid(path.child('apiGroups'), goStringSlice(groups), "if '*' is present, must not specify other API groups"));
  if (versions.length === 0) errs.push(required(path.child('apiVersions')));
  if (versions.length > 1 && versions.includes('*')) errs.push(invalid(path.child('apiVersions'), goStringSlice(versions), "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(path.child('apiVersions').index(i)));
  });
  errs.push(...validateResources(strings(rule.resources), path.child('resources')));
  if (typeof rule.scope === 'string' && !(SCOPES as readonly string[]).includes(rule.scope)) errs.push(notSupported(path.child('scope'), rule.scope, sortedValues(SCOPES)));
  return errs;
}

/** A rule with operations (webhook rules; the rules of match resources), subresources allowed. */
export function validateRuleWithOperations(rule: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const operations = strings(rule.operations);
  const opsPath = path.child('operations');
  if (operations.length === 0) errs.push(required(opsPath));
  if (operations.length > 1 && operations.includes('*')) errs.push(invalid(opsPath, goTypedSlice('OperationType', operations), "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!(OPERATIONS as readonly string[]).includes(op)) errs.push(notSupported(opsPath.index(i), op, sortedValues(OPERATIONS)));
  });
  return [...errs, ...validateRule(rule, path)];
}

function validateNamedRuleWithOperations(rule: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  strings(rule.resourceNames).forEach((name, i) => {
    const p = path.child('resourceNames').index(i);
    for (const m of isValidPathSegmentName(name)) errs.push(invalid(p, name, m));
    if (seen.has(name)) errs.push(duplicate(p, name));
    else seen.add(name);
  });
  return [...errs, ...validateRuleWithOperations(rule, path)];
}

/**
 * A label selector at `path`. With `allowInvalidLabelValues` (an update of an object whose stored
 * selectors already held invalid values: upstream `AllowInvalidLabelValueInSelector`), the
 * values of match expressions are not checked.
 */
export function validateSelector(sel: unknown, path: FieldPath, allowInvalidLabelValues = false): FieldError[] {
  const errs = validateLabelSelectorObject(obj(sel) as LabelSelectorObject | undefined, path);
  if (!allowInvalidLabelValues) return errs;
  return errs.filter((e) => !(e.type === 'Invalid' && /\.matchExpressions\[\d+\]\.values\[\d+\]$/.test(e.field)));
}

/** Match resources of a policy or binding (upstream `validateMatchResources`): selectors and match policy set, rules valid. */
export function validateMatchResources(mr: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof mr.matchPolicy !== 'string') errs.push(required(path.child('matchPolicy')));
  else if (!(MATCH_POLICIES as readonly string[]).includes(mr.matchPolicy)) errs.push(notSupported(path.child('matchPolicy'), mr.matchPolicy, sortedValues(MATCH_POLICIES)));
  for (const key of ['namespaceSelector', 'objectSelector']) {
    if (obj(mr[key]) === undefined) errs.push(required(path.child(key)));
    else errs.push(...validateSelector(mr[key], path.child(key)));
  }
  for (const key of ['resourceRules', 'excludeResourceRules']) {
    objs(mr[key]).forEach((r, i) => errs.push(...validateNamedRuleWithOperations(r, path.child(key).index(i))));
  }
  return errs;
}

/** Most match conditions of one webhook or policy. */
export const MAX_MATCH_CONDITIONS = 64;

/**
 * Match conditions (upstream `validateMatchConditions`): at most 64; each a non-blank expression
 * compiling to bool (trimmed first) and a qualified name, names unique. `stored` holds the
 * expressions the stored object already had (they compile as stored expressions).
 */
export function validateMatchConditions(
  compiler: AdmissionExpressionCompiler,
  conditions: unknown,
  scope: Omit<ExpressionScope, 'stored'>,
  stored: ReadonlySet<string>,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const items = objs(conditions);
  if (items.length > MAX_MATCH_CONDITIONS) errs.push(tooMany(path, items.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  items.forEach((c, i) => {
    const p = path.index(i);
    const expression = str(c.expression).trim();
    if (expression === '') errs.push(required(p.child('expression')));
    else {
      const outcome = compiler.compile(expression, { ...scope, stored: stored.has(expression) }, 'bool');
      if (!outcome.ok) errs.push(invalid(p.child('expression'), expression, outcome.detail));
    }
    const name = str(c.name);
    if (name === '') errs.push(required(p.child('name')));
    else for (const m of isQualifiedName(name)) errs.push(invalid(p.child('name'), name, m));
    if (name !== '') {
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}
