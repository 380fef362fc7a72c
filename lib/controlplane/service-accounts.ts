/**
 * Service accounts in our server (issue #10 item 2): the object reads service-account tokens are
 * checked with (served by the watch caches of the stores, as upstream's informer listers with a
 * live read on a miss), the last-used labelling of legacy token Secrets, and the TokenRequest
 * subresource of `serviceaccounts`.
 */
import { isReason, newConflict, newNotFound } from '../apimachinery/errors.js';
import type { Obj } from '../apis/define.js';
import { LEGACY_TOKEN_LAST_USED_LABEL } from '../apis/vendor.js';
import type { ServiceAccountTokenGetter } from '../authentication/serviceaccount/claims.js';
import { type LegacyTokenTracker, legacyClaims } from '../authentication/serviceaccount/legacy.js';
import type { LegacyTokenSigner } from '../controllers/serviceaccount/tokens-controller.js';
import type { ServiceAccountDeps, ServiceAccounts } from '../authentication/serviceaccount/setup.js';
import { TokenREST } from '../registry/core/serviceaccount/token.js';
import type { ResourceStorage } from '../registry/generic/resource-storage.js';
import type { Store } from '../registry/generic/store.js';
import type { RequestContext } from '../request/context.js';
import type { AuthenticationOptions } from '../server/options/authentication-options.js';

/** The stores service accounts read, by resource. */
interface Stores {
  serviceaccounts: Store;
  pods: Store;
  secrets: Store;
  nodes: Store;
}

/** Picks the core stores service accounts need from the served resources. */
function storesOf(resources: readonly ResourceStorage[]): Stores {
  const find = (resource: string): Store => {
    const r = resources.find((x) => x.store.strategy.kind.group === '' && x.store.strategy.kind.resource === resource);
    if (!r) throw new Error(`service accounts need the ${resource} store`);
    return r.store;
  };
  return { serviceaccounts: find('serviceaccounts'), pods: find('pods'), secrets: find('secrets'), nodes: find('nodes') };
}

/** Reads `namespace/name` at "any version" (the watch cache; etcd only when the cache lacks it); null when absent. */
function cachedRead(store: Store, ctx: RequestContext): (namespace: string, name: string) => Promise<Obj | null> {
  return async (namespace, name) => {
    if (!name) return null;
    try {
      return await store.get(ctx, namespace, name, { resourceVersion: '0' });
    } catch (err) {
      if (isReason(err, 'NotFound')) return null;
      throw err;
    }
  };
}

/**
 * What the service-account authenticators need: the serving key (default signing and
 * verification key), cached object reads, and the legacy-token tracker, which labels a Secret
 * with its last-used date in the background (failures logged, as upstream only logs them).
 */
export function serviceAccountDeps(
  resources: readonly ResourceStorage[],
  servingKeyPem: string,
  ctx: RequestContext,
  onError: (err: unknown) => void,
): ServiceAccountDeps {
  const s = storesOf(resources);
  const getter: ServiceAccountTokenGetter = {
    getServiceAccount: cachedRead(s.serviceaccounts, ctx),
    getPod: cachedRead(s.pods, ctx),
    getSecret: cachedRead(s.secrets, ctx),
    getNode: (name) => cachedRead(s.nodes, ctx)('', name),
  };
  const legacyTracker: LegacyTokenTracker = {
    markUsed(namespace, name, uid, date) {
      const label = async (current: Obj | null): Promise<Obj> => {
        if (!current) throw newNotFound(s.secrets.gr, name);
        const meta = (current.metadata ??= {}) as Obj;
        if (meta.uid !== uid) throw newConflict(s.secrets.gr, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${(meta.uid as string | undefined) ?? ''}`);
        meta.labels = { ...((meta.labels as Record<string, string> | undefined) ?? {}), [LEGACY_TOKEN_LAST_USED_LABEL]: date };
        return current;
      };
      s.secrets.update(ctx, namespace, name, label).catch(onError);
    },
  };
  return { servingKeyPem, getter, legacyTracker };
}

/**
 * Adds the `token` subresource (TokenRequest) to `serviceaccounts`, issuing with the service
 * accounts' issuer for the API audiences under the expiry flags.
 */
export function addTokenRequest(
  resources: readonly ResourceStorage[],
  serviceAccounts: ServiceAccounts,
  opts: Pick<AuthenticationOptions, 'serviceAccountMaxTokenExpirationMs' | 'serviceAccountExtendTokenExpiration'>,
): void {
  const s = storesOf(resources);
  const token = new TokenREST({
    serviceAccounts: s.serviceaccounts,
    pods: s.pods,
    secrets: s.secrets,
    nodes: s.nodes,
    issuer: serviceAccounts.tokenIssuer,
    apiAudiences: serviceAccounts.apiAudiences,
    maxExpirationSeconds: Math.floor(opts.serviceAccountMaxTokenExpirationMs / 1000),
    extendExpiration: opts.serviceAccountExtendTokenExpiration,
  });
  const entry = resources.find((r) => r.store === s.serviceaccounts)!;
  entry.creaters = new Map([...(entry.creaters ?? []), ['token', token]]);
}

/**
 * The tokens controller's signer over `serviceAccounts` (undefined when service accounts are not
 * set up): a legacy token for the account and Secret, with the legacy claims (upstream
 * `LegacyClaims`) signed by the service-account signing key for the legacy issuer.
 */
export function legacyTokenSigner(serviceAccounts: ServiceAccounts | undefined): LegacyTokenSigner | undefined {
  if (!serviceAccounts) return undefined;
  return (sa, secretName) => {
    const m = (sa.metadata ?? {}) as Obj;
    return serviceAccounts.legacyTokenGenerator.generateToken(legacyClaims(m.namespace as string, m.name as string, m.uid as string, secretName));
  };
}
