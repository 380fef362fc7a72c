/**
 * The SelfSubjectReview Creater (spec 001 § Client credential plugin, last paragraph; issue #10
 * item 8): answers with the attributes of the user making the request — the user after
 * impersonation — as upstream's selfsubjectreview REST does. Nothing is stored.
 */
import { newBadRequest } from '../../../apimachinery/errors.js';
import { formatTime } from '../../../apimachinery/schema/decode.js';
import { selfSubjectReview } from '../../../apis/authentication/v1/index.js';
import type { KindDefinition, Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { Creater } from '../../rest/creater.js';
import { userInfoWire } from '../user-info.js';

/**
 * The SelfSubjectReview Creater of `kind` (v1, or a pre-release version of it: issue #15 item 1;
 * the same answer in that version's apiVersion): the SelfSubjectReview of `ctx.user`,
 * `metadata.creationTimestamp` now, `status.userInfo` its username, uid, groups and extra (empty
 * ones left out); the body sent is validated by admission and otherwise ignored.
 * @throws StatusError 400 `no user present on request` when the request carries no user.
 */
export function newSelfSubjectReviewCreater(kind: KindDefinition): Creater {
  return {
    kind,
    async create(ctx: RequestContext, _target, obj, opts): Promise<Obj> {
      await opts.validate(obj);
      const user = ctx.user;
      if (!user) throw newBadRequest('no user present on request');
      return {
        apiVersion: kind.apiVersion,
        kind: kind.kind,
        metadata: { creationTimestamp: formatTime(new Date()) },
        status: { userInfo: userInfoWire(user) },
      };
    },
  };
}

/** The `authentication.<vendor>/v1` SelfSubjectReview Creater. */
export const selfSubjectReviewCreater: Creater = newSelfSubjectReviewCreater(selfSubjectReview);
