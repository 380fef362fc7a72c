/**
 * Escalation prevention for writes of RBAC objects (spec 001 § RBAC mode: "creating or updating
 * a role requires holding all its permissions at the same scope, or the verb `escalate` …;
 * creating or updating a binding requires holding all permissions of the referenced role, or the
 * verb `bind` on it"), as upstream's policy-based RBAC storage does it (v1.30):
 *
 * - members of `system:masters` are never checked (upstream `EscalationAllowed`);
 * - Role / ClusterRole: allowed with `escalate` on the request's `roles` / `clusterroles` (asked
 *   through the whole authorizer chain, name and namespace of the request); otherwise the rules
 *   the requesting user holds through RBAC in the request's namespace must cover every rule of
 *   the object ({@link covers}); a ClusterRole with an `aggregationRule` (new or old) needs full
 *   authority (`*` on everything and every URL): `must have cluster-admin privileges to use the
 *   aggregationRule`;
 * - RoleBinding / ClusterRoleBinding: allowed with `bind` on the referenced role (its group,
 *   `roles` or `clusterroles`, its name, in the binding's namespace or '' for cluster bindings);
 *   otherwise the referenced role must exist (404 as upstream's lister says it) and be covered;
 * - an update that changes only owner references, finalizers or managed fields is not checked
 *   (upstream `IsOnlyMutatingGCFields`), so the garbage collector can clean up.
 *
 * Denials are 403 `<resource>.<group> "<name>" is forbidden: user "u" (groups=[…]) is attempting
 * to grant RBAC permissions not currently held:\n{APIGroups:[…], Resources:[…], Verbs:[…]}`.
 */
import { deepCopy, deepEqual } from '../../apimachinery/deep-equal.js';
import { newForbidden } from '../../apimachinery/errors.js';
import { canonicalGroup } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import { MASTERS_GROUP, type UserInfo } from '../../request/user.js';
import type { AuthorizationAttributes, Authorizer } from '../interface.js';
import { covers, escalationMessage } from './covers.js';
import { RBAC_GROUP, type RbacPolicyCache, type RoleRef } from './policy-cache.js';
import { ALL, type PolicyRule, policyRuleOf } from './rules.js';

/** The RBAC resources whose writes are checked. */
export type RbacResource = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';

/** A check of one write: `old` is null on create. Throws a StatusError (403, 404) to refuse it. */
export type EscalationCheck = (ctx: RequestContext, obj: Record<string, unknown>, old: Record<string, unknown> | null) => Promise<void>;

/** Upstream's `fullAuthority`: everything, the precondition of aggregation rules. */
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: [ALL], apiGroups: [ALL], resources: [ALL] },
  { verbs: [ALL], nonResourceURLs: [ALL] },
];

const ROLE_RESOURCES = new Set(['roles', 'clusterroles']);

type Obj = Record<string, unknown>;

const nameOf = (obj: Obj) => String(((obj.metadata ?? {}) as Obj).name ?? '');
const rulesOf = (obj: Obj): PolicyRule[] => (Array.isArray(obj.rules) ? obj.rules.map(policyRuleOf) : []);
const hasAggregationRule = (obj: Obj | null) => !!obj && obj.aggregationRule !== undefined && obj.aggregationRule !== null;

/** The group and resource of a refusal, in the group spelling the client used. */
function groupResource(ctx: RequestContext, resource: RbacResource): { group: string; resource: string } {
  const group = ctx.requestInfo.apiGroup;
  return { group: canonicalGroup(group) === RBAC_GROUP ? group : RBAC_GROUP, resource };
}

/** Whether `obj` differs from `old` only in owner references, finalizers, managed fields or selfLink. */
export function onlyGCFieldsChanged(obj: Obj, old: Obj | null): boolean {
  if (!old) return false;
  const copy = deepCopy(obj);
  const meta = (copy.metadata ??= {}) as Obj;
  const oldMeta = (old.metadata ?? {}) as Obj;
  for (const f of ['ownerReferences', 'finalizers', 'managedFields', 'selfLink']) {
    if (oldMeta[f] === undefined) delete meta[f];
    else meta[f] = oldMeta[f];
  }
  return deepEqual(copy, old);
}

