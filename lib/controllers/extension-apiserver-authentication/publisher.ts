/**
 * The `extension-apiserver-authentication` ConfigMap in the system namespace (spec 001
 * § Authenticating proxy flags; upstream v1.30 `cluster-authentication-trust-controller`): what
 * an extension API server needs to trust this server's calls and its clients' certificates —
 * `client-ca-file` (the `--client-ca-file` bundle) and, when `--requestheader-client-ca-file` is
 * set, `requestheader-client-ca-file` (PEM) with `requestheader-allowed-names`,
 * `requestheader-username-headers`, `requestheader-group-headers` and
 * `requestheader-extra-headers-prefix` as JSON arrays. Each server writes its own values; the CA
 * bundles keep the certificates already published (other servers' CAs), as upstream combines them.
 */
import { deepEqual } from '../../apimachinery/deep-equal.js';
import type { Obj } from '../../apis/define.js';
import { SYSTEM_NAMESPACE } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { isReason } from '../../apimachinery/errors.js';
import { createObject, updateObject } from '../writes.js';

/** The ConfigMap's name (upstream's, vendor-free). */
export const EXTENSION_AUTHENTICATION_CONFIGMAP = 'extension-apiserver-authentication';

/** The post-start hook that publishes it (upstream's name). */
export const AUTHENTICATION_INFO_HOOK = 'start-cluster-authentication-info-controller';

/** What is published; absent parts are left out. */
export interface AuthenticationInfo {
  clientCAPem?: string;
  requestHeader?: {
    clientCAPem: string;
    allowedNames: readonly string[];
    usernameHeaders: readonly string[];
    groupHeaders: readonly string[];
    extraHeaderPrefixes: readonly string[];
  };
}

/** The PEM certificates of a bundle, each normalised to end with one newline. */
function certificates(bundle: string | undefined): string[] {
  return (bundle ?? '').match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)?.map((c) => `${c}\n`) ?? [];
}

/** `existing` then the certificates of `mine` it lacks. */
function combineBundles(existing: string | undefined, mine: string): string {
  const out = certificates(existing);
  for (const c of certificates(mine)) if (!out.includes(c)) out.push(c);
  return out.join('');
}

/** The ConfigMap data for `info`, combined with the `existing` data. */
export function authenticationData(info: AuthenticationInfo, existing: Record<string, string> = {}): Record<string, string> {
  const data: Record<string, string> = {};
  if (info.clientCAPem && certificates(info.clientCAPem).length > 0) data['client-ca-file'] = combineBundles(existing['client-ca-file'], info.clientCAPem);
  const rh = info.requestHeader;
  if (rh && certificates(rh.clientCAPem).length > 0) {
    data['requestheader-username-headers'] = JSON.stringify(rh.usernameHeaders);
    data['requestheader-group-headers'] = JSON.stringify(rh.groupHeaders);
    data['requestheader-extra-headers-prefix'] = JSON.stringify(rh.extraHeaderPrefixes);
    data['requestheader-client-ca-file'] = combineBundles(existing['requestheader-client-ca-file'], rh.clientCAPem);
    data['requestheader-allowed-names'] = JSON.stringify(rh.allowedNames);
  }
  return data;
}

/**
 * Creates or updates the ConfigMap once (the hook retries on failure).
 * @throws StatusError from the store.
 */
export async function publishAuthenticationInfo(ctx: RequestContext, configMaps: Store, info: AuthenticationInfo): Promise<void> {
  const name = EXTENSION_AUTHENTICATION_CONFIGMAP;
  let current: Obj | undefined;
  try {
    current = await configMaps.get(ctx, SYSTEM_NAMESPACE, name);
  } catch (err) {
    if (!isReason(err, 'NotFound')) throw err;
  }
  if (!current) {
    if (await createObject(ctx, configMaps, SYSTEM_NAMESPACE, { metadata: { name, namespace: SYSTEM_NAMESPACE }, data: authenticationData(info) })) return;
  } else if (deepEqual(current.data ?? {}, authenticationData(info, (current.data ?? {}) as Record<string, string>))) {
    return;
  }
  await updateObject(ctx, configMaps, SYSTEM_NAMESPACE, name, (cm) => {
    cm.data = authenticationData(info, (cm.data ?? {}) as Record<string, string>);
  });
}
