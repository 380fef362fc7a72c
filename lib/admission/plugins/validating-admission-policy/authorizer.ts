/**
 * The `authorizer` of policy expressions over the server's authorizer chain (upstream v1.30
 * admission authorizer library; spec 000 § Expression language (CEL) in fields): checks made by
 * an expression are asked of the chain with the requesting user, `apiVersion` `*`, and the
 * group in the vendor spelling; the decisions of one request are cached by lib/cel's binding.
 */
import { canonicalGroup } from '../../../apis/vendor.js';
import { bindAuthorizer, withRequestResource, type AuthorizerBinding, type CelAuthorizer } from '../../../cel/index.js';
import type { AuthorizerValue } from '../../../cel/library/authorizer.js';
import type { AdmissionAttributes } from '../../interface.js';
import type { Authorizer } from '../../../request/authorization.js';
import type { UserInfo } from '../../../request/user.js';

/** Adapts the server's authorizer chain to the expression library's authorizer. */
export function celAuthorizer(authz: Authorizer): CelAuthorizer {
  return {
    async authorize(a) {
      const user: UserInfo = {
        name: a.user?.username ?? '',
        uid: a.user?.uid,
        groups: [...(a.user?.groups ?? [])],
        extra: a.user?.extra ? Object.fromEntries(Object.entries(a.user.extra).map(([k, v]) => [k, [...v]])) : undefined,
      };
      const r = await authz.authorize({
        user,
        verb: a.verb,
        isResourceRequest: a.resourceRequest,
        path: a.path,
        apiGroup: canonicalGroup(a.group),
        apiVersion: '*',
        namespace: a.namespace,
        resource: a.resource,
        subresource: a.subresource,
        name: a.name,
      });
      return { decision: r.decision, reason: r.reason };
    },
  };
}

/** The authorizer of one request's expressions, for `user` (decisions cached for the request). */
export function requestAuthorizer(authz: CelAuthorizer, user: UserInfo): AuthorizerBinding {
  return bindAuthorizer(authz, { username: user.name, uid: user.uid, groups: user.groups, extra: user.extra });
}

/**
 * The `authorizer` value of an admission request's expressions: `binding`'s, with
 * `authorizer.requestResource` checking the resource `attrs` addresses (its group, resource,
 * subresource, namespace and name, as upstream's admission activation).
 */
export function admissionAuthorizerValue(binding: AuthorizerBinding, attrs: AdmissionAttributes): AuthorizerValue {
  return withRequestResource(binding.value, { group: attrs.group, resource: attrs.resource, subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name });
}
