/**
 * The SubjectAccessReview Creater (`authorization.<vendor>/v1` subjectaccessreviews; spec 001
 * § Access-review resources): may the user the spec names perform its action? Answered by the
 * server's own authorizer chain, as upstream's subjectaccessreview REST does. Nothing is stored.
 */
import { subjectAccessReview, validateSubjectAccessReview } from '../../../apis/authorization/v1/index.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { CreateTarget, Creater } from '../../rest/creater.js';
import type { Authorizer } from '../../../request/authorization.js';
import { decide, reviewAttributes, specUser, throwIfInvalid } from '../review.js';

/**
 * The SubjectAccessReview Creater over `reviewer`: the request's review with `status` replaced by
 * the decision for `spec.user`/`groups`/`uid`/`extra` (taken as given: no group is added).
 * @throws StatusError 422 `.authorization.<vendor> "" is invalid: …` when the spec has neither or
 *   both attribute sets, or neither user nor group, or the metadata is not empty; whatever
 *   validating admission throws.
 */
export function newSubjectAccessReviewCreater(reviewer: Authorizer): Creater {
  return {
    kind: subjectAccessReview,
    async create(_ctx: RequestContext, _target: CreateTarget, obj: Obj, opts): Promise<Obj> {
      throwIfInvalid(validateSubjectAccessReview(obj));
      await opts.validate(obj);
      const spec = obj.spec as Obj;
      return { ...obj, status: await decide(reviewer, reviewAttributes(specUser(spec), spec)) };
    },
  };
}
