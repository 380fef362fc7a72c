/**
 * The service account controller (`serviceaccount-controller`, on by default; issue #10 item 2;
 * upstream pkg/controller/serviceaccount `ServiceAccountsController`): every Active namespace has
 * a ServiceAccount `default`; one that is deleted is created again. Namespaces that are being
 * deleted are left alone.
 */
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { WorkQueue } from '../queue.js';
import { createObject, isNamespaceActive } from '../writes.js';

/** The ServiceAccount every namespace gets. */
export const DEFAULT_SERVICE_ACCOUNT = 'default';

/** What the controller works with. */
export interface ServiceAccountControllerConfig {
  /** Namespaces (an informer shared with the namespace controller). */
  namespaces: Informer;
  /** ServiceAccounts of every namespace. */
  serviceAccounts: Informer;
  /** The ServiceAccount store the controller creates through. */
  store: Store;
  /** Context of the controller's writes (a privileged internal user). */
  ctx: RequestContext;
  onError: (err: unknown) => void;
}

/** Runs the controller until `signal` aborts; resolves once both informers have synced and the worker stopped. */
export async function runServiceAccountController(cfg: ServiceAccountControllerConfig, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  cfg.namespaces.addHandler((type, ns) => {
    if (type !== 'DELETED') queue.add(ns.metadata?.name as string);
  });
  cfg.serviceAccounts.addHandler((type, sa) => {
    if (type === 'DELETED' && sa.metadata?.name === DEFAULT_SERVICE_ACCOUNT) queue.add(sa.metadata.namespace as string);
  });
  await Promise.all([cfg.namespaces.waitForSync(), cfg.serviceAccounts.waitForSync()]);
  for (const ns of cfg.namespaces.list()) queue.add(ns.metadata?.name as string);
  await queue.run(signal, (namespace) => syncNamespace(cfg, namespace), (err) => cfg.onError(err));
}

/** Creates the `default` ServiceAccount of `namespace` when it is Active and has none. */
async function syncNamespace(cfg: ServiceAccountControllerConfig, namespace: string): Promise<void> {
  if (!isNamespaceActive(cfg.namespaces, namespace)) return;
  if (cfg.serviceAccounts.get(`${namespace}/${DEFAULT_SERVICE_ACCOUNT}`)) return;
  await createObject(cfg.ctx, cfg.store, namespace, { metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace } });
}
