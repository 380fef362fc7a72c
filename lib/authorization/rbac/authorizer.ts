/**
 * The RBAC authorization mode (spec 001 § RBAC mode): allows a request when some rule of a role
 * bound to the user, one of its groups or its service account matches it — ClusterRoleBindings
 * everywhere, RoleBindings in their namespace — read from the in-memory {@link RbacPolicyCache}.
 * Never denies: no matching rule is NoOpinion, so later modes may still allow.
 *
 * Reasons as upstream's RBAC authorizer gives them: on allow `RBAC: allowed by ClusterRoleBinding
 * "b" of ClusterRole "r" to User "u"` (RoleBindings as `"b/ns"`, service accounts as
 * `ServiceAccount "name/ns"`); on no opinion '' — or `RBAC: <errors>` when some of the user's
 * bindings name a role that does not exist, which the 403 message then carries.
 */
import type { UserInfo } from '../../request/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, ResourceRule, NonResourceRule, RuleResolver, RulesResult } from '../interface.js';
import { aggregateMessage } from './covers.js';
import { type BindingEntry, type RbacPolicyCache, type Subject } from './policy-cache.js';
import { GrantIndexCache } from './grant-index.js';
import { ruleRequestOf } from './rules.js';

/** Upstream `describeSubject`: `User "u"`, `Group "g"`, `ServiceAccount "name/namespace"`. */
function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${JSON.stringify(s.name)}`;
}

/** Upstream's binding describers: which binding, of which role, to which subject. */
export function describeGrant(binding: BindingEntry, subject: Subject): string {
  const name = binding.kind === 'RoleBinding' ? `${binding.name}/${binding.namespace}` : binding.name;
  return `${binding.kind} ${JSON.stringify(name)} of ${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)} to ${describeSubject(subject, binding.namespace)}`;
}

/** The RBAC authorizer and rule resolver (SelfSubjectRulesReview) over one policy cache. */
export class RBACAuthorizer implements Authorizer, RuleResolver {
  private readonly grants: GrantIndexCache;

  constructor(private readonly cache: RbacPolicyCache) {
    this.grants = new GrantIndexCache(cache);
  }

  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    const { grant, errors } = this.grants.decide(a.user, a.namespace, ruleRequestOf(a));
    if (grant) return { decision: 'Allow', reason: `RBAC: allowed by ${describeGrant(grant.binding, grant.subject)}` };
    return { decision: 'NoOpinion', reason: errors.length > 0 ? `RBAC: ${aggregateMessage(errors)}` : '' };
  }

  /** Subjects × namespaces whose grant indexes are kept, and their size (for the benchmark). */
  grantIndexStats(): { entries: number; rules: number } {
    return this.grants.stats();
  }

  /**
   * The rules `user` holds in `namespace`, split into resource and non-resource rules as
   * upstream's `RulesFor` does (a rule with both lists appears in both); unresolvable bindings
   * give their errors as `evaluationError` (the answer stays `incomplete: false`, as upstream's).
   */
  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const { rules, errors } = this.cache.rulesFor(user, namespace);
    const resourceRules: ResourceRule[] = [];
    const nonResourceRules: NonResourceRule[] = [];
    for (const r of rules) {
      if ((r.resources ?? []).length > 0) {
        resourceRules.push({ verbs: [...r.verbs], apiGroups: [...(r.apiGroups ?? [])], resources: [...(r.resources ?? [])], resourceNames: [...(r.resourceNames ?? [])] });
      }
      if ((r.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...(r.nonResourceURLs ?? [])] });
    }
    // Upstream's RBAC RulesFor never calls its answer incomplete: a role it cannot resolve shows
    // only as the evaluation error.
    const out: RulesResult = { resourceRules, nonResourceRules, incomplete: false };
    if (errors.length > 0) out.evaluationError = aggregateMessage(errors);
    return out;
  }
}
