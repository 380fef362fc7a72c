/**
 * The kinds of `authorization.<vendor>/v1` (spec 001 § Access-review resources; issue #11 item
 * 9): the create-only access reviews, never stored. SubjectAccessReview, SelfSubjectAccessReview
 * and SelfSubjectRulesReview are cluster-scoped, LocalSubjectAccessReview is namespaced. Upstream
 * v1.30 field structure, JSON names and protobuf numbers.
 */
import { field } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { AUTHORIZATION_GROUP, selfSubjectAccessReviewSpec, selfSubjectRulesReviewSpec, subjectAccessReviewSpec, subjectAccessReviewStatus, subjectRulesReviewStatus } from './types.js';

/** SubjectAccessReview: may this user (any user) perform this action? Answered in `status`. */
export const subjectAccessReview = defineKind({
  group: AUTHORIZATION_GROUP,
  version: 'v1',
  kind: 'SubjectAccessReview',
  resource: 'subjectaccessreviews',
  singular: 'subjectaccessreview',
  namespaced: false,
  description: 'A question to the server: may the given user perform the given action? The answer fills the status; nothing is stored.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, subjectAccessReviewSpec, { required: true, omitEmpty: false, description: 'The action and the user to check.' }),
    status: field(3, subjectAccessReviewStatus, { omitEmpty: false, description: 'The answer, filled by the server.' }),
  },
});

/** SelfSubjectAccessReview: may I (the requesting user, after impersonation) perform this action? */
export const selfSubjectAccessReview = defineKind({
  group: AUTHORIZATION_GROUP,
  version: 'v1',
  kind: 'SelfSubjectAccessReview',
  resource: 'selfsubjectaccessreviews',
  singular: 'selfsubjectaccessreview',
  namespaced: false,
  description: 'A question to the server: may the requesting user perform the given action? The answer fills the status; nothing is stored.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, selfSubjectAccessReviewSpec, { required: true, omitEmpty: false, description: 'The action to check.' }),
    status: field(3, subjectAccessReviewStatus, { omitEmpty: false, description: 'The answer, filled by the server.' }),
  },
});

/** LocalSubjectAccessReview: a SubjectAccessReview limited to the namespace it is created in. */
export const localSubjectAccessReview = defineKind({
  group: AUTHORIZATION_GROUP,
  version: 'v1',
  kind: 'LocalSubjectAccessReview',
  resource: 'localsubjectaccessreviews',
  singular: 'localsubjectaccessreview',
  namespaced: true,
  description: 'A question to the server about an action in one namespace: may the given user perform it there? Nothing is stored.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, subjectAccessReviewSpec, { required: true, omitEmpty: false, description: 'The action, in this namespace, and the user to check.' }),
    status: field(3, subjectAccessReviewStatus, { omitEmpty: false, description: 'The answer, filled by the server.' }),
  },
});

/** SelfSubjectRulesReview: which actions may I perform in this namespace? */
export const selfSubjectRulesReview = defineKind({
  group: AUTHORIZATION_GROUP,
  version: 'v1',
  kind: 'SelfSubjectRulesReview',
  resource: 'selfsubjectrulesreviews',
  singular: 'selfsubjectrulesreview',
  namespaced: false,
  description: 'The actions the requesting user may perform in a namespace, as far as the authorization modes can list them; nothing is stored.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, selfSubjectRulesReviewSpec, { required: true, omitEmpty: false, description: 'The namespace to list the rules of.' }),
    status: field(3, subjectRulesReviewStatus, { omitEmpty: false, description: 'The rules, filled by the server.' }),
  },
});
