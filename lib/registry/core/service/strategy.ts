/**
 * Service strategy: `clusterIP` and `clusterIPs` kept consistent on every write (upstream
 * `PrepareForCreate/Update` normalization); the DELETE response is the Service object.
 * Cluster IP allocation is not done (no allocator yet): a Service keeps the addresses it was given.
 */
import { service } from '../../../apis/core/v1/cluster-kinds.js';
import { normalizeClusterIPs } from '../../../apis/core/v1/service-defaults.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Create, update and delete rules of Service. */
export const serviceStrategy: Strategy = newKindStrategy(service, {
  tracksGeneration: false,
  returnDeletedObject: true,
  prepareForCreate: (obj) => normalizeClusterIPs(obj),
  prepareForUpdate: (obj, old) => normalizeClusterIPs(obj, old),
});
