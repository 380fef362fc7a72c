/**
 * The store of `storagemigration.<vendor>/v1alpha1` storageversionmigrations (upstream v1.30
 * pkg/registry/storagemigration/storagemigration): no generation, every update names its
 * resourceVersion, status reset on create and written through `status`. Upstream installs it only
 * when the version is enabled AND the StorageVersionMigrator gate is on (see gatedOff).
 */
import { storageVersionMigration } from '../../apis/storagemigration/v1alpha1/index.js';
import { newKindStrategy, newStatusStrategy } from '../generic/kind-strategy.js';
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';

/** Builds the stores of the group. */
export function storagemigrationResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  const main = newKindStrategy(storageVersionMigration, { tracksGeneration: false, allowUnconditionalUpdate: false });
  return [newResourceStorage(storageFor, prefix, main, newStatusStrategy(main))];
}
