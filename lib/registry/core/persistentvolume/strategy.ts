/**
 * PersistentVolume strategy (upstream v1.30 persistentvolume registry, feature gates at their
 * v1.30 defaults): on create the status is `Pending` with the transition time now; main writes
 * keep the status; the volume attributes class (alpha, off) is dropped unless already stored;
 * status writes stamp `lastPhaseTransitionTime` when the phase changes and the client did not
 * set a new one. Warnings as upstream. No generation tracking.
 */
import { persistentVolume } from '../../../apis/core/v1/persistent-volume.js';
import { persistentVolumeWarnings } from '../../../apis/core/v1/persistent-volume-warnings.js';
import { obj, type Obj } from '../../../apis/core/v1/obj-access.js';
import { formatTime } from '../../../apimachinery/schema/decode.js';
import type { RequestContext } from '../../../request/context.js';
import { newKindStrategy, newStatusStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Upstream `DropDisabledSpecFields`: the volume attributes class, unless the stored volume has one. */
function dropDisabledSpecFields(pv: Obj, old: Obj | undefined): void {
  const spec = obj(pv.spec);
  if (spec && obj(old?.spec)?.volumeAttributesClassName === undefined) delete spec.volumeAttributesClassName;
}

/** Create, update and delete rules of PersistentVolume. */
export const persistentVolumeStrategy: Strategy = newKindStrategy(
  persistentVolume,
  {
    tracksGeneration: false,
    returnDeletedObject: true,
    prepareForCreate: (pv) => {
      pv.status = { phase: 'Pending', lastPhaseTransitionTime: formatTime(new Date()) };
      dropDisabledSpecFields(pv, undefined);
    },
    prepareForUpdate: (pv, old) => dropDisabledSpecFields(pv, old),
  },
  {
    warningsOnCreate: (_ctx: RequestContext, pv: Obj) => persistentVolumeWarnings(pv),
    warningsOnUpdate: (_ctx: RequestContext, pv: Obj) => persistentVolumeWarnings(pv),
  },
);

/** A phase change stamps the transition time unless the client set a new one. */
function stampPhaseTransition(pv: Obj, old: Obj): void {
  const status = obj(pv.status);
  const oldStatus = obj(old.status) ?? {};
  if (!status) return;
  if (status.phase === oldStatus.phase) {
    if (status.lastPhaseTransitionTime === undefined && oldStatus.lastPhaseTransitionTime !== undefined) status.lastPhaseTransitionTime = oldStatus.lastPhaseTransitionTime;
  } else if (status.lastPhaseTransitionTime === undefined || status.lastPhaseTransitionTime === oldStatus.lastPhaseTransitionTime) {
    status.lastPhaseTransitionTime = formatTime(new Date());
  }
}

const baseStatusStrategy = newStatusStrategy(persistentVolumeStrategy);

/** Status writes of PersistentVolume: only status changes, with the phase transition time. */
export const persistentVolumeStatusStrategy: Strategy = newStatusStrategy(persistentVolumeStrategy, {
  prepareForUpdate(ctx: RequestContext, pv: Obj, old: Obj): void {
    baseStatusStrategy.prepareForUpdate(ctx, pv, old);
    stampPhaseTransition(pv, old);
  },
  warningsOnUpdate: () => [],
});