/** Escalation prevention over the RBAC rule resolver and the server's authorizer chain. */
export class EscalationGuard {
  /**
   * @param cache the RBAC objects (the requesting user's own rules come from RBAC only)
   * @param authorizer the whole chain, asked about `escalate` and `bind`
   */
  constructor(
    private readonly cache: RbacPolicyCache,
    private readonly authorizer: Authorizer,
  ) {}

  /** The check of writes to `resource`. */
  checkFor(resource: RbacResource): EscalationCheck {
    return ROLE_RESOURCES.has(resource) ? (ctx, obj, old) => this.checkRole(ctx, resource, obj, old) : (ctx, obj, old) => this.checkBinding(ctx, resource, obj, old);
  }

  private async allowed(user: UserInfo, attrs: Omit<AuthorizationAttributes, 'user' | 'isResourceRequest' | 'path' | 'subresource' | 'apiVersion'>): Promise<boolean> {
    const res = await this.authorizer.authorize({ user, isResourceRequest: true, path: '', subresource: '', apiVersion: '*', ...attrs });
    return res.decision === 'Allow';
  }

  /** Upstream `ConfirmNoEscalation`: the user's RBAC rules in `namespace` must cover `rules`. */
  private confirmNoEscalation(user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
    const owner = this.cache.rulesFor(user, namespace);
    const { covered, missing } = covers(owner.rules, rules);
    return covered ? undefined : escalationMessage(user, missing, owner.errors);
  }

  private async checkRole(ctx: RequestContext, resource: RbacResource, obj: Obj, old: Obj | null): Promise<void> {
    const user = ctx.user;
    if (!user || user.groups.includes(MASTERS_GROUP)) return;
    if (old && onlyGCFieldsChanged(obj, old)) return;
    const info = ctx.requestInfo;
    if (info.isResourceRequest && ROLE_RESOURCES.has(info.resource) && canonicalGroup(info.apiGroup) === RBAC_GROUP) {
      if (await this.allowed(user, { verb: 'escalate', apiGroup: RBAC_GROUP, resource: info.resource, name: info.name, namespace: info.namespace })) return;
    }
    const gr = groupResource(ctx, resource);
    const missing = this.confirmNoEscalation(user, info.namespace, rulesOf(obj));
    if (missing) throw newForbidden(gr, nameOf(obj), missing);
    if (resource === 'clusterroles' && (hasAggregationRule(obj) || hasAggregationRule(old))) {
      if (this.confirmNoEscalation(user, info.namespace, FULL_AUTHORITY)) throw newForbidden(gr, nameOf(obj), 'must have cluster-admin privileges to use the aggregationRule');
    }
  }

  private async checkBinding(ctx: RequestContext, resource: RbacResource, obj: Obj, old: Obj | null): Promise<void> {
    const user = ctx.user;
    if (!user || user.groups.includes(MASTERS_GROUP)) return;
    if (old && onlyGCFieldsChanged(obj, old)) return;
    const namespace = ctx.requestInfo.namespace;
    const raw = (obj.roleRef ?? {}) as Obj;
    const ref: RoleRef = { kind: String(raw.kind ?? ''), name: String(raw.name ?? ''), apiGroup: String(raw.apiGroup ?? '') };
    const roleResource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : undefined;
    if (roleResource && (await this.allowed(user, { verb: 'bind', apiGroup: canonicalGroup(ref.apiGroup ?? ''), resource: roleResource, name: ref.name, namespace }))) return;
    const rules = this.cache.roleReferenceRules(ref, namespace);
    const missing = this.confirmNoEscalation(user, namespace, rules);
    if (missing) throw newForbidden(groupResource(ctx, resource), nameOf(obj), missing);
  }
}
