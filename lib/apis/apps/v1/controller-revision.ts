/**
 * apps/v1 ControllerRevision: an immutable snapshot of a controller's state (DaemonSet and
 * StatefulSet history). Upstream v1.30 fields and protobuf numbers: `data` (a RawExtension, any
 * JSON value) and `revision` (int64). Validation as `ValidateControllerRevision(Update)`: `data`
 * is mandatory and immutable, `revision` non-negative (and, as upstream, may change). No short
 * name, no category, no status.
 */
import { type FieldError, FieldPath, invalid, required } from '../../../apimachinery/field-errors.js';
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import { field, int64, raw } from '../../../apimachinery/schema/builder.js';
import { validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { defineKind, type Obj } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { controllerRevisionPrinter } from '../../printers/workloads.js';

/** `data` is set (not null) and `revision` is non-negative. */
export function validateControllerRevision(cr: Obj): FieldError[] {
  const errs = cr.data == null ? [required(FieldPath.of('data'), 'data is mandatory')] : [];
  errs.push(...validateNonnegative(cr.revision, FieldPath.of('revision')));
  return errs;
}

/** `data` never changes. */
export function validateControllerRevisionUpdate(cr: Obj, old: Obj): FieldError[] {
  return deepEqual(cr.data, old.data) ? [] : [invalid(FieldPath.of('data'), cr.data ?? null, 'field is immutable')];
}

/** The apps/v1 ControllerRevision kind. */
export const controllerRevision = defineKind({
  group: 'apps',
  version: 'v1',
  kind: 'ControllerRevision',
  resource: 'controllerrevisions',
  singular: 'controllerrevision',
  namespaced: true,
  nameRule: 'dns1123Subdomain',
  description: 'An immutable snapshot of state data, kept by controllers for updates and rollbacks.',
  printerColumns: controllerRevisionPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    data: field(2, raw, { omitEmpty: false, description: 'The serialized state.' }),
    revision: field(3, int64, { required: true, omitEmpty: false, description: 'The revision of the state in data.' }),
  },
  validate: validateControllerRevision,
  validateUpdate: validateControllerRevisionUpdate,
});
