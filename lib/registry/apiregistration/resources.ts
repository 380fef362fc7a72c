/** The stores of `apiregistration.<vendor>/v1` (issue #12). */
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { apiServiceStrategies } from './strategy.js';

/** APIServices, with `/status`. */
export function apiregistrationResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  return [newResourceStorage(storageFor, prefix, apiServiceStrategies.main, apiServiceStrategies.status)];
}
