/**
 * The TokenReview Creater (`authentication.<vendor>/v1` tokenreviews; spec 001 § Webhook token
 * authentication for the shape, issue #10 item 8): authenticates `spec.token` exactly as a
 * request carrying nothing but `Authorization: Bearer <token>` would be — the same union, the
 * same token cache — for `spec.audiences` (empty: the API audiences), and answers with the
 * outcome in `status`, as upstream's tokenreview REST does. Nothing is stored.
 */
import { newBadRequest, newInternalError } from '../../../apimachinery/errors.js';
import { tokenReview } from '../../../apis/authentication/v1/index.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { TokenReviewOutcome } from '../../../request/user.js';
import { userInfoWire } from '../user-info.js';
import type { CreateTarget, Creater } from '../../rest/creater.js';

/** Authenticates a bare bearer token through the server's authenticator union (implemented by authentication/union.ts UnionAuthenticator). */
export interface TokenReviewer {
  /** Never rejects for a bad token: a rejection is the outcome's `error`; neither field set when nothing claimed the token. */
  reviewToken(token: string, audiences: readonly string[]): Promise<TokenReviewOutcome>;
}

/**
 * The TokenReview Creater over `reviewer`, for a server whose API audiences are `apiAudiences`
 * (`--api-audiences`). The answer is the request's TokenReview with `status` filled as
 * upstream: `authenticated` (true when the token authenticates), `user` and `audiences` when it
 * does, `error` with the rejection's text (`invalid bearer token` for a token nobody knows).
 * @throws StatusError 400 `token is required for TokenReview in authentication` for an empty
 *   `spec.token`; 400 for a namespaced request; 500 `error validating audiences` when the
 *   authentication is valid for none of the audiences asked (upstream's guard).
 */
export function newTokenReviewCreater(reviewer: TokenReviewer, apiAudiences: readonly string[]): Creater {
  return {
    kind: tokenReview,
    async create(_ctx: RequestContext, target: CreateTarget, obj: Obj, opts): Promise<Obj> {
      if (target.namespace) throw newBadRequest(`namespace is not allowed on this type: ${target.namespace}`);
      const spec = (obj.spec ?? {}) as Obj;
      const token = typeof spec.token === 'string' ? spec.token : '';
      if (!token) throw newBadRequest('token is required for TokenReview in authentication');
      await opts.validate(obj);
      const asked = Array.isArray(spec.audiences) ? (spec.audiences as string[]) : [];
      const audiences = asked.length > 0 ? asked : apiAudiences;
      const outcome = await reviewer.reviewToken(token, audiences);
      const status: Obj = { ...((obj.status as Obj | undefined) ?? {}) };
      if (outcome.result) status.authenticated = true;
      else delete status.authenticated;
      if (outcome.error) status.error = outcome.error;
      const result = outcome.result;
      if (result) {
        if (audiences.length > 0 && !(result.audiences ?? []).some((a) => audiences.includes(a))) throw newInternalError('error validating audiences');
        status.user = userInfoWire(result.user);
        if (result.audiences) status.audiences = [...result.audiences];
        else delete status.audiences;
      }
      return { ...obj, status };
    },
  };
}
