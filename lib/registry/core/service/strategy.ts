/**
 * Service strategy: `clusterIP` and `clusterIPs` kept consistent on every write (upstream
 * `PrepareForCreate/Update` normalization); the DELETE response is the Service object.
 * Cluster IP allocation is not done (no allocator yet): a Service keeps the addresses it was given.
 */
import type { Obj } from '../../../apis/define.js';
import { service } from '../../../apis/core/v1/cluster-kinds.js';
import { normalizeClusterIPs } from '../../../apis/core/v1/service-defaults.js';
import type { RequestContext } from '../../../request/context.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

const base = newKindStrategy(service, { tracksGeneration: false, returnDeletedObject: true });

/** Create, update and delete rules of Service. */
export const serviceStrategy: Strategy = {
  ...base,
  prepareForCreate(ctx: RequestContext, obj: Obj): void {
    base.prepareForCreate(ctx, obj);
    normalizeClusterIPs(obj);
  },
  prepareForUpdate(ctx: RequestContext, obj: Obj, old: Obj): void {
    base.prepareForUpdate(ctx, obj, old);
    normalizeClusterIPs(obj, old);
  },
};
