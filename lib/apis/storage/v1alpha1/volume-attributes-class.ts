/**
 * storage/v1alpha1 VolumeAttributesClass: mutable attributes a CSI driver applies to volumes
 * (upstream v1.30 k8s.io/api/storage/v1alpha1 field structure and protobuf numbers; off by
 * default, spec 001 § API versions and groups). Cluster-scoped. Validation as upstream
 * `ValidateVolumeAttributesClass` / `ValidateVolumeAttributesClassUpdate`: `driverName` required
 * and a qualified name once lower-cased; `parameters` as a StorageClass's but not empty; both
 * immutable.
 */
import { type FieldError, FieldPath, forbidden, invalid, required, tooLong } from '../../../apimachinery/field-errors.js';
import { field, mapOf, string } from '../../../apimachinery/schema/builder.js';
import { isQualifiedName } from '../../../apimachinery/validation/names.js';
import { obj, str, strMap, type Obj } from '../../core/v1/obj-access.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { volumeAttributesClassPrinter } from '../../printers/alpha.js';
import { STORAGE_GROUP } from '../v1/group.js';
import { MAX_PARAMETERS, MAX_PARAMETERS_SIZE } from '../v1/storage-class-validation.js';

const DRIVER = FieldPath.of('driverName');
const PARAMETERS = FieldPath.of('parameters');

/** `driverName` (upstream `validateProvisioner`): required, a qualified name once lower-cased. */
function validateDriverName(name: string): FieldError[] {
  if (name === '') return [required(DRIVER, '')];
  const lower = name.toLowerCase();
  return isQualifiedName(lower).map((m) => invalid(DRIVER, lower, m));
}

/** `parameters` (upstream `validateParameters` without allowEmpty): at most 512 entries and 256 KiB, no empty key, at least one entry. */
function validateParameters(params: unknown): FieldError[] {
  const entries = Object.entries(strMap(params));
  if (entries.length > MAX_PARAMETERS) return [tooLong(PARAMETERS, 'Provisioner Parameters exceeded max allowed', MAX_PARAMETERS)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k === '') errs.push(invalid(PARAMETERS, k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > MAX_PARAMETERS_SIZE) errs.push(tooLong(PARAMETERS, '', MAX_PARAMETERS_SIZE));
  if (entries.length === 0) errs.push(required(PARAMETERS, 'must contain at least one key/value pair'));
  return errs;
}

/** Create and update: driver name, then parameters. */
export function validateVolumeAttributesClass(vac: Obj): FieldError[] {
  return [...validateDriverName(str(vac.driverName)), ...validateParameters(vac.parameters)];
}

/** Update: `driverName` and `parameters` may not change. */
export function validateVolumeAttributesClassUpdate(vac: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (str(vac.driverName) !== str(old.driverName)) errs.push(forbidden(DRIVER, 'updates to driverName are forbidden.'));
  if (!semanticEqual(obj(vac.parameters) ?? {}, obj(old.parameters) ?? {})) errs.push(forbidden(PARAMETERS, 'updates to parameters are forbidden.'));
  return errs;
}

/** The VolumeAttributesClass kind (`vac`). */
export const volumeAttributesClass = defineKind({
  group: STORAGE_GROUP,
  version: 'v1alpha1',
  kind: 'VolumeAttributesClass',
  resource: 'volumeattributesclasses',
  singular: 'volumeattributesclass',
  namespaced: false,
  shortNames: ['vac'],
  description: 'A class of mutable attributes a CSI driver applies to the volumes that name it.',
  printerColumns: volumeAttributesClassPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    driverName: field(2, string, { omitEmpty: false, description: 'Name of the CSI driver; immutable.' }),
    parameters: field(3, mapOf(string), { description: 'Driver-specific attributes of the class; immutable.' }),
  },
  validate: validateVolumeAttributesClass,
  validateUpdate: validateVolumeAttributesClassUpdate,
});
