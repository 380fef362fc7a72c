/**
 * LimitRange strategy (upstream v1.30 limitrange registry): a PUT may create, a create without
 * any name is given a random UUID name, no generation tracking.
 */
import { randomUUID } from 'node:crypto';
import { limitRange } from '../../../apis/core/v1/limit-range.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import { metaOf } from '../../generic/object-meta.js';
import type { Strategy } from '../../rest/strategy.js';

/** Create, update and delete rules of LimitRange. */
export const limitRangeStrategy: Strategy = newKindStrategy(limitRange, {
  tracksGeneration: false,
  allowCreateOnUpdate: true,
  prepareForCreate: (lr) => {
    const meta = metaOf(lr);
    if (!meta.name) meta.name = randomUUID();
  },
});
