/** The kinds of `internal.apiserver.<vendor>/v1alpha1` (off by default): storageversions. */
import type { KindDefinition } from '../../define.js';
import { storageVersion } from './storage-version.js';

export { storageVersion };

/** Every kind of the group version, for the catalogue. */
export const apiserverinternalV1alpha1Kinds: readonly KindDefinition[] = [storageVersion];
