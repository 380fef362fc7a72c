/**
 * The ABAC mode (spec 001 § ABAC mode): a request is allowed when any policy line matches it —
 * its subject (user and group), its verb (readonly lines allow only `get`, `list` and `watch`),
 * and either its resource (namespace, resource, API group; `*` matches all) or its non-resource
 * path (`*`, exact, or a trailing `*` prefix). No match: no opinion ("No policy matched."). The
 * policies are read once at start; the server must restart to read changes.
 */
import type { UserInfo } from '../../request/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, NonResourceRule, ResourceRule, RuleResolver, RulesResult } from '../interface.js';
import { type PolicySpec, loadPolicyFile } from './policy.js';

/** The reason given when no line matches (upstream's wording). */
export const NO_POLICY_MATCHED = 'No policy matched.';

/** Authorizes against a list of policies. */
export class ABACAuthorizer implements Authorizer, RuleResolver {
  constructor(readonly policies: readonly PolicySpec[]) {}

  /**
   * Reads `--authorization-policy-file`.
   * @throws Error when the file cannot be read; PolicyLoadError naming the first bad line.
   */
  static async fromFile(path: string): Promise<ABACAuthorizer> {
    return new ABACAuthorizer(await loadPolicyFile(path));
  }

  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    for (const p of this.policies) if (matches(p, a)) return { decision: 'Allow', reason: '' };
    return { decision: 'NoOpinion', reason: NO_POLICY_MATCHED };
  }

  /** The rules of the lines whose subject is `user` and whose namespace is `*` or `namespace` (upstream's RulesFor). */
  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const resourceRules: ResourceRule[] = [];
    const nonResourceRules: NonResourceRule[] = [];
    for (const p of this.policies) {
      if (!subjectMatches(p, user) || (p.namespace !== '*' && p.namespace !== namespace)) continue;
      const verbs = p.readonly ? ['get', 'list', 'watch'] : ['*'];
      if (p.resource) resourceRules.push({ verbs, apiGroups: [p.apiGroup], resources: [p.resource], resourceNames: [] });
      if (p.nonResourcePath) nonResourceRules.push({ verbs, nonResourceURLs: [p.nonResourcePath] });
    }
    return { resourceRules, nonResourceRules, incomplete: false };
  }
}

/** Whether policy `p` allows request `a`. */
export function matches(p: PolicySpec, a: AuthorizationAttributes): boolean {
  if (!subjectMatches(p, a.user)) return false;
  if (p.readonly && !isReadOnly(a.verb)) return false;
  return a.isResourceRequest ? resourceMatches(p, a) : nonResourceMatches(p, a.path);
}

/** A user and/or group must be set and each set one must match; `*` matches anyone. */
function subjectMatches(p: PolicySpec, user: UserInfo): boolean {
  let matched = false;
  if (p.user) {
    if (p.user !== '*' && p.user !== user.name) return false;
    matched = true;
  }
  if (p.group) {
    if (p.group !== '*' && !user.groups.includes(p.group)) return false;
    matched = true;
  }
  return matched;
}

function isReadOnly(verb: string): boolean {
  return verb === 'get' || verb === 'list' || verb === 'watch';
}

function resourceMatches(p: PolicySpec, a: AuthorizationAttributes): boolean {
  return (p.namespace === '*' || p.namespace === a.namespace) && (p.resource === '*' || p.resource === a.resource) && (p.apiGroup === '*' || p.apiGroup === a.apiGroup);
}

function nonResourceMatches(p: PolicySpec, path: string): boolean {
  if (p.nonResourcePath === '*' || p.nonResourcePath === path) return true;
  return p.nonResourcePath.endsWith('*') && path.startsWith(p.nonResourcePath.replace(/\*+$/, ''));
}
