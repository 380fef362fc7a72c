/** NetworkPolicy strategy (upstream networking networkpolicy registry): generation 1 at create, bumped by spec changes. */
import { networkPolicy } from '../../../apis/networking/v1/index.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Create, update and delete rules of NetworkPolicy. */
export const networkPolicyStrategy: Strategy = newKindStrategy(networkPolicy, { tracksGeneration: true });
