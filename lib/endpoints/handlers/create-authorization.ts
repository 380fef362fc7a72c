/**
 * A write that creates the object it addresses without being a create — an apply (PATCH
 * `application/apply-patch+yaml`) of a missing object, a PUT where the kind creates on update —
 * needs `create` permission besides the `patch` or `update` the authorization filter checked
 * (spec 000 § Update rules 3; upstream's handlers wrap their create validation with the same
 * check, once per request).
 */
import { newForbidden, newInternalError } from '../../apimachinery/errors.js';
import { canonicalGroup } from '../../apis/vendor.js';
import type { AuthorizationResult } from '../../request/authorization.js';
import { ANONYMOUS_USER } from '../../request/user.js';
import type { HandlerScope } from './scope.js';

/**
 * Returns the check to run when the write turns out to create: it asks the server's authorizer
 * chain for `create` on the request's resource, subresource, namespace and name (the group in its
 * canonical spelling), once per request however often the store retries.
 * @throws StatusError 403 `<resource>[.<group>] "<name>" is forbidden: <reason of the chain>`
 *   (the group as the client spelled it; the reason may be empty, as upstream) unless allowed;
 *   500 InternalError when the chain failed to evaluate a request it did not allow, or when the
 *   scope has no authorizer (`no authorizer provided, unable to authorize a create on update`).
 */
export function createAuthorization(s: HandlerScope): () => Promise<void> {
  let decided: Promise<AuthorizationResult> | undefined;
  return async () => {
    const authorizer = s.authorizer;
    if (!authorizer) throw newInternalError('no authorizer provided, unable to authorize a create on update');
    const info = s.req.requestInfo;
    decided ??= authorizer.authorize({
      user: s.req.user ?? { name: ANONYMOUS_USER, groups: [] },
      verb: 'create',
      isResourceRequest: true,
      path: info.path,
      apiGroup: canonicalGroup(info.apiGroup),
      apiVersion: info.apiVersion,
      namespace: info.namespace,
      resource: info.resource,
      subresource: info.subresource,
      name: s.name,
    });
    const res = await decided;
    if (res.decision === 'Allow') return;
    if (res.evaluationError !== undefined) throw newInternalError(res.evaluationError);
    throw newForbidden({ group: info.apiGroup, resource: info.resource }, s.name, res.reason);
  };
}
