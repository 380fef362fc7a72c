/** The stores of `discovery.<vendor>/v1`: endpointslices. */
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { endpointSliceStrategy } from './endpointslice/strategy.js';

/** Builds the stores of the discovery group. */
export function discoveryResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  return [newResourceStorage(storageFor, prefix, endpointSliceStrategy)];
}
