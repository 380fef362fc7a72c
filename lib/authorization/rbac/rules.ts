/**
 * RBAC policy rules and how a request matches them (spec 001 § RBAC mode: rule fields; upstream
 * `RuleAllows` and the `VerbMatches` / `APIGroupMatches` / `ResourceMatches` /
 * `ResourceNameMatches` / `NonResourceURLMatches` helpers of rbac/v1, v1.30).
 *
 * - `*` in `verbs`, `apiGroups` or `resources` matches everything; a `resources` entry `*` +
 *   `/<sub>` matches subresource `<sub>` of every resource. Upstream has no wildcard after the
 *   slash: `pods/` + `*` matches only a subresource literally named `*`.
 * - `resourceNames` empty means every name; otherwise the request's name must be listed, so a
 *   request without a name (list, watch of a collection, create, deletecollection) never matches
 *   a rule with resourceNames.
 * - `nonResourceURLs`: exact, `*`, or a prefix ending in `*`.
 * - API groups are compared through `canonicalGroup`: a rule naming a group in its upstream
 *   spelling (the upstream alias of the RBAC group) matches requests under the vendor spelling and back.
 */
import { canonicalGroup } from '../../apis/vendor.js';
import type { AuthorizationAttributes } from '../interface.js';

/** The wildcard of verbs, groups, resources and non-resource URLs. */
export const ALL = '*';

/** A PolicyRule as stored (`rbac.authorization.<vendor>/v1`); absent lists are empty. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/**
 * A rule prepared for matching: API groups canonicalized, wildcards flagged, lists kept as
 * (short) arrays — lighter than sets for the handful of entries a rule has. `source` is the
 * stored rule (returned by rule listings unchanged).
 */
export interface CompiledRule {
  source: PolicyRule;
  allVerbs: boolean;
  verbs: readonly string[];
  allGroups: boolean;
  groups: readonly string[];
  allResources: boolean;
  /** Resources, and `<resource>/<subresource>` entries. */
  resources: readonly string[];
  /** Subresources `s` of the entries written `*` + `/s` (any resource). */
  anyResourceSubresources: readonly string[];
  /** Empty: every name. */
  resourceNames: readonly string[];
  /** Whether a URL is `*`. */
  allURLs: boolean;
  /** Exact URLs. */
  urls: readonly string[];
  /** Prefixes of the URLs ending in `*`. */
  urlPrefixes: readonly string[];
}

/** What rules are matched against, computed once per decision from the attributes. */
export interface RuleRequest {
  isResourceRequest: boolean;
  verb: string;
  /** Canonical group. */
  group: string;
  /** `<resource>` or `<resource>/<subresource>`. */
  combined: string;
  subresource: string;
  name: string;
  path: string;
}

const NONE: readonly string[] = Object.freeze([]);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const compact = (v: readonly string[]): readonly string[] => (v.length === 0 ? NONE : v);

/** The rule of a stored object's `rules[i]` (anything not a string list counts as empty). */
export function policyRuleOf(raw: unknown): PolicyRule {
  const r = (raw ?? {}) as Record<string, unknown>;
  return {
    verbs: list(r.verbs),
    apiGroups: list(r.apiGroups),
    resources: list(r.resources),
    resourceNames: list(r.resourceNames),
    nonResourceURLs: list(r.nonResourceURLs),
  };
}

/** Prepares `rule` for {@link ruleAllows}. */
export function compileRule(rule: PolicyRule): CompiledRule {
  const resources = rule.resources ?? [];
  const urls = rule.nonResourceURLs ?? [];
  const groups = rule.apiGroups ?? [];
  return {
    source: rule,
    allVerbs: rule.verbs.includes(ALL),
    verbs: compact(rule.verbs),
    allGroups: groups.includes(ALL),
    groups: compact(groups.map(canonicalGroup)),
    allResources: resources.includes(ALL),
    resources: compact(resources),
    anyResourceSubresources: compact(resources.filter((r) => r.startsWith(`${ALL}/`)).map((r) => r.slice(2))),
    resourceNames: compact(rule.resourceNames ?? []),
    allURLs: urls.includes(ALL),
    urls: compact(urls),
    urlPrefixes: compact(urls.filter((u) => u.endsWith(ALL)).map((u) => u.replace(/\*+$/, ''))),
  };
}

/** The request of `a` as rules see it. */
export function ruleRequestOf(a: AuthorizationAttributes): RuleRequest {
  return {
    isResourceRequest: a.isResourceRequest,
    verb: a.verb,
    group: canonicalGroup(a.apiGroup),
    combined: a.subresource ? `${a.resource}/${a.subresource}` : a.resource,
    subresource: a.subresource,
    name: a.name,
    path: a.path,
  };
}

/** Whether `rule` grants the request `a` (upstream `RuleAllows`). */
export function ruleAllows(a: AuthorizationAttributes, rule: CompiledRule): boolean {
  return requestAllowedBy(ruleRequestOf(a), rule);
}

/** {@link ruleAllows} for a request prepared once ({@link ruleRequestOf}) and matched against many rules. */
export function requestAllowedBy(r: RuleRequest, rule: CompiledRule): boolean {
  if (!rule.allVerbs && !rule.verbs.includes(r.verb)) return false;
  if (!r.isResourceRequest) {
    if (rule.allURLs || rule.urls.includes(r.path)) return true;
    return rule.urlPrefixes.some((p) => r.path.startsWith(p));
  }
  if (!rule.allGroups && !rule.groups.includes(r.group)) return false;
  if (!rule.allResources && !rule.resources.includes(r.combined) && !(r.subresource !== '' && rule.anyResourceSubresources.includes(r.subresource))) return false;
  return rule.resourceNames.length === 0 || rule.resourceNames.includes(r.name);
}
