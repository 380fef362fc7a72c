/** The kinds of `certificates.<vendor>/v1alpha1` (off by default): clustertrustbundles. */
import type { KindDefinition } from '../../define.js';
import { clusterTrustBundle } from './cluster-trust-bundle.js';

export { clusterTrustBundle };

/** Every kind of the group version, for the catalogue. */
export const certificatesV1alpha1Kinds: readonly KindDefinition[] = [clusterTrustBundle];
