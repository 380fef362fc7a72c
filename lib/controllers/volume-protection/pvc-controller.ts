/**
 * The PVC protection controller (`persistentvolumeclaim-protection-controller`, alias
 * `pvc-protection`, on by default; upstream v1.30 pkg/controller/volume/pvcprotection): a
 * PersistentVolumeClaim being deleted keeps PVC_PROTECTION_FINALIZER (set by the
 * StorageObjectInUseProtection admission plugin) while a pod uses it, and loses it — so the
 * deletion completes — once none does. A pod uses a claim when it is scheduled (`spec.nodeName`
 * set) and names it in a `persistentVolumeClaim` volume, or, until the pod is shut down, in a
 * generic ephemeral volume whose claim (`<pod>-<volume>`) the pod controls. The pods are looked
 * up in the informer's cache first, then, when none there uses the claim, with a live list of the
 * namespace, so a pod the cache has not seen yet still counts.
 * Unlike upstream, the controller does not add the finalizer to claims created without it.
 */
import type { Obj } from '../../apis/define.js';
import { obj, objs, str } from '../../apis/core/v1/obj-access.js';
import { PVC_PROTECTION_FINALIZER } from '../../apis/vendor.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { EVERYTHING } from '../../storage/interface.js';
import { WorkQueue } from '../queue.js';
import { isDeletionCandidate, removeFinalizer } from './finalizer.js';

/** What the controller works with. */
export interface PVCProtectionConfig {
  /** PersistentVolumeClaims of every namespace. */
  claims: Informer;
  /** Pods of every namespace. */
  pods: Informer;
  /** The claim store the controller writes through. */
  claimStore: Store;
  /** The pod store (live lists). */
  podStore: Store;
  /** Context of the controller's writes (a privileged internal user). */
  ctx: RequestContext;
  onError: (err: unknown) => void;
}

const meta = (o: Obj): Obj => obj(o.metadata) ?? {};

/** Upstream podIsShutDown: deleted with a zero grace period (done by the node agent, or forced). */
function isShutDown(pod: Obj): boolean {
  const m = meta(pod);
  return !!m.deletionTimestamp && m.deletionGracePeriodSeconds === 0;
}

/** Upstream IsPodTerminated: Succeeded or Failed, or being deleted with no container running. */
function isTerminated(pod: Obj): boolean {
  const status = obj(pod.status) ?? {};
  if (status.phase === 'Succeeded' || status.phase === 'Failed') return true;
  const notRunning = (s: Obj) => obj(obj(s.state)?.terminated) !== undefined || obj(obj(s.state)?.waiting) !== undefined;
  return !!meta(pod).deletionTimestamp && objs(status.containerStatuses).every(notRunning);
}

/** The name of the claim of a generic ephemeral volume (upstream ephemeral.VolumeClaimName): `<pod>-<volume>`. */
function ephemeralClaimName(pod: Obj, volume: Obj): string {
  return `${str(meta(pod).name)}-${str(volume.name)}`;
}

/** Whether `pvc` is controlled by `pod` (upstream ephemeral.VolumeIsForPod). */
function isForPod(pod: Obj, pvc: Obj): boolean {
  if (str(meta(pvc).namespace) !== str(meta(pod).namespace)) return false;
  return objs(meta(pvc).ownerReferences).some((r) => r.controller === true && r.uid === meta(pod).uid);
}

/** Upstream podUsesPVC: whether the scheduled pod `pod` uses the claim `pvc`. */
export function podUsesClaim(pod: Obj, pvc: Obj): boolean {
  const spec = obj(pod.spec) ?? {};
  if (str(spec.nodeName) === '') return false;
  const claimName = str(meta(pvc).name);
  return objs(spec.volumes).some((v) => {
    const ref = obj(v.persistentVolumeClaim);
    if (ref && str(ref.claimName) === claimName) return true;
    return !isShutDown(pod) && obj(v.ephemeral) !== undefined && ephemeralClaimName(pod, v) === claimName && isForPod(pod, pvc);
  });
}

/** The claim keys (`namespace/name`) a pod's volumes refer to. */
function claimKeys(pod: Obj): string[] {
  const ns = str(meta(pod).namespace);
  const keys: string[] = [];
  for (const v of objs(obj(pod.spec)?.volumes)) {
    const pvc = obj(v.persistentVolumeClaim);
    if (pvc) keys.push(`${ns}/${str(pvc.claimName)}`);
    else if (obj(v.ephemeral)) keys.push(`${ns}/${ephemeralClaimName(pod, v)}`);
  }
  return keys;
}

/** Runs the controller until `signal` aborts. */
export async function runPVCProtectionController(cfg: PVCProtectionConfig, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  const keyOf = (o: Obj) => `${str(meta(o).namespace)}/${str(meta(o).name)}`;
  cfg.claims.addHandler((type, pvc) => {
    if (type !== 'DELETED' && isDeletionCandidate(pvc, PVC_PROTECTION_FINALIZER)) queue.add(keyOf(pvc));
  });
  cfg.pods.addHandler((type, pod) => {
    // Only a pod that is gone, finished or unscheduled can let a claim go (upstream enqueuePVCs).
    if (type !== 'DELETED' && !isTerminated(pod) && str(obj(pod.spec)?.nodeName) !== '') return;
    for (const key of claimKeys(pod)) queue.add(key);
  });
  await Promise.all([cfg.claims.waitForSync(), cfg.pods.waitForSync()]);
  await queue.run(signal, (key) => syncClaim(cfg, key), (err) => cfg.onError(err));
}

/** Removes the finalizer of the claim `key` when it is being deleted and no pod uses it. */
async function syncClaim(cfg: PVCProtectionConfig, key: string): Promise<void> {
  const pvc = cfg.claims.get(key);
  if (!pvc || !isDeletionCandidate(pvc, PVC_PROTECTION_FINALIZER)) return;
  const namespace = str(meta(pvc).namespace);
  if (cfg.pods.list().some((pod) => str(meta(pod).namespace) === namespace && podUsesClaim(pod, pvc))) return;
  const live = await cfg.podStore.list(cfg.ctx, namespace, { predicate: EVERYTHING });
  if (live.items.some((pod) => podUsesClaim(pod, pvc))) return;
  await removeFinalizer(cfg.ctx, cfg.claimStore, namespace, str(meta(pvc).name), PVC_PROTECTION_FINALIZER, () => true);
}
