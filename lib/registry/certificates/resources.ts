/**
 * The stores of `certificates.<vendor>/v1`: certificatesigningrequests with its `approval` and
 * `status` subresources (in upstream's discovery order), all over one storage; the installer
 * serves get, update and patch on both; then `v1alpha1` clustertrustbundles (served only when
 * enabled).
 */
import { keyRootFor, newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { Store } from '../generic/store.js';
import { clusterTrustBundleStrategy } from './clustertrustbundle-strategy.js';
import { csrApprovalStrategy, csrStatusStrategy, csrStrategy } from './strategy.js';

/** Builds the stores of the certificates group. */
export function certificatesResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  const kind = csrStrategy.kind;
  const keyRoot = keyRootFor(prefix, kind.group, kind.resource);
  const storage = storageFor(keyRoot, kind);
  const subresources = new Map<string, Store>([
    ['approval', new Store({ storage, keyRoot, strategy: csrApprovalStrategy })],
    ['status', new Store({ storage, keyRoot, strategy: csrStatusStrategy })],
  ]);
  return [{ store: new Store({ storage, keyRoot, strategy: csrStrategy }), subresources }, newResourceStorage(storageFor, prefix, clusterTrustBundleStrategy)];
}
