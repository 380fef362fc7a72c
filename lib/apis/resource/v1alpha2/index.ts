/**
 * The kinds of `resource.<vendor>/v1alpha2` (off by default), in discovery order:
 * podschedulingcontexts, resourceclaimparameters, resourceclaims, resourceclaimtemplates,
 * resourceclasses, resourceclassparameters, resourceslices.
 */
import type { KindDefinition } from '../../define.js';
import { podSchedulingContext, resourceClaim, resourceClaimParameters, resourceClaimTemplate, resourceClass, resourceClassParameters, resourceSlice } from './kinds.js';

export { podSchedulingContext, resourceClaim, resourceClaimParameters, resourceClaimTemplate, resourceClass, resourceClassParameters, resourceSlice };

/** Every kind of the group version, for the catalogue. */
export const resourceV1alpha2Kinds: readonly KindDefinition[] = [
  podSchedulingContext,
  resourceClaimParameters,
  resourceClaim,
  resourceClaimTemplate,
  resourceClass,
  resourceClassParameters,
  resourceSlice,
];
