/**
 * The kinds of `authentication.<vendor>/v1` (spec 001 § Authentication; issue #10 item 8): the
 * create-only TokenReview and SelfSubjectReview, cluster-scoped and never stored, and
 * TokenRequest, the body and answer of the `serviceaccounts/<name>/token` subresource. Upstream
 * v1.30 field structure, JSON names and protobuf numbers.
 */
import { type FieldError, FieldPath, invalid } from '../../../apimachinery/field-errors.js';
import { field } from '../../../apimachinery/schema/builder.js';
import { type Obj, defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { AUTHENTICATION_GROUP, selfSubjectReviewStatus, tokenRequestSpec, tokenRequestStatus, tokenReviewSpec, tokenReviewStatus } from './types.js';

/** TokenReview: asks the server whether a token authenticates, and as whom (create-only, cluster-scoped). */
export const tokenReview = defineKind({
  group: AUTHENTICATION_GROUP,
  version: 'v1',
  kind: 'TokenReview',
  resource: 'tokenreviews',
  singular: 'tokenreview',
  namespaced: false,
  description: 'A question to the server: does this token authenticate, and as which user? The answer fills the status; nothing is stored.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, tokenReviewSpec, { required: true, omitEmpty: false, description: 'The token to review.' }),
    status: field(3, tokenReviewStatus, { omitEmpty: false, description: 'The outcome, filled by the server.' }),
  },
});

/** SelfSubjectReview: the requesting user's own attributes, as the server sees them after impersonation (create-only, cluster-scoped). */
export const selfSubjectReview = defineKind({
  group: AUTHENTICATION_GROUP,
  version: 'v1',
  kind: 'SelfSubjectReview',
  resource: 'selfsubjectreviews',
  singular: 'selfsubjectreview',
  namespaced: false,
  description: 'The attributes the server holds for the user making the request (the impersonated user when impersonating); nothing is stored.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    status: field(2, selfSubjectReviewStatus, { omitEmpty: false, description: 'The user attributes, filled by the server.' }),
  },
});

/** Shortest token lifetime a TokenRequest may ask for (upstream: 10 minutes). */
export const MIN_TOKEN_EXPIRATION_SECONDS = 10 * 60;
/** Longest token lifetime a TokenRequest may ask for (upstream: 2^32 seconds). */
export const MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;

/**
 * Upstream ValidateTokenRequest: `spec.expirationSeconds` (defaulted to an hour) lies between 10
 * minutes and 2^32 seconds.
 */
export function validateTokenRequest(tr: Obj): FieldError[] {
  const seconds = (tr.spec as Obj | undefined)?.expirationSeconds;
  if (typeof seconds !== 'number') return [];
  const path = FieldPath.of('spec').child('expirationSeconds');
  if (seconds < MIN_TOKEN_EXPIRATION_SECONDS) return [invalid(path, seconds, 'may not specify a duration less than 10 minutes')];
  if (seconds > MAX_TOKEN_EXPIRATION_SECONDS) return [invalid(path, seconds, 'may not specify a duration larger than 2^32 seconds')];
  return [];
}

/**
 * TokenRequest: the body and answer of `POST …/serviceaccounts/<name>/token`, which issues a
 * service-account token. Not a resource of its own: `resource`, `singular` and `namespaced` name
 * what it would be, the subresource is served under `serviceaccounts`.
 */
export const tokenRequest = defineKind({
  group: AUTHENTICATION_GROUP,
  version: 'v1',
  kind: 'TokenRequest',
  resource: 'tokenrequests',
  singular: 'tokenrequest',
  namespaced: true,
  description: 'A request for a token of a service account, answered with the token and its expiry.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, tokenRequestSpec, { required: true, omitEmpty: false, description: 'What the token is for and how long it lives.' }),
    status: field(3, tokenRequestStatus, { omitEmpty: false, description: 'The token issued, filled by the server.' }),
  },
  validate: validateTokenRequest,
});
