/**
 * The PV protection controller (`persistentvolume-protection-controller`, alias
 * `pv-protection`, on by default; upstream v1.30 pkg/controller/volume/pvprotection): a
 * PersistentVolume being deleted keeps PV_PROTECTION_FINALIZER (set by the
 * StorageObjectInUseProtection admission plugin) while its `status.phase` is `Bound`, and loses
 * it — so the deletion completes — once it is not.
 * Unlike upstream, the controller does not add the finalizer to volumes created without it.
 */
import type { Obj } from '../../apis/define.js';
import { obj, str } from '../../apis/core/v1/obj-access.js';
import { PV_PROTECTION_FINALIZER } from '../../apis/vendor.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { WorkQueue } from '../queue.js';
import { isDeletionCandidate, removeFinalizer } from './finalizer.js';

/** What the controller works with. */
export interface PVProtectionConfig {
  /** PersistentVolumes. */
  volumes: Informer;
  /** The volume store the controller writes through. */
  store: Store;
  /** Context of the controller's writes (a privileged internal user). */
  ctx: RequestContext;
  onError: (err: unknown) => void;
}

/** Upstream isBeingUsed: a volume is in use while its phase is Bound. */
export function isVolumeInUse(pv: Obj): boolean {
  return obj(pv.status)?.phase === 'Bound';
}

/** Runs the controller until `signal` aborts. */
export async function runPVProtectionController(cfg: PVProtectionConfig, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  cfg.volumes.addHandler((type, pv) => {
    if (type !== 'DELETED' && isDeletionCandidate(pv, PV_PROTECTION_FINALIZER)) queue.add(str(pv.metadata?.name));
  });
  await cfg.volumes.waitForSync();
  await queue.run(signal, (name) => syncVolume(cfg, name), (err) => cfg.onError(err));
}

/** Removes the finalizer of the volume `name` when it is being deleted and not Bound. */
async function syncVolume(cfg: PVProtectionConfig, name: string): Promise<void> {
  const pv = cfg.volumes.get(name);
  if (!pv || !isDeletionCandidate(pv, PV_PROTECTION_FINALIZER) || isVolumeInUse(pv)) return;
  await removeFinalizer(cfg.ctx, cfg.store, '', name, PV_PROTECTION_FINALIZER, (current) => !isVolumeInUse(current));
}
