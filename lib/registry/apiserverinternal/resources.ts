/**
 * The store of `internal.apiserver.<vendor>/v1alpha1` storageversions (served only when enabled;
 * upstream v1.30 pkg/registry/apiserverinternal/storageversion): no generation, unconditional
 * updates allowed, status reset on create and written through `status`.
 */
import { storageVersion } from '../../apis/apiserverinternal/v1alpha1/index.js';
import { newKindStrategy, newStatusStrategy } from '../generic/kind-strategy.js';
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';

/** Builds the stores of the group. */
export function apiserverinternalResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  const main = newKindStrategy(storageVersion, { tracksGeneration: false });
  return [newResourceStorage(storageFor, prefix, main, newStatusStrategy(main))];
}
