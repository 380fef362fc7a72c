/**
 * Job strategy: at create, the Job gets its generated selector and template labels (unless
 * `manualSelector`), status is cleared and generation starts at 1 (upstream job registry).
 */
import { generateJobSelector, job } from '../../../apis/batch/v1/index.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

const base = newKindStrategy(job);

/** Create, update and delete rules of Job. */
export const jobStrategy: Strategy = {
  ...base,
  prepareForCreate(ctx: RequestContext, obj: Obj): void {
    base.prepareForCreate(ctx, obj);
    generateJobSelector(obj);
  },
};
