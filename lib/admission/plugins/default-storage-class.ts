/**
 * DefaultStorageClass (spec 001 § Admission control, default-enabled; upstream v1.30 plugin of the
 * same name): a PersistentVolumeClaim created without a class — neither `spec.storageClassName`
 * (even "") nor the beta storage-class annotation — gets the default StorageClass, one annotated
 * `storageclass.<domain>/is-default-class: "true"` (or the beta spelling). With none the claim is
 * left as it is. With several, every such claim creation is rejected, as spec 001 says ("the same
 * rule" as DefaultIngressClass; upstream did so before v1.26, v1.30 picks the newest instead), with
 * upstream's message `persistentvolumeclaims "<name>" is forbidden: Internal error occurred: <n>
 * default StorageClasses were found` (403). Updates are ignored.
 */
import type { Obj } from '../../apis/define.js';
import { obj, str, strMap } from '../../apis/core/v1/obj-access.js';
import { STORAGE_GROUP } from '../../apis/storage/v1/group.js';
import { BETA_STORAGE_CLASS_ANNOTATION, DEFAULT_STORAGE_CLASS_ANNOTATIONS } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin } from '../interface.js';
import type { AdmissionPluginFactory, Lister } from '../plugin-deps.js';

/** Whether a StorageClass is marked default (upstream IsDefaultAnnotation). */
export function isDefaultStorageClass(sc: Obj): boolean {
  const annotations = strMap(obj(sc.metadata)?.annotations);
  return DEFAULT_STORAGE_CLASS_ANNOTATIONS.some((key) => annotations[key] === 'true');
}

/** The StorageClasses among `classes` marked default. */
export function defaultStorageClasses(classes: readonly Obj[]): Obj[] {
  return classes.filter(isDefaultStorageClass);
}

/** Whether a claim names a class itself (upstream PersistentVolumeClaimHasClass). */
function hasClass(pvc: Obj): boolean {
  if (Object.hasOwn(strMap(obj(pvc.metadata)?.annotations), BETA_STORAGE_CLASS_ANNOTATION)) return true;
  const spec = obj(pvc.spec);
  return spec !== undefined && spec.storageClassName !== undefined && spec.storageClassName !== null;
}

/** The DefaultStorageClass plugin. */
export class DefaultStorageClass implements MutatingAdmissionPlugin {
  readonly name = 'DefaultStorageClass';

  constructor(private readonly storageClasses: Lister) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE';
  }

  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource !== '' || !a.object) return;
    const pvc = a.object;
    if (hasClass(pvc)) return;
    const defaults = defaultStorageClasses(this.storageClasses.list());
    if (defaults.length === 0) return;
    if (defaults.length > 1) throw admissionForbidden(a, `Internal error occurred: ${defaults.length} default StorageClasses were found`);
    const spec = obj(pvc.spec) ?? {};
    spec.storageClassName = str(obj(defaults[0]!.metadata)?.name);
    pvc.spec = spec;
  }
}

/** The factory: StorageClasses from their informer. */
export const defaultStorageClassPlugin: AdmissionPluginFactory = {
  name: 'DefaultStorageClass',
  create(deps) {
    return new DefaultStorageClass(deps.resource(STORAGE_GROUP, 'storageclasses').lister);
  },
};
