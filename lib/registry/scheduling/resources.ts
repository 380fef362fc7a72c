/** The stores of `scheduling.<vendor>/v1`: priorityclasses. */
import type { ResourceStorage, StorageFactory } from '../generic/resource-storage.js';
import { newPriorityClassStorage } from './priorityclass/storage.js';

/** Builds the stores of the scheduling group. */
export function schedulingResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  return [newPriorityClassStorage(storageFor, prefix)];
}
