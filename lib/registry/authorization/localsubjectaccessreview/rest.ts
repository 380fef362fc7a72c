/**
 * The LocalSubjectAccessReview Creater (`authorization.<vendor>/v1`
 * namespaces/<ns>/localsubjectaccessreviews; spec 001 § Access-review resources): a
 * SubjectAccessReview whose question must lie in the namespace it is created in, so that
 * namespace administrators may be allowed to ask it. Nothing is stored.
 */
import { newBadRequest } from '../../../apimachinery/errors.js';
import { localSubjectAccessReview, validateLocalSubjectAccessReview } from '../../../apis/authorization/v1/index.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { CreateTarget, Creater } from '../../rest/creater.js';
import type { Authorizer } from '../../../request/authorization.js';
import { decide, reviewAttributes, specUser, throwIfInvalid } from '../review.js';

/**
 * The LocalSubjectAccessReview Creater over `reviewer`: the request's review (its metadata
 * namespace the request's) with `status` replaced by the decision for the spec's user.
 * @throws StatusError 422 as SubjectAccessReview's, plus `spec.resourceAttributes.namespace:
 *   Invalid value: "<ns>": must match metadata.namespace` and `spec.nonResourceAttributes: …:
 *   disallowed on this kind of request`; 400 `namespace is required on this type: ` without a
 *   namespace; whatever validating admission throws.
 */
export function newLocalSubjectAccessReviewCreater(reviewer: Authorizer): Creater {
  return {
    kind: localSubjectAccessReview,
    async create(_ctx: RequestContext, target: CreateTarget, obj: Obj, opts): Promise<Obj> {
      throwIfInvalid(validateLocalSubjectAccessReview(obj));
      const namespace = target.namespace;
      if (!namespace) throw newBadRequest(`namespace is required on this type: ${namespace}`);
      if ((obj.metadata as Obj | undefined)?.namespace !== namespace) throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
      await opts.validate(obj);
      const spec = obj.spec as Obj;
      return { ...obj, status: await decide(reviewer, reviewAttributes(specUser(spec), spec)) };
    },
  };
}
