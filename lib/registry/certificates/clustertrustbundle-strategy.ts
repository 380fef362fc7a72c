/**
 * Strategy of `certificates.<vendor>/v1alpha1` ClusterTrustBundle (upstream v1.30
 * pkg/registry/certificates/clustertrustbundle/strategy.go): no generation; an update must name
 * the resourceVersion it replaces.
 */
import { clusterTrustBundle } from '../../apis/certificates/v1alpha1/index.js';
import { newKindStrategy } from '../generic/kind-strategy.js';
import type { Strategy } from '../rest/strategy.js';

export const clusterTrustBundleStrategy: Strategy = newKindStrategy(clusterTrustBundle, { tracksGeneration: false, allowUnconditionalUpdate: false });
