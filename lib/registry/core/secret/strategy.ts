/** Secret strategy: `stringData` is merged into `data` on every write (upstream registry strategy). */
import type { Obj } from '../../../apis/define.js';
import { secret } from '../../../apis/core/v1/cluster-kinds.js';
import { mergeStringData } from '../../../apis/core/v1/secret-string-data.js';
import type { RequestContext } from '../../../request/context.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

const base = newKindStrategy(secret, { tracksGeneration: false });

/** Create, update and delete rules of Secret. */
export const secretStrategy: Strategy = {
  ...base,
  prepareForCreate(ctx: RequestContext, obj: Obj): void {
    base.prepareForCreate(ctx, obj);
    mergeStringData(obj);
  },
  prepareForUpdate(ctx: RequestContext, obj: Obj, old: Obj): void {
    base.prepareForUpdate(ctx, obj, old);
    mergeStringData(obj);
  },
};
