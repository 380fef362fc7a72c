/** The stores of `node.<vendor>/v1`: runtimeclasses. */
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { runtimeClassStrategy } from './runtimeclass/strategy.js';

/** Builds the stores of the node group. */
export function nodeResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  return [newResourceStorage(storageFor, prefix, runtimeClassStrategy)];
}
