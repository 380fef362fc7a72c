/**
 * The identity an authenticator attaches to a request (spec 001 § Principals and attributes).
 */

/** username, uid, groups and extra, all opaque to authentication. */
export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/**
 * What a TokenReview learns about a token (issue #10 item 8): `result` when the token
 * authenticates (anonymous included, as upstream) — the user and the audiences it is valid for;
 * `error`, the rejection text (upstream's error aggregate), when some method rejected it;
 * neither when nothing claimed the token.
 */
export interface TokenReviewOutcome {
  result?: { user: UserInfo; audiences?: string[] };
  error?: string;
}

/** Well-known user and group names (spec 001 § Anonymous requests, § Authentication). */
export const ANONYMOUS_USER = 'system:anonymous';
export const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
export const AUTHENTICATED_GROUP = 'system:authenticated';
export const MASTERS_GROUP = 'system:masters';
export const APISERVER_USER = 'system:apiserver';
