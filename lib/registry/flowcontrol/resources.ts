/**
 * The stored resources of `flowcontrol.apiserver.<vendor>/v1`, in upstream's discovery order:
 * flowschemas and prioritylevelconfigurations, each with its `status` subresource.
 */
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { flowSchemaStrategy, priorityLevelConfigurationStrategy } from './strategy.js';

/** Builds the stores of the flow-control resources under `prefix`. */
export function flowcontrolResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  return [newResourceStorage(storageFor, prefix, flowSchemaStrategy), newResourceStorage(storageFor, prefix, priorityLevelConfigurationStrategy)];
}
