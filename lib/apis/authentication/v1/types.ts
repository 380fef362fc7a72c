/**
 * The types of `authentication.<vendor>/v1` the kinds share (upstream api/authentication/v1
 * field structure, JSON names and protobuf numbers of v1.30; spec 001 § Webhook token
 * authentication, § Client credential plugin): UserInfo and the specs and statuses of TokenReview,
 * TokenRequest and SelfSubjectReview.
 */
import { boolean, field, int64, listOf, mapOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { vendorGroup } from '../../vendor.js';

/** The API group of the review and token kinds (`authentication.<vendor>`). */
export const AUTHENTICATION_GROUP = vendorGroup('authentication');

const atomicStrings = () => listOf(string, { listType: 'atomic' });

/**
 * What an authenticator tells about a user (lib/request/user.ts in the wire form): username, uid,
 * groups and extra (`map[string]ExtraValue`: each value a list of strings, in protobuf the
 * `{items}` wrapper message upstream names ExtraValue).
 */
export const userInfo = struct('api.authentication.v1.UserInfo', {
  username: field(1, string, { description: 'The name that identifies the user among all current users.' }),
  uid: field(2, string, { description: 'An identifier of the user that stays the same for the life of the account, unlike the name.' }),
  groups: field(3, atomicStrings(), { description: 'The groups the user belongs to.' }),
  extra: field(4, mapOf(listOf(string)), { description: 'Further attributes the authenticator attached, by key.' }),
});

/** The token to review and the audiences the reviewer answers for. */
export const tokenReviewSpec = struct('api.authentication.v1.TokenReviewSpec', {
  token: field(1, string, { description: 'The bearer token to authenticate.' }),
  audiences: field(2, atomicStrings(), {
    description: 'Identifiers the reviewing service answers to; the token must be valid for one of them. Empty: the API server\'s own audiences.',
  }),
});

/** The outcome of a token review: in Go declaration order (authenticated, user, audiences, error). */
export const tokenReviewStatus = struct('api.authentication.v1.TokenReviewStatus', {
  authenticated: field(1, boolean, { description: 'Whether the token belongs to a known user.' }),
  user: field(2, userInfo, { omitEmpty: false, description: 'The user the token authenticates as.' }),
  audiences: field(4, atomicStrings(), {
    description: 'The requested audiences the token is valid for. Empty while authenticated: the token is valid for the API server\'s own audiences.',
  }),
  error: field(3, string, { description: 'Why the token could not be checked.' }),
});

/** The object a token is bound to: it is valid only while that object exists (a Pod or a Secret). */
export const boundObjectReference = struct('api.authentication.v1.BoundObjectReference', {
  kind: field(1, string, { description: 'Kind of the object: `Pod` or `Secret`.' }),
  apiVersion: field(2, string, { description: 'API version of the object.' }),
  name: field(3, string, { description: 'Name of the object.' }),
  uid: field(4, string, { description: 'UID of the object.' }),
});

/**
 * The parameters of a token request: in Go declaration order (audiences, expirationSeconds,
 * boundObjectRef); none is `omitempty` in Go, so `audiences` is written even when empty and an
 * absent `boundObjectRef` as `null`; `expirationSeconds` defaults to an hour (upstream
 * SetDefaults_TokenRequestSpec).
 */
export const tokenRequestSpec = struct('api.authentication.v1.TokenRequestSpec', {
  audiences: field(1, atomicStrings(), {
    required: true,
    omitEmpty: false,
    description: 'Identifiers of the services the token is meant for; a recipient must find itself among them. Empty: the API server\'s own audiences.',
  }),
  expirationSeconds: field(4, int64, { default: 3600, pointer: true, omitEmpty: false, description: 'How long the token should be valid, in seconds; the issuer may shorten it.' }),
  boundObjectRef: field(3, boundObjectReference, { pointer: true, omitEmpty: false, description: 'The object the token is bound to: it stops being valid when that object is deleted.' }),
});

/** The token issued and when it expires; both always written. */
export const tokenRequestStatus = struct('api.authentication.v1.TokenRequestStatus', {
  token: field(1, string, { required: true, omitEmpty: false, description: 'The bearer token.' }),
  expirationTimestamp: field(2, time, { required: true, omitEmpty: false, description: 'When the token stops being valid.' }),
});

/** What the server knows of the user making a SelfSubjectReview. */
export const selfSubjectReviewStatus = struct('api.authentication.v1.SelfSubjectReviewStatus', {
  userInfo: field(1, userInfo, { omitEmpty: false, description: 'The attributes of the requesting user.' }),
});
