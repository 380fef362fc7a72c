/**
 * The stored resources of `flowcontrol.apiserver.<vendor>`, in upstream's discovery order:
 * flowschemas and prioritylevelconfigurations, each with its `status` subresource, stored as v1
 * and served as v1 (preferred) and v1beta3 (deprecated; issue #15 item 1) from the same stores.
 */
import { flowSchemaV1beta3Conversion, priorityLevelConfigurationV1beta3Conversion } from '../../apis/flowcontrol/v1beta3/index.js';
import type { VersionConversion } from '../../apis/version-conversion.js';
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { flowSchemaStrategy, priorityLevelConfigurationStrategy } from './strategy.js';

/** `r` also served in the version of `conversion`, through its own store and subresources. */
function withVersion(r: ResourceStorage, conversion: VersionConversion): ResourceStorage {
  r.versions = [...(r.versions ?? []), { conversion, store: r.store, subresources: r.subresources }];
  return r;
}

/** Builds the stores of the flow-control resources under `prefix`. */
export function flowcontrolResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  return [
    withVersion(newResourceStorage(storageFor, prefix, flowSchemaStrategy), flowSchemaV1beta3Conversion),
    withVersion(newResourceStorage(storageFor, prefix, priorityLevelConfigurationStrategy), priorityLevelConfigurationV1beta3Conversion),
  ];
}
