/** The kinds of `authorization.<vendor>/v1` (spec 001 § Access-review resources; issue #11 item 9). */
import type { KindDefinition } from '../../define.js';
import { localSubjectAccessReview, selfSubjectAccessReview, selfSubjectRulesReview, subjectAccessReview } from './kinds.js';

export { localSubjectAccessReview, selfSubjectAccessReview, selfSubjectRulesReview, subjectAccessReview } from './kinds.js';
export {
  AUTHORIZATION_GROUP,
  nonResourceAttributes,
  nonResourceRule,
  resourceAttributes,
  resourceRule,
  selfSubjectAccessReviewSpec,
  selfSubjectRulesReviewSpec,
  subjectAccessReviewSpec,
  subjectAccessReviewStatus,
  subjectRulesReviewStatus,
} from './types.js';
export { validateLocalSubjectAccessReview, validateSelfSubjectAccessReview, validateSubjectAccessReview } from './validation.js';

/** Every kind of the group version, in upstream's discovery order. */
export const authorizationV1Kinds: readonly KindDefinition[] = [localSubjectAccessReview, selfSubjectAccessReview, selfSubjectRulesReview, subjectAccessReview];
