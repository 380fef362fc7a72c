/**
 * The kinds of `authentication.<vendor>/v1beta1` upstream v1.30 serves (off by default, issue #15
 * item 1): SelfSubjectReview, introduced in 1.27, so deprecated in 1.30 and removed in 1.33 by
 * upstream's prerelease lifecycle. TokenReview of v1beta1 was removed in 1.22 (lib/apis/migration).
 */
import type { KindDefinition } from '../../define.js';
import { defineSelfSubjectReviewVersion } from '../self-subject-review-versions.js';

/** SelfSubjectReview of v1beta1. */
export const selfSubjectReviewV1beta1 = defineSelfSubjectReviewVersion('v1beta1', { deprecatedSince: '1.30', removedIn: '1.33' });

/** Every kind of the group version, for the catalogue. */
export const authenticationV1beta1Kinds: readonly KindDefinition[] = [selfSubjectReviewV1beta1];
