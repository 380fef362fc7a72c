/**
 * The kinds of `authentication.<vendor>/v1alpha1` upstream v1.30 serves (off by default, issue
 * #15 item 1): SelfSubjectReview, introduced in 1.26 and deprecated in 1.29 (upstream's
 * generated lifecycle names no removal release and no replacement).
 */
import type { KindDefinition } from '../../define.js';
import { defineSelfSubjectReviewVersion } from '../self-subject-review-versions.js';

/** SelfSubjectReview of v1alpha1. */
export const selfSubjectReviewV1alpha1 = defineSelfSubjectReviewVersion('v1alpha1', { deprecatedSince: '1.29' });

/** Every kind of the group version, for the catalogue. */
export const authenticationV1alpha1Kinds: readonly KindDefinition[] = [selfSubjectReviewV1alpha1];
