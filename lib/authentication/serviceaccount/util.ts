/**
 * The identity of a service account (spec 001 § Methods, "Service account token"): username
 * `system:serviceaccount:<namespace>:<name>`, groups `system:serviceaccounts` and
 * `system:serviceaccounts:<namespace>`, and the `extra` upstream attaches for tokens bound to a Pod
 * or Node and for tokens with an id (upstream apiserver `authentication/serviceaccount`).
 */
import { authenticationKey } from '../../apis/vendor.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/validation/names.js';
import type { UserInfo } from '../../request/user.js';

/** Prefix of every service-account username. */
export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';
/** The group of every service account. */
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
/** Prefix of the per-namespace service-account group. */
export const SERVICE_ACCOUNT_GROUP_PREFIX = 'system:serviceaccounts:';

/** `extra` keys of a service-account user (vendor spelling of upstream `authentication.kubernetes.io/…`). */
export const POD_NAME_EXTRA = authenticationKey('pod-name');
export const POD_UID_EXTRA = authenticationKey('pod-uid');
export const NODE_NAME_EXTRA = authenticationKey('node-name');
export const NODE_UID_EXTRA = authenticationKey('node-uid');
export const CREDENTIAL_ID_EXTRA = authenticationKey('credential-id');

/** `system:serviceaccount:<namespace>:<name>`. */
export function makeUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USERNAME_PREFIX}${namespace}:${name}`;
}

/**
 * The namespace and name of a service-account username (upstream `SplitUsername`): the namespace
 * must be a DNS label and the name a DNS subdomain; undefined for any other string.
 */
export function splitUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}

/** The credential id of a token id (`JTI=<jti>`), '' when the token has none (upstream `CredentialIDForJTI`). */
export function credentialIdForJTI(jti: string | undefined): string {
  return jti ? `JTI=${jti}` : '';
}

/** What a validated service-account token says about its holder. */
export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  /** Bound Pod, when the token is bound to one. */
  podName?: string;
  podUID?: string;
  /** The Node of the bound Pod, or the Node the token is bound to. */
  nodeName?: string;
  nodeUID?: string;
  /** `JTI=<jti>` for tokens with an id. */
  credentialId?: string;
}

/** The user a service-account token authenticates as (upstream `ServiceAccountInfo.UserInfo`). */
export function serviceAccountUser(sa: ServiceAccountInfo): UserInfo {
  const user: UserInfo = {
    name: makeUsername(sa.namespace, sa.name),
    uid: sa.uid,
    groups: [ALL_SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNT_GROUP_PREFIX}${sa.namespace}`],
  };
  const extra: Record<string, string[]> = {};
  if (sa.podName && sa.podUID) {
    extra[POD_NAME_EXTRA] = [sa.podName];
    extra[POD_UID_EXTRA] = [sa.podUID];
  }
  if (sa.credentialId) extra[CREDENTIAL_ID_EXTRA] = [sa.credentialId];
  if (sa.nodeName) {
    extra[NODE_NAME_EXTRA] = [sa.nodeName];
    if (sa.nodeUID) extra[NODE_UID_EXTRA] = [sa.nodeUID];
  }
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}
