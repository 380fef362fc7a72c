/** Secret strategy: `stringData` is merged into `data` on every write (upstream registry strategy). */
import { secret } from '../../../apis/core/v1/cluster-kinds.js';
import { mergeStringData } from '../../../apis/core/v1/secret-string-data.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Create, update and delete rules of Secret. */
export const secretStrategy: Strategy = newKindStrategy(secret, {
  tracksGeneration: false,
  prepareForCreate: mergeStringData,
  prepareForUpdate: mergeStringData,
});
