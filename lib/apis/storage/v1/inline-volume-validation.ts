/**
 * Validation of a VolumeAttachment's `inlineVolumeSpec` (upstream core `ValidatePersistentVolumeSpec`
 * of v1.30 with `validateInlinePersistentVolumeSpec`, which the VolumeAttachment strategy asks
 * for): an inline volume is a CSI volume with access modes and without claim, capacity, node
 * affinity, class or a reclaim policy other than Retain; exactly one volume source, checked as a
 * PersistentVolume's (core/v1 persistent-volume-source-validation.ts).
 */
import { posix } from 'node:path';
import { type FieldError, type FieldPath, forbidden, required } from '../../../apimachinery/field-errors.js';
import { obj, str, type Obj } from '../../core/v1/obj-access.js';
import { validatePersistentVolumeSource } from '../../core/v1/persistent-volume-source-validation.js';
import { validateAccessModes } from '../../core/v1/persistent-volume-validation.js';

const INLINE = 'may not be specified in the context of inline volumes';
const isSet = (v: unknown) => v !== undefined && v !== null;

/** An inline PersistentVolumeSpec at `path` (`spec.source.inlineVolumeSpec`). */
export function validateInlineVolumeSpec(spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(spec.claimRef)) errs.push(forbidden(path.child('claimRef'), INLINE));
  if (Object.keys(obj(spec.capacity) ?? {}).length > 0) errs.push(forbidden(path.child('capacity'), INLINE));
  if (!obj(spec.csi)) errs.push(required(path.child('csi'), 'has to be specified in the context of inline volumes'));
  errs.push(...validateAccessModes(spec.accessModes, path.child('accessModes')));
  const policy = str(spec.persistentVolumeReclaimPolicy);
  if (policy !== '' && policy !== 'Retain') errs.push(forbidden(path.child('persistentVolumeReclaimPolicy'), 'may only be Retain in the context of inline volumes'));
  if (isSet(spec.nodeAffinity)) errs.push(forbidden(path.child('nodeAffinity'), INLINE));
  errs.push(...validatePersistentVolumeSource(spec, '', false, path));
  const hostPath = obj(spec.hostPath);
  if (hostPath && posix.normalize(str(hostPath.path)).replace(/^\/+/, '/') === '/' && policy === 'Recycle') {
    errs.push(forbidden(path.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  if (str(spec.storageClassName) !== '') errs.push(forbidden(path.child('storageClassName'), INLINE));
  if (typeof spec.volumeMode === 'string' && spec.volumeMode !== 'Filesystem') {
    errs.push(forbidden(path.child('volumeMode'), 'may not specify volumeMode other than Filesystem in the context of inline volumes'));
  }
  return errs;
}
