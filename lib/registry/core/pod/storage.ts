/**
 * The stores of `pods` (upstream pod registry `NewStorage`): the main store, `status`,
 * `ephemeralcontainers`, and the create-only `binding` and `eviction` subresources — the latter
 * working with the PodDisruptionBudgets' stores; plus the legacy create-only `bindings` resource.
 */
import type { Creater } from '../../rest/creater.js';
import { keyRootFor, newResourceStorage, type ResourceStorage, type StorageFactory } from '../../generic/resource-storage.js';
import { Store } from '../../generic/store.js';
import { BindingREST } from './binding.js';
import { newEphemeralContainersStrategy } from './ephemeral-containers.js';
import { EvictionREST } from './eviction.js';
import { podStrategy } from './strategy.js';

/**
 * Builds the pods' storage; `budgets` is the storage of `poddisruptionbudgets` (with its `status`
 * store), which evictions check and decrement.
 */
export function newPodStorage(storageFor: StorageFactory, prefix: string, budgets: ResourceStorage): ResourceStorage {
  const pods = newResourceStorage(storageFor, prefix, podStrategy);
  const keyRoot = keyRootFor(prefix, '', 'pods');
  pods.subresources.set('ephemeralcontainers', new Store({ storage: pods.store.storage, keyRoot, strategy: newEphemeralContainersStrategy(podStrategy) }));
  const eviction = new EvictionREST({ pods: pods.store, podStatus: pods.subresources.get('status')!, budgets: budgets.store, budgetStatus: budgets.subresources.get('status')! });
  pods.creaters = new Map<string, Creater>([...(pods.creaters ?? []), ['binding', new BindingREST(pods.store)], ['eviction', eviction]]);
  return pods;
}

/** The legacy create-only `bindings` resource of the core group (`POST …/namespaces/<ns>/bindings`), over the pods of `resources`. */
export function legacyPodCreaters(resources: readonly ResourceStorage[]): Creater[] {
  const pods = resources.find((r) => r.store.gr.group === '' && r.store.gr.resource === 'pods');
  return pods ? [new BindingREST(pods.store, true)] : [];
}
