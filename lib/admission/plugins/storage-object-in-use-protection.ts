/**
 * StorageObjectInUseProtection (spec 001 § Admission control, default-enabled; upstream v1.30
 * plugin of the same name): every PersistentVolumeClaim and PersistentVolume created gets the
 * finalizer PVC_PROTECTION_FINALIZER / PV_PROTECTION_FINALIZER unless it has it already, so that
 * deleting it only marks it terminating; the pvc-protection and pv-protection controllers
 * (lib/controllers) remove the finalizer once no pod uses the claim / the volume is not Bound.
 */
import { obj } from '../../apis/core/v1/obj-access.js';
import { PVC_PROTECTION_FINALIZER, PV_PROTECTION_FINALIZER } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin } from '../interface.js';
import type { AdmissionPluginFactory } from '../plugin-deps.js';

const FINALIZERS: Readonly<Record<string, string>> = {
  persistentvolumeclaims: PVC_PROTECTION_FINALIZER,
  persistentvolumes: PV_PROTECTION_FINALIZER,
};

/** The StorageObjectInUseProtection plugin. */
export class StorageObjectInUseProtection implements MutatingAdmissionPlugin {
  readonly name = 'StorageObjectInUseProtection';

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE';
  }

  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.subresource !== '' || !a.object || !Object.hasOwn(FINALIZERS, a.resource)) return;
    const finalizer = FINALIZERS[a.resource]!;
    const meta = obj(a.object.metadata) ?? {};
    const finalizers = Array.isArray(meta.finalizers) ? (meta.finalizers as unknown[]) : [];
    if (finalizers.includes(finalizer)) return;
    meta.finalizers = [...finalizers, finalizer];
    a.object.metadata = meta;
  }
}

/** The factory (the plugin reads nothing). */
export const storageObjectInUseProtectionPlugin: AdmissionPluginFactory = {
  name: 'StorageObjectInUseProtection',
  create() {
    return new StorageObjectInUseProtection();
  },
};
