/**
 * Job strategy: at create, the Job gets its generated selector and template labels (unless
 * `manualSelector`), status is cleared and generation starts at 1 (upstream job registry).
 */
import { generateJobSelector, job } from '../../../apis/batch/v1/index.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Create, update and delete rules of Job. */
export const jobStrategy: Strategy = newKindStrategy(job, { prepareForCreate: generateJobSelector });
