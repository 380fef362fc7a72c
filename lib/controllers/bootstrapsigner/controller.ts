/**
 * The bootstrap signer (`bootstrap-signer-controller`, off by default; spec 001 § Bootstrap
 * tokens; upstream pkg/controller/bootstrap `Signer`): keeps one `jws-kubeconfig-<token-id>` key
 * in the `cluster-info` ConfigMap of the public namespace per bootstrap token that may sign — a
 * detached HS256 JWS over the ConfigMap's `kubeconfig` value — and removes the keys of tokens
 * that are gone, expired or no longer marked `usage-bootstrap-signing: "true"`.
 *
 * Beyond upstream: upstream's signer does nothing while `cluster-info` does not exist (kubeadm
 * creates it); this server has no kubeadm, so the signer creates it, with a kubeconfig naming the
 * server's URL and CA bundle. A `kubeconfig` that exists is signed as it is, never rewritten. It
 * also looks again when the earliest signing token expires, so an expired token's signature goes
 * even without the token cleaner.
 */
import type { Obj } from '../../apis/define.js';
import {
  BOOTSTRAP_TOKEN_KEY,
  isBootstrapTokenSecret,
  secretValue,
  tokenExpiration,
  tokenIDFromSecretName,
} from '../../apimachinery/bootstrap-token.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { WorkQueue } from '../queue.js';
import { createObject, isNamespaceActive, updateObject } from '../writes.js';
import { CLUSTER_INFO_NAME, CLUSTER_INFO_NAMESPACE, JWS_KEY_PREFIX, KUBECONFIG_KEY, clusterInfoKubeconfig } from './cluster-info.js';
import { computeDetachedSignature } from './jws.js';

/** What the controller works with. */
export interface BootstrapSignerConfig {
  /** Namespaces (an informer shared with the namespace controller). */
  namespaces: Informer;
  /** Secrets of the system namespace (where bootstrap tokens live). */
  secrets: Informer;
  /** ConfigMaps: at least `cluster-info` of the public namespace (the only one it reads). */
  configMaps: Informer;
  /** The ConfigMap store the controller writes through. */
  store: Store;
  /** The `https://host:port` a joining client reaches the server at (for a `cluster-info` it creates). */
  serverURL: () => string;
  /** The PEM CA bundle that verifies the server's serving certificate (for a `cluster-info` it creates). */
  caPem: string;
  /** Context of the controller's writes (a privileged internal user). */
  ctx: RequestContext;
  onError: (err: unknown) => void;
}

const CLUSTER_INFO_KEY = `${CLUSTER_INFO_NAMESPACE}/${CLUSTER_INFO_NAME}`;

/** Runs the controller until `signal` aborts. */
export async function runBootstrapSigner(cfg: BootstrapSignerConfig, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  const poke = () => queue.add(CLUSTER_INFO_KEY);
  cfg.configMaps.addHandler((_type, cm) => {
    if (cm.metadata?.namespace === CLUSTER_INFO_NAMESPACE && cm.metadata.name === CLUSTER_INFO_NAME) poke();
  });
  cfg.secrets.addHandler((_type, secret) => {
    if (isBootstrapTokenSecret(secret)) poke();
  });
  cfg.namespaces.addHandler((type, ns) => {
    if (type !== 'DELETED' && ns.metadata?.name === CLUSTER_INFO_NAMESPACE) poke();
  });
  await Promise.all([cfg.namespaces.waitForSync(), cfg.secrets.waitForSync(), cfg.configMaps.waitForSync()]);
  poke();
  await queue.run(
    signal,
    async () => {
      const nextExpiryMs = await signClusterInfo(cfg);
      if (nextExpiryMs !== undefined) queue.addAfter(CLUSTER_INFO_KEY, nextExpiryMs);
    },
    (err) => cfg.onError(err),
  );
}

/** The tokens that may sign now (upstream `validateSecretForSigning`), and when the first of them expires. */
function signingTokens(secrets: Informer): { tokens: Map<string, string>; nextExpiryMs?: number } {
  const tokens = new Map<string, string>();
  let nextExpiryMs: number | undefined;
  const now = Date.now();
  for (const secret of secrets.list()) {
    if (!isBootstrapTokenSecret(secret)) continue;
    const nameID = tokenIDFromSecretName(((secret.metadata as Obj | undefined)?.name as string | undefined) ?? '');
    const id = secretValue(secret, BOOTSTRAP_TOKEN_KEY.tokenID);
    const tokenSecret = secretValue(secret, BOOTSTRAP_TOKEN_KEY.tokenSecret);
    if (nameID === undefined || id === '' || id !== nameID || tokenSecret === '') continue;
    if (secretValue(secret, BOOTSTRAP_TOKEN_KEY.usageSigning) !== 'true') continue;
    const { expired, remainingMs } = tokenExpiration(secret, now);
    if (expired || tokens.has(id)) continue;
    tokens.set(id, tokenSecret);
    if (remainingMs !== undefined) nextExpiryMs = Math.min(nextExpiryMs ?? remainingMs, remainingMs);
  }
  return { tokens, nextExpiryMs };
}

/**
 * Rewrites the `jws-kubeconfig-*` keys of `data` for `tokens` over `data.kubeconfig`; returns
 * whether anything changed. `data` without a kubeconfig is left alone (as upstream).
 */
async function applySignatures(data: Record<string, string>, tokens: ReadonlyMap<string, string>): Promise<boolean> {
  const content = data[KUBECONFIG_KEY];
  if (content === undefined) return false;
  let changed = false;
  const stale = new Set(Object.keys(data).filter((k) => k.startsWith(JWS_KEY_PREFIX)));
  for (const [id, tokenSecret] of tokens) {
    const key = `${JWS_KEY_PREFIX}${id}`;
    const sig = await computeDetachedSignature(content, id, `${id}.${tokenSecret}`);
    if (data[key] !== sig) changed = true;
    data[key] = sig;
    stale.delete(key);
  }
  for (const key of stale) {
    delete data[key];
    changed = true;
  }
  return changed;
}

/**
 * One pass: creates `cluster-info` when missing (and the public namespace is Active), else
 * brings its signatures up to date. Returns the milliseconds until the first signing token
 * expires, if any does.
 */
async function signClusterInfo(cfg: BootstrapSignerConfig): Promise<number | undefined> {
  const { tokens, nextExpiryMs } = signingTokens(cfg.secrets);
  const cached = cfg.configMaps.get(CLUSTER_INFO_KEY);
  if (!cached) {
    if (!isNamespaceActive(cfg.namespaces, CLUSTER_INFO_NAMESPACE)) return nextExpiryMs;
    const data: Record<string, string> = { [KUBECONFIG_KEY]: clusterInfoKubeconfig(cfg.serverURL(), cfg.caPem) };
    await applySignatures(data, tokens);
    await createObject(cfg.ctx, cfg.store, CLUSTER_INFO_NAMESPACE, { metadata: { name: CLUSTER_INFO_NAME, namespace: CLUSTER_INFO_NAMESPACE }, data });
    return nextExpiryMs;
  }
  if (!(await applySignatures({ ...((cached.data as Record<string, string> | undefined) ?? {}) }, tokens))) return nextExpiryMs;
  await updateObject(cfg.ctx, cfg.store, CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_NAME, async (cm) => {
    const data = { ...((cm.data as Record<string, string> | undefined) ?? {}) };
    await applySignatures(data, tokens);
    cm.data = data;
  });
  return nextExpiryMs;
}
