/**
 * Warnings upstream v1.30 returns on writes of PersistentVolumes and claims
 * (`GetWarningsForPersistentVolume`, `GetWarningsForPersistentVolumeClaim`): the deprecated
 * storage class annotation, the deprecated `Recycle` reclaim policy, and fractional byte amounts
 * of a claim's storage request or limit.
 */
import { Quantity, QuantityParseError } from '../../../apimachinery/quantity.js';
import type { Obj } from '../../define.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from '../../vendor.js';
import { obj, str, strMap } from './obj-access.js';

const ANNOTATION_WARNING = `metadata.annotations[${BETA_STORAGE_CLASS_ANNOTATION}]: deprecated since v1.8; use "storageClassName" attribute instead`;

function annotationWarnings(o: Obj): string[] {
  return BETA_STORAGE_CLASS_ANNOTATION in strMap(obj(o.metadata)?.annotations) ? [ANNOTATION_WARNING] : [];
}

/** The warnings of a PersistentVolume write. */
export function persistentVolumeWarnings(pv: Obj): string[] {
  const warnings = annotationWarnings(pv);
  if (obj(pv.spec)?.persistentVolumeReclaimPolicy === 'Recycle')
    warnings.push('spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.');
  return warnings;
}

/** A storage amount that is not a whole number of bytes, in canonical form; undefined otherwise. */
function fractionalBytes(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  try {
    const q = Quantity.parse(typeof v === 'number' ? String(v) : str(v));
    return q.milliValue() % 1000n === 0n ? undefined : q.toString();
  } catch (err) {
    if (err instanceof QuantityParseError) return undefined;
    throw err;
  }
}

/** The warnings of a PersistentVolumeClaim write. */
export function persistentVolumeClaimWarnings(pvc: Obj): string[] {
  const warnings = annotationWarnings(pvc);
  const resources = obj(obj(pvc.spec)?.resources) ?? {};
  for (const list of ['requests', 'limits']) {
    const text = fractionalBytes(obj(resources[list])?.storage);
    if (text !== undefined) warnings.push(`spec.resources.${list}[storage]: fractional byte value ${JSON.stringify(text)} is invalid, must be an integer`);
  }
  return warnings;
}
