/** The kinds of `storagemigration.<vendor>/v1alpha1` (off by default, gated): storageversionmigrations. */
import type { KindDefinition } from '../../define.js';
import { storageVersionMigration } from './storage-version-migration.js';

export { storageVersionMigration };

/** Every kind of the group version, for the catalogue. */
export const storagemigrationV1alpha1Kinds: readonly KindDefinition[] = [storageVersionMigration];
