/**
 * The stores of the core/v1 kinds added for issue #12 item 1, in upstream's alphabetical
 * discovery order: limitranges, persistentvolumeclaims (+ status), persistentvolumes (+ status),
 * podtemplates, resourcequotas (+ status).
 */
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { limitRangeStrategy } from './limitrange/strategy.js';
import { persistentVolumeStatusStrategy, persistentVolumeStrategy } from './persistentvolume/strategy.js';
import { persistentVolumeClaimStatusStrategy, persistentVolumeClaimStrategy } from './persistentvolumeclaim/strategy.js';
import { podTemplateStrategy } from './podtemplate/strategy.js';
import { resourceQuotaStrategy } from './resourcequota/strategy.js';

/** Builds the stores of LimitRange, PersistentVolumeClaim, PersistentVolume, PodTemplate and ResourceQuota. */
export function coreV1ExtraResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  return [
    newResourceStorage(storageFor, prefix, limitRangeStrategy),
    newResourceStorage(storageFor, prefix, persistentVolumeClaimStrategy, persistentVolumeClaimStatusStrategy),
    newResourceStorage(storageFor, prefix, persistentVolumeStrategy, persistentVolumeStatusStrategy),
    newResourceStorage(storageFor, prefix, podTemplateStrategy),
    newResourceStorage(storageFor, prefix, resourceQuotaStrategy),
  ];
}
