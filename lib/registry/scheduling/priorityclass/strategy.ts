/**
 * PriorityClass strategy (upstream scheduling priorityclass registry): generation 1 at create and
 * never bumped; updates are checked for immutability only (not against the create rules).
 */
import { priorityClass } from '../../../apis/scheduling/v1/index.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import { metaOf } from '../../generic/object-meta.js';
import type { Strategy } from '../../rest/strategy.js';
import { updateOnlyValidation } from '../../networking/update-only-validation.js';

/** Create, update and delete rules of PriorityClass. */
export const priorityClassStrategy: Strategy = newKindStrategy(
  priorityClass,
  { tracksGeneration: false, prepareForCreate: (pc) => void (metaOf(pc).generation = 1) },
  updateOnlyValidation(priorityClass),
);
