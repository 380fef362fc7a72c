/**
 * Server-side apply and managed fields (spec 000 § Managed-field entry, § Merge strategy markers,
 * § Field ownership, § Update rules): the public API the write handlers call.
 *
 * - apply(): an apply patch → the merged object and its managedFields, or the conflicts
 *   (newApplyConflict builds the 409); validateApplyConfig() checks the body alone.
 * - applyWithLastApplied(): apply() with upstream's hand-over from client-side apply for the
 *   manager `kubectl` and its rewrite of the last-applied annotation.
 * - update(): any other write → the managedFields to store.
 * - validateManagedFields(): ObjectMeta validation of client-supplied entries (422).
 * - FieldSet, toFieldSet(), toFieldsV1() / fromFieldsV1(): field sets and their wire form.
 * - shareManagedFields(): one frozen copy of each distinct `fieldsV1` tree for long-held objects.
 */
export { apply, type ApplyConflicts, type ApplyOptions, type ApplySuccess, BEFORE_FIRST_APPLY_MANAGER, newUndeclaredFields, validateApplyConfig } from './apply.js';
export { type ApplyConflict, conflictMessage, newApplyConflict, printManager } from './conflicts.js';
export { ANCIENT_CHANGES_MANAGER, MAX_UPDATE_MANAGERS, UNTRACKED_FIELDS } from './entries.js';
export { fieldSetOf, toFieldSet } from './extract.js';
export { type FieldsV1, FieldsV1Error, fromFieldsV1, toFieldsV1 } from './fieldsv1.js';
export { applyWithLastApplied, buildLastApplied, LAST_APPLIED_MANAGER, type LastAppliedApplyOptions } from './last-applied.js';
export {
  decodeManagedFields,
  encodeManagedFields,
  invalidManagedFieldsAfterAdmissionWarning,
  isResetManagedFields,
  type Managed,
  type ManagedFieldsEntry,
  ManagedFieldsError,
  type ManagerSet,
  validateManagedFields,
} from './managed-fields.js';
export { type Path, type PathElement, pathString } from './path.js';
export { FieldSet } from './set.js';
export { shareManagedFields } from './shared.js';
export { TypedValueError } from './typeinfo.js';
export { undeclaredFields } from './undeclared.js';
export { update, type UpdateOptions } from './update.js';
