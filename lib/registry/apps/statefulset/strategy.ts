/**
 * StatefulSet strategy (upstream statefulset registry of v1.30): status cleared on create and
 * kept on main writes, generation bumped by spec changes, and the fields of disabled features
 * dropped first — `updateStrategy.rollingUpdate.maxUnavailable` belongs to the alpha
 * MaxUnavailableStatefulSet gate, off in v1.30, so it is dropped unless the stored object already
 * uses it (upstream `dropStatefulSetDisabledFields`).
 */
import { statefulSet } from '../../../apis/apps/v1/index.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** The rolling update parameters of a StatefulSet, if set. */
function rollingUpdateOf(o: Obj | undefined): Obj | undefined {
  const ru = ((o?.spec as Obj | undefined)?.updateStrategy as Obj | undefined)?.rollingUpdate;
  return ru !== null && typeof ru === 'object' ? (ru as Obj) : undefined;
}

/** Drops `maxUnavailable` unless `old` sets it. */
function dropDisabledFields(obj: Obj, old?: Obj): void {
  if (rollingUpdateOf(old)?.maxUnavailable != null) return;
  const ru = rollingUpdateOf(obj);
  if (ru) delete ru.maxUnavailable;
}

const base = newKindStrategy(statefulSet, { prepareForCreate: (obj) => dropDisabledFields(obj) });

/** Create, update and delete rules of StatefulSet. */
export const statefulSetStrategy: Strategy = {
  ...base,
  prepareForUpdate(ctx: RequestContext, obj: Obj, old: Obj): void {
    dropDisabledFields(obj, old);
    base.prepareForUpdate(ctx, obj, old);
  },
};
