/**
 * Ingress strategy (upstream networking ingress registry): status cleared on create and kept on
 * main writes, generation bumped by spec changes, the status subresource writing only status.
 * Create runs the create-time rules (class annotation included); updates run the update rules
 * instead, which tolerate invalid data the stored object already has.
 */
import { ingress } from '../../../apis/networking/v1/index.js';
import { newKindStrategy, newStatusStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';
import { updateOnlyValidation } from '../update-only-validation.js';

/** Create, update and delete rules of Ingress. */
export const ingressStrategy: Strategy = newKindStrategy(ingress, {}, updateOnlyValidation(ingress));

/** Rules of `ingresses/status`. */
export const ingressStatusStrategy: Strategy = newStatusStrategy(ingressStrategy);
