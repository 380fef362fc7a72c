/**
 * Policy evaluation (upstream pkg/audit/policy/checker.go): the first rule matching a request
 * decides its level, the stages left out (the rule's plus the policy's) and whether managed
 * fields are left out of recorded objects; no match is level None. Rules are compiled once
 * (sets, prefixes) so a request costs a few lookups.
 */
import { canonicalGroup } from '../apis/vendor.js';
import type { UserInfo } from '../request/user.js';
import type { Level, Policy, PolicyRule, Stage } from './types.js';

/** What a rule is matched against (upstream authorizer.Attributes). */
export interface AuditAttributes {
  /** Absent for requests whose authentication failed. */
  user?: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** The URL path (non-resource requests). */
  path: string;
  apiGroup: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

/** The outcome for one request. */
export interface RequestAuditConfig {
  level: Level;
  omitStages: ReadonlySet<Stage>;
  omitManagedFields: boolean;
}

interface CompiledGroup {
  group: string;
  resources: string[];
  names?: Set<string>;
}

interface CompiledRule {
  config: RequestAuditConfig;
  users?: Set<string>;
  groups?: Set<string>;
  verbs?: Set<string>;
  namespaces?: Set<string>;
  resources?: CompiledGroup[];
  checkResource: boolean;
  urls?: { exact: Set<string>; prefixes: string[]; any: boolean };
}

const nonEmpty = (l?: string[]) => (l && l.length > 0 ? new Set(l) : undefined);

function compile(r: PolicyRule, p: Policy): CompiledRule {
  const urls = r.nonResourceURLs ?? [];
  return {
    config: {
      level: r.level,
      omitStages: new Set([...(p.omitStages ?? []), ...(r.omitStages ?? [])]),
      omitManagedFields: r.omitManagedFields ?? p.omitManagedFields ?? false,
    },
    users: nonEmpty(r.users),
    groups: nonEmpty(r.userGroups),
    verbs: nonEmpty(r.verbs),
    namespaces: nonEmpty(r.namespaces),
    resources: r.resources && r.resources.length > 0 ? r.resources.map((g) => ({ group: canonicalGroup(g.group ?? ''), resources: g.resources ?? [], names: nonEmpty(g.resourceNames) })) : undefined,
    checkResource: (r.namespaces ?? []).length > 0 || (r.resources ?? []).length > 0,
    urls:
      urls.length > 0
        ? { exact: new Set(urls), prefixes: urls.filter((u) => u.endsWith('*')).map((u) => u.replace(/\*+$/, '')), any: urls.includes('*') }
        : undefined,
  };
}

function resourceMatches(g: CompiledGroup, a: AuditAttributes): boolean {
  if (g.resources.length === 0) return true;
  if (g.names && !g.names.has(a.name)) return false;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const res of g.resources) {
    if (res === combined || res === '*') return true;
    if (a.subresource && res.startsWith('*/') && res.slice(2) === a.subresource) return true;
    if (res.endsWith('/*') && res.slice(0, -2) === a.resource) return true;
  }
  return false;
}

function ruleMatches(r: CompiledRule, a: AuditAttributes): boolean {
  if (r.users && !(a.user && r.users.has(a.user.name))) return false;
  if (r.groups && !(a.user && a.user.groups.some((g) => r.groups!.has(g)))) return false;
  if (r.verbs && !r.verbs.has(a.verb)) return false;
  if (r.checkResource) {
    if (!a.isResourceRequest) return false;
    if (r.namespaces && !r.namespaces.has(a.namespace)) return false;
    if (r.resources) {
      const group = canonicalGroup(a.apiGroup);
      if (!r.resources.some((g) => g.group === group && resourceMatches(g, a))) return false;
    }
  }
  if (r.urls) {
    if (a.isResourceRequest) return false;
    if (!(r.urls.any || r.urls.exact.has(a.path) || r.urls.prefixes.some((p) => a.path.startsWith(p)))) return false;
  }
  return true;
}

const NONE: RequestAuditConfig = { level: 'None', omitStages: new Set(), omitManagedFields: false };

/** A compiled policy. */
export class PolicyChecker {
  private readonly rules: CompiledRule[];

  constructor(policy: Policy) {
    this.rules = policy.rules.map((r) => compile(r, policy));
  }

  /** The first matching rule's level and stages to omit; level None when no rule matches. */
  evaluate(a: AuditAttributes): RequestAuditConfig {
    for (const r of this.rules) if (ruleMatches(r, a)) return r.config;
    return NONE;
  }
}
