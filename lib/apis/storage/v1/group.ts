/**
 * The `storage.<vendor>` API group and the name checks its kinds share (upstream storage and
 * core validation of v1.30): CSI driver names.
 */
import { type FieldError, type FieldPath, invalid, required, tooLong } from '../../../apimachinery/field-errors.js';
import { isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { vendorGroup } from '../../vendor.js';

/** The API group of StorageClass, CSIDriver, CSINode, VolumeAttachment and CSIStorageCapacity. */
export const STORAGE_GROUP = vendorGroup('storage');

/** Definition id prefix of storage/v1 structs. */
export const STORAGE = 'api.storage.v1';

/** Longest CSI driver name (upstream `ValidateCSIDriverName`). */
export const CSI_DRIVER_NAME_MAX = 63;

/**
 * A CSI driver name (upstream core `ValidateCSIDriverName`): required, at most 63 characters, a
 * DNS subdomain once lower-cased (the bad value is shown as written). With `skipRequired` an
 * empty name reports only the subdomain error, for fields whose `Required value` the declarative
 * walk already reports.
 */
export function validateCSIDriverName(name: string, path: FieldPath, skipRequired = false): FieldError[] {
  const errs: FieldError[] = [];
  if (name === '' && !skipRequired) errs.push(required(path));
  if (name.length > CSI_DRIVER_NAME_MAX) errs.push(tooLong(path, name, CSI_DRIVER_NAME_MAX));
  for (const m of isDNS1123Subdomain(name.toLowerCase())) errs.push(invalid(path, name, m));
  return errs;
}
