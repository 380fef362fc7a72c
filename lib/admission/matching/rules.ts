/**
 * Which admission requests a rule list selects — the matching shared by admission webhooks
 * (`webhooks[].rules`) and ValidatingAdmissionPolicy (`matchConstraints.resourceRules` and
 * `excludeResourceRules`, binding `matchResources`), as upstream v1.30's rule matcher and
 * `matchPolicy` (spec 001 § Admission control; admissionregistration.<vendor>/v1).
 *
 * A rule selects on operation (`*` for all), API group and version (`*` for all; groups compared
 * in the vendor spelling, so an upstream spelling in a rule matches too), resource with
 * subresource (`pods`: the main resource only, `pods/status`, `pods/*`: the resource and every
 * subresource, `*`: every main resource, `*\/scale`, `*\/*`: everything), scope (`*`, `Cluster`:
 * cluster-scoped resources and Namespaces, `Namespaced`: namespaced resources) and, for policies,
 * resource names (on CREATE the name may still be empty and then never matches a name list).
 */
import { canonicalGroup } from '../../apis/vendor.js';
import type { AdmissionAttributes } from '../interface.js';
import type { ServedResource } from '../plugin-deps.js';

/** A rule of a webhook or policy (RuleWithOperations / NamedRuleWithOperations). */
export interface AdmissionRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
  /** Policies only: the names selected (empty or absent: every name). */
  resourceNames?: string[];
}

/** The group, version and resource a request is matched (and, for webhooks, sent) as. */
export interface MatchedResource {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  kind: string;
  /** Whether this is the version the client addressed (else the object must be converted to it). */
  exact: boolean;
  /** The served version, when it is not the storage version (its conversion). */
  served?: ServedResource;
}

const NAMESPACES = 'namespaces';

function has(list: readonly string[] | undefined, value: string): boolean {
  if (!list) return false;
  for (const v of list) if (v === '*' || v === value) return true;
  return false;
}

function groupMatches(list: readonly string[] | undefined, group: string): boolean {
  if (!list) return false;
  for (const g of list) if (g === '*' || canonicalGroup(g) === group) return true;
  return false;
}

function resourceMatches(list: readonly string[] | undefined, resource: string, subresource: string): boolean {
  if (!list) return false;
  const full = subresource === '' ? resource : `${resource}/${subresource}`;
  for (const r of list) {
    if (r === '*/*' || r === full) return true;
    const slash = r.indexOf('/');
    if (slash < 0) {
      if (r === '*' && subresource === '') return true;
      continue;
    }
    const res = r.slice(0, slash);
    const sub = r.slice(slash + 1);
    if ((res === '*' || res === resource) && (sub === '*' || sub === subresource)) return true;
  }
  return false;
}

function scopeMatches(scope: string | undefined, a: Pick<AdmissionAttributes, 'resource' | 'namespaced' | 'group'>): boolean {
  if (scope === undefined || scope === '*') return true;
  const isNamespaceObject = a.group === '' && a.resource === NAMESPACES;
  if (scope === 'Namespaced') return a.namespaced && !isNamespaceObject;
  if (scope === 'Cluster') return !a.namespaced || isNamespaceObject;
  return false;
}

/**
 * Whether `rule` selects the request `a` addressed as `target` (group/version/resource): the
 * operation, the group, version and resource with subresource, the scope and (policies) the name.
 */
export function ruleMatches(rule: AdmissionRule, a: AdmissionAttributes, target: Pick<MatchedResource, 'group' | 'version' | 'resource' | 'subresource'>): boolean {
  if (!has(rule.operations, a.operation)) return false;
  if (!groupMatches(rule.apiGroups, target.group)) return false;
  if (!has(rule.apiVersions, target.version)) return false;
  if (!resourceMatches(rule.resources, target.resource, target.subresource)) return false;
  if (!scopeMatches(rule.scope, a)) return false;
  if (rule.resourceNames && rule.resourceNames.length > 0 && !rule.resourceNames.includes(a.name)) return false;
  return true;
}

/** The versions a request can be matched as, the addressed one first (see {@link matchRules}). */
export interface EquivalentResources {
  /** The served versions of the resource `group`/`resource` whose objects are those of `a` (the request's own version included). */
  equivalents(a: AdmissionAttributes): readonly ServedResource[];
}

/**
 * The resource the request is matched as by `rules`, or null when no rule selects it: the
 * version the client addressed when a rule selects it; with `matchPolicy` `Equivalent` (the
 * default), otherwise the first other served version of the same objects a rule selects
 * (upstream's equivalent-resource matching; the object is then converted to that version).
 */
export function matchRules(rules: readonly AdmissionRule[], a: AdmissionAttributes, matchPolicy: string | undefined, served: EquivalentResources): MatchedResource | null {
  // Objects written out field by field: a spread costs microseconds on this hot path.
  const addressed = { group: a.requestGroup, version: a.requestVersion, resource: a.resource, subresource: a.subresource };
  for (const rule of rules) {
    if (!ruleMatches(rule, a, addressed)) continue;
    // The objects are in the storage version: a client addressing another one gets them converted.
    const other = a.requestVersion !== a.version || a.requestGroup !== a.group;
    const own = other ? served.equivalents(a).find((c) => c.group === a.requestGroup && c.version === a.requestVersion) : undefined;
    return { group: a.requestGroup, version: a.requestVersion, resource: a.resource, subresource: a.subresource, kind: a.requestKind, exact: true, served: convertible(own, a) };
  }
  if (matchPolicy === 'Exact') return null;
  for (const candidate of served.equivalents(a)) {
    if (candidate.group === a.requestGroup && candidate.version === a.requestVersion) continue;
    const target = { group: candidate.group, version: candidate.version, resource: candidate.resource, subresource: a.subresource };
    for (const rule of rules) {
      if (!ruleMatches(rule, a, target)) continue;
      return {
        group: candidate.group,
        version: candidate.version,
        resource: candidate.resource,
        subresource: a.subresource,
        kind: a.subresource === '' ? candidate.kind : a.requestKind,
        exact: false,
        served: convertible(candidate, a),
      };
    }
  }
  return null;
}

/**
 * `candidate` when the request's objects must be converted to reach it: it is not the storage
 * version and the objects are of the resource's own kind (a subresource with a kind of its own,
 * such as Scale, is sent as it is).
 */
function convertible(candidate: ServedResource | undefined, a: AdmissionAttributes): ServedResource | undefined {
  const conversion = candidate?.conversion;
  if (!conversion || conversion.storageKind.kind !== a.kind) return undefined;
  return candidate;
}

/**
 * Whether any of `rules` selects the request in its addressed version or (Equivalent) another
 * served version — the test of `excludeResourceRules`.
 */
export function anyRuleMatches(rules: readonly AdmissionRule[] | undefined, a: AdmissionAttributes, matchPolicy: string | undefined, served: EquivalentResources): boolean {
  return rules !== undefined && rules.length > 0 && matchRules(rules, a, matchPolicy, served) !== null;
}
