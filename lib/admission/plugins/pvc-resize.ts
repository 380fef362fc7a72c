/**
 * PersistentVolumeClaimResize (spec 001 § Admission control, default-enabled; upstream v1.30
 * plugin of the same name), validating: an update that raises a claim's
 * `spec.resources.requests.storage` is allowed only when the stored claim is Bound and its class
 * (the beta storage-class annotation, else `spec.storageClassName`) is set, unchanged, and names a
 * StorageClass with `allowVolumeExpansion: true`. Rejections are 403 with upstream's messages.
 */
import { newForbidden } from '../../apimachinery/errors.js';
import { Quantity } from '../../apimachinery/quantity.js';
import type { Obj } from '../../apis/define.js';
import { obj, str, strMap } from '../../apis/core/v1/obj-access.js';
import { STORAGE_GROUP } from '../../apis/storage/v1/group.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, ValidatingAdmissionPlugin } from '../interface.js';
import type { AdmissionPluginFactory } from '../plugin-deps.js';

/** Upstream's rejection of growing a claim that is not Bound. */
export const NOT_BOUND_MESSAGE = 'Only bound persistent volume claims can be expanded';
/** Upstream's rejection of growing a claim whose class does not allow expansion. */
export const NOT_EXPANDABLE_MESSAGE = 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

/** Looks a StorageClass up by name (informer cache first, then a live read); null when absent. */
export type StorageClassGetter = (name: string) => Promise<Obj | null>;

/** A claim's requested storage (absent or unparsable: zero). */
function requestedStorage(pvc: Obj | null): Quantity {
  const raw = obj(obj(obj(pvc?.spec)?.resources)?.requests)?.storage;
  try {
    return Quantity.parse(typeof raw === 'number' ? String(raw) : str(raw) || '0');
  } catch {
    return Quantity.fromInt(0);
  }
}

/** A claim's class (upstream GetPersistentVolumeClaimClass): the beta annotation wins, else `spec.storageClassName`, else ''. */
export function claimClass(pvc: Obj | null): string {
  const annotations = strMap(obj(pvc?.metadata)?.annotations);
  if (Object.hasOwn(annotations, BETA_STORAGE_CLASS_ANNOTATION)) return annotations[BETA_STORAGE_CLASS_ANNOTATION]!;
  return str(obj(pvc?.spec)?.storageClassName);
}

/** The PersistentVolumeClaimResize plugin. */
export class PersistentVolumeClaimResize implements ValidatingAdmissionPlugin {
  readonly name = 'PersistentVolumeClaimResize';

  constructor(private readonly storageClass: StorageClassGetter) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'UPDATE';
  }

  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource !== '' || !a.object || !a.oldObject) return;
    if (requestedStorage(a.object).cmp(requestedStorage(a.oldObject)) <= 0) return;
    const gr = { group: a.group, resource: a.resource };
    if (obj(a.oldObject.status)?.phase !== 'Bound') throw newForbidden(gr, a.name, NOT_BOUND_MESSAGE);
    if (!(await this.allowsExpansion(a.object, a.oldObject))) throw newForbidden(gr, a.name, NOT_EXPANDABLE_MESSAGE);
  }

  /** Upstream allowResize: the class is set, unchanged, and allows volume expansion. */
  private async allowsExpansion(pvc: Obj, old: Obj): Promise<boolean> {
    const name = claimClass(pvc);
    if (name === '' || name !== claimClass(old)) return false;
    const sc = await this.storageClass(name);
    return sc?.allowVolumeExpansion === true;
  }
}

/** The factory: StorageClasses from their informer, read live when the informer has not seen one yet. */
export const persistentVolumeClaimResizePlugin: AdmissionPluginFactory = {
  name: 'PersistentVolumeClaimResize',
  create(deps) {
    const classes = deps.resource(STORAGE_GROUP, 'storageclasses');
    return new PersistentVolumeClaimResize(async (name) => classes.lister.get('', name) ?? (await classes.get('', name)));
  },
};
