/**
 * The SelfSubjectAccessReview Creater (`authorization.<vendor>/v1` selfsubjectaccessreviews;
 * spec 001 § Access-review resources): may the requesting user — the impersonated one when
 * impersonating — perform the spec's action? What `kubectl auth can-i` asks. Nothing is stored.
 */
import { newBadRequest } from '../../../apimachinery/errors.js';
import { selfSubjectAccessReview, validateSelfSubjectAccessReview } from '../../../apis/authorization/v1/index.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { CreateTarget, Creater } from '../../rest/creater.js';
import type { Authorizer } from '../../../request/authorization.js';
import { decide, reviewAttributes, throwIfInvalid } from '../review.js';

/**
 * The SelfSubjectAccessReview Creater over `reviewer`: the request's review with `status`
 * replaced by the decision for `ctx.user`.
 * @throws StatusError 422 when the spec has neither or both attribute sets or the metadata is
 *   not empty; 400 `no user present on request`; whatever validating admission throws.
 */
export function newSelfSubjectAccessReviewCreater(reviewer: Authorizer): Creater {
  return {
    kind: selfSubjectAccessReview,
    async create(ctx: RequestContext, _target: CreateTarget, obj: Obj, opts): Promise<Obj> {
      throwIfInvalid(validateSelfSubjectAccessReview(obj));
      const user = ctx.user;
      if (!user) throw newBadRequest('no user present on request');
      await opts.validate(obj);
      return { ...obj, status: await decide(reviewer, reviewAttributes(user, obj.spec as Obj)) };
    },
  };
}
