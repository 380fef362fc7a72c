/**
 * The access review kinds of `authorization.<vendor>/v1beta1` → `v1` (spec 001 § Removed API
 * versions, 1.22 row): SubjectAccessReview and LocalSubjectAccessReview rename `spec.group` (the
 * user's groups) to `spec.groups`; SelfSubjectAccessReview and SelfSubjectRulesReview keep their
 * shape.
 */
import type { Obj } from '../define.js';
import { vendorGroup } from '../vendor.js';
import { type MigrationRow, isObj, rename, sameShape } from './types.js';

/** Renames `spec.group` to `spec.groups`. */
export function accessReviewToV1(obj: Obj): Obj {
  if (isObj(obj.spec)) rename(obj.spec, 'group', 'groups');
  return obj;
}

const AUTHORIZATION_GROUP = vendorGroup('authorization');
const v1 = { group: AUTHORIZATION_GROUP, version: 'v1' };

/** The access review rows. */
export const authorizationRows: readonly MigrationRow[] = [
  ...['SubjectAccessReview', 'LocalSubjectAccessReview'].map((kind) => ({
    from: { group: AUTHORIZATION_GROUP, version: 'v1beta1', kind },
    to: { ...v1, kind },
    removedIn: '1.22',
    convert: accessReviewToV1,
  })),
  sameShape(AUTHORIZATION_GROUP, 'v1beta1', 'SelfSubjectAccessReview', v1, '1.22'),
  sameShape(AUTHORIZATION_GROUP, 'v1beta1', 'SelfSubjectRulesReview', v1, '1.22'),
];
