/**
 * The token cleaner (`token-cleaner-controller`, off by default; spec 001 § Bootstrap tokens;
 * upstream pkg/controller/bootstrap `TokenCleaner`): deletes each bootstrap token Secret of the
 * system namespace once its `expiration` has passed (an unparseable expiration counts as
 * passed). A Secret is looked at when it appears or changes, again at its expiration, and on a
 * periodic resync. The delete carries the Secret's uid as precondition, so a Secret recreated
 * under the same name is not removed by mistake.
 */
import { isReason } from '../../apimachinery/errors.js';
import { isBootstrapTokenSecret, tokenExpiration } from '../../apimachinery/bootstrap-token.js';
import type { Obj } from '../../apis/define.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { WorkQueue } from '../queue.js';

/** Default interval of the periodic resync (ms). */
export const TOKEN_CLEANER_RESYNC_MS = 5 * 60_000;

/** What the controller works with. */
export interface TokenCleanerConfig {
  /** Secrets of the system namespace. */
  secrets: Informer;
  /** The Secret store the controller deletes through. */
  store: Store;
  /** Context of the controller's writes (a privileged internal user). */
  ctx: RequestContext;
  /** Interval of the periodic resync (ms; default {@link TOKEN_CLEANER_RESYNC_MS}). */
  resyncMs?: number;
  onError: (err: unknown) => void;
}

/** Runs the controller until `signal` aborts. */
export async function runTokenCleaner(cfg: TokenCleanerConfig, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  const key = (s: Obj) => `${(s.metadata as Obj).namespace as string}/${(s.metadata as Obj).name as string}`;
  cfg.secrets.addHandler((type, secret) => {
    if (type !== 'DELETED' && isBootstrapTokenSecret(secret)) queue.add(key(secret));
  });
  await cfg.secrets.waitForSync();
  const resyncAll = () => {
    for (const s of cfg.secrets.list()) if (isBootstrapTokenSecret(s)) queue.add(key(s));
  };
  resyncAll();
  const resync = setInterval(resyncAll, cfg.resyncMs ?? TOKEN_CLEANER_RESYNC_MS);
  resync.unref();
  try {
    await queue.run(signal, (k) => syncSecret(cfg, queue, k), (err) => cfg.onError(err));
  } finally {
    clearInterval(resync);
  }
}

/** Deletes the Secret `namespace/name` when expired, else schedules a look at its expiration. */
async function syncSecret(cfg: TokenCleanerConfig, queue: WorkQueue, key: string): Promise<void> {
  const secret = cfg.secrets.get(key);
  if (!secret || !isBootstrapTokenSecret(secret)) return;
  const { expired, remainingMs } = tokenExpiration(secret, Date.now());
  if (!expired) {
    if (remainingMs !== undefined) queue.addAfter(key, remainingMs);
    return;
  }
  const meta = secret.metadata as Obj;
  try {
    await cfg.store.delete(cfg.ctx, meta.namespace as string, meta.name as string, { preconditions: { uid: meta.uid as string } });
  } catch (err) {
    // Gone already, or a different Secret now holds the name (uid precondition): nothing to do.
    if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) throw err;
  }
}
