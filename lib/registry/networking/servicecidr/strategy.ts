/**
 * Strategies of `networking.<vendor>/v1alpha1` ServiceCIDR and its `status` subresource
 * (upstream v1.30 pkg/registry/networking/servicecidr/strategy.go): no generation; main writes
 * reset (create) or keep (update) the status; status writes change only the status.
 */
import { serviceCIDR } from '../../../apis/networking/v1alpha1/index.js';
import { newKindStrategy, newStatusStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

export const serviceCIDRStrategy: Strategy = newKindStrategy(serviceCIDR, { tracksGeneration: false });
export const serviceCIDRStatusStrategy: Strategy = newStatusStrategy(serviceCIDRStrategy);
