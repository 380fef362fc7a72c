/**
 * The stores of `storage.<vendor>/v1`, in upstream discovery order: csidrivers, csinodes,
 * csistoragecapacities, storageclasses, volumeattachments (with `status`); then `v1alpha1`
 * volumeattributesclasses (served only when enabled).
 */
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import * as s from './strategies.js';

/** Builds the stores of the storage group. */
export function storageResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  return [
    newResourceStorage(storageFor, prefix, s.csiDriverStrategy),
    newResourceStorage(storageFor, prefix, s.csiNodeStrategy),
    newResourceStorage(storageFor, prefix, s.csiStorageCapacityStrategy),
    newResourceStorage(storageFor, prefix, s.storageClassStrategy),
    newResourceStorage(storageFor, prefix, s.volumeAttachmentStrategy, s.volumeAttachmentStatusStrategy),
    newResourceStorage(storageFor, prefix, s.volumeAttributesClassStrategy),
  ];
}
