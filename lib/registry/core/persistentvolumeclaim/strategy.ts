/**
 * PersistentVolumeClaim strategy (upstream v1.30 persistentvolumeclaim registry, feature gates at
 * their v1.30 defaults): status starts as `Pending` on create and is kept on main writes; fields
 * of disabled features are dropped unless the stored claim already uses them (volume attributes
 * class; a `dataSourceRef` in another namespace); `dataSource` keeps only claims and
 * VolumeSnapshots; `dataSource` and `dataSourceRef` are filled from each other; status writes drop
 * the disabled status fields. Warnings as upstream. No generation tracking.
 */
import { persistentVolumeClaim } from '../../../apis/core/v1/persistent-volume-claim.js';
import { persistentVolumeClaimWarnings } from '../../../apis/core/v1/persistent-volume-warnings.js';
import { obj, str, type Obj } from '../../../apis/core/v1/obj-access.js';
import { VOLUME_SNAPSHOT_GROUP } from '../../../apis/vendor.js';
import type { RequestContext } from '../../../request/context.js';
import { newKindStrategy, newStatusStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** A `dataSource` upstream keeps for compatibility: a claim, or a VolumeSnapshot. */
function compatibleDataSource(ds: Obj): boolean {
  const group = str(ds.apiGroup);
  return (ds.kind === 'PersistentVolumeClaim' && group === '') || (ds.kind === 'VolumeSnapshot' && group === VOLUME_SNAPSHOT_GROUP);
}

/** Copies `dataSource` to an unset `dataSourceRef`, or a local `dataSourceRef` to an unset `dataSource`. */
function normalizeDataSources(spec: Obj): void {
  const ds = obj(spec.dataSource);
  const ref = obj(spec.dataSourceRef);
  const copy = (r: Obj): Obj => ({ ...(r.apiGroup === undefined ? {} : { apiGroup: r.apiGroup }), kind: r.kind, name: r.name });
  if (ds && !ref) spec.dataSourceRef = copy(ds);
  else if (ref && !ds && str(ref.namespace) === '') spec.dataSource = copy(ref);
}

/** Upstream `DropDisabledFields`, `EnforceDataSourceBackwardsCompatibility` and `NormalizeDataSources`. */
function prepareSpec(pvc: Obj, old: Obj | undefined): void {
  const spec = obj(pvc.spec);
  if (!spec) return;
  const oldSpec = obj(old?.spec) ?? {};
  if (oldSpec.volumeAttributesClassName === undefined) delete spec.volumeAttributesClassName;
  const ref = obj(spec.dataSourceRef);
  if (ref && str(ref.namespace) !== '' && oldSpec.dataSourceRef === undefined) delete spec.dataSourceRef;
  const ds = obj(spec.dataSource);
  if (ds && oldSpec.dataSource === undefined && !compatibleDataSource(ds)) delete spec.dataSource;
  normalizeDataSources(spec);
}

const STATUS_GATED_FIELDS = ['currentVolumeAttributesClassName', 'modifyVolumeStatus', 'allocatedResources', 'allocatedResourceStatuses'];

/** Upstream `DropDisabledFieldsFromStatus`: status fields of disabled features, unless already stored. */
function dropDisabledStatusFields(pvc: Obj, old: Obj): void {
  const status = obj(pvc.status);
  const oldStatus = obj(old.status) ?? {};
  if (!status) return;
  for (const k of STATUS_GATED_FIELDS) if (oldStatus[k] === undefined) delete status[k];
}

/** Create, update and delete rules of PersistentVolumeClaim. */
export const persistentVolumeClaimStrategy: Strategy = newKindStrategy(
  persistentVolumeClaim,
  {
    tracksGeneration: false,
    returnDeletedObject: true,
    prepareForCreate: (pvc) => {
      pvc.status = { phase: 'Pending' };
      prepareSpec(pvc, undefined);
    },
    prepareForUpdate: (pvc, old) => prepareSpec(pvc, old),
  },
  {
    warningsOnCreate: (_ctx: RequestContext, pvc: Obj) => persistentVolumeClaimWarnings(pvc),
    warningsOnUpdate: (_ctx: RequestContext, pvc: Obj) => persistentVolumeClaimWarnings(pvc),
  },
);

const baseStatusStrategy = newStatusStrategy(persistentVolumeClaimStrategy);

/** Status writes of PersistentVolumeClaim: only status changes, disabled status fields are dropped. */
export const persistentVolumeClaimStatusStrategy: Strategy = newStatusStrategy(persistentVolumeClaimStrategy, {
  prepareForUpdate(ctx: RequestContext, pvc: Obj, old: Obj): void {
    baseStatusStrategy.prepareForUpdate(ctx, pvc, old);
    dropDisabledStatusFields(pvc, old);
  },
  warningsOnUpdate: () => [],
});
