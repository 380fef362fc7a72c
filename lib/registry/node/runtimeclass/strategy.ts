/**
 * RuntimeClass strategy (upstream node runtimeclass registry): no generation, a PUT of a missing
 * class creates it, and an update must carry `metadata.resourceVersion`.
 */
import { runtimeClass } from '../../../apis/node/v1/index.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Create, update and delete rules of RuntimeClass. */
export const runtimeClassStrategy: Strategy = newKindStrategy(runtimeClass, { tracksGeneration: false, allowCreateOnUpdate: true, allowUnconditionalUpdate: false });
