/** The kinds of `authentication.<vendor>/v1` (spec 001 § Authentication; issue #10). */
import type { KindDefinition } from '../../define.js';
import { selfSubjectReview, tokenRequest, tokenReview } from './kinds.js';

export { MAX_TOKEN_EXPIRATION_SECONDS, MIN_TOKEN_EXPIRATION_SECONDS, selfSubjectReview, tokenRequest, tokenReview, validateTokenRequest } from './kinds.js';
export {
  AUTHENTICATION_GROUP,
  boundObjectReference,
  selfSubjectReviewStatus,
  tokenRequestSpec,
  tokenRequestStatus,
  tokenReviewSpec,
  tokenReviewStatus,
  userInfo,
} from './types.js';

/** Every kind of the group version, for the catalogue. */
export const authenticationV1Kinds: readonly KindDefinition[] = [tokenReview, selfSubjectReview, tokenRequest];
