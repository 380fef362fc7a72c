/**
 * SelfSubjectReview in the pre-release versions upstream v1.30 still ships, off by default
 * (issue #15 item 1): `authentication.<vendor>/v1beta1` and `v1alpha1`. Each declares the v1
 * fields (metadata; status with `userInfo`, upstream's `authentication/v1.UserInfo` in every
 * version) under its own package: only the status struct's definition id differs. Create-only and
 * never stored, so there is nothing to convert: the Creater answers in the version asked.
 */
import { field, struct } from '../../apimachinery/schema/builder.js';
import { defineKindVersion, type KindDefinition, type KindSpec } from '../define.js';
import { objectMeta } from '../meta/v1/types.js';
import { userInfo } from './v1/types.js';
import { selfSubjectReview } from './v1/kinds.js';

/**
 * The SelfSubjectReview kind of `version` (`v1beta1`, `v1alpha1`) with upstream's lifecycle of
 * the type in that version (`deprecatedSince`, `removedIn`, `replacement`).
 */
export function defineSelfSubjectReviewVersion(version: string, lifecycle: Pick<KindSpec, 'deprecatedSince' | 'removedIn' | 'replacement'>): KindDefinition {
  const status = struct(`api.authentication.${version}.SelfSubjectReviewStatus`, {
    userInfo: field(1, userInfo, { omitEmpty: false, description: 'The attributes of the requesting user.' }),
  });
  return defineKindVersion(
    selfSubjectReview,
    version,
    {
      metadata: field(1, objectMeta, { omitEmpty: false }),
      status: field(2, status, { omitEmpty: false, description: 'The user attributes, filled by the server.' }),
    },
    lifecycle,
  );
}
