/** IngressClass strategy (upstream networking ingressclass registry): generation 1 at create, bumped by spec changes. */
import { ingressClass } from '../../../apis/networking/v1/index.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Create, update and delete rules of IngressClass. */
export const ingressClassStrategy: Strategy = newKindStrategy(ingressClass, { tracksGeneration: true });
