/**
 * Namespace validation with the upstream paths and messages (upstream core validation
 * `ValidateNamespace`, `ValidateNamespaceStatusUpdate`, `ValidateNamespaceFinalizeUpdate`).
 * ObjectMeta (DNS-1123 label names) is checked by the caller with the kind's `nameRule`.
 */
import { type FieldError, FieldPath, invalid } from '../../../apimachinery/field-errors.js';
import { isQualifiedName } from '../../../apimachinery/validation/names.js';
import type { Obj } from '../../define.js';
import { STANDARD_FINALIZERS } from './namespace-defaults.js';

function finalizerErrors(name: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (!name.includes('/') && !STANDARD_FINALIZERS.includes(name))
    errs.push(invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  return errs;
}

function finalizersOf(ns: Obj): string[] {
  const f = (ns.spec as Obj | undefined)?.finalizers;
  return Array.isArray(f) ? (f as string[]) : [];
}

/** Create: every `spec.finalizers` entry is a qualified name or a standard finalizer (path not indexed, as upstream). */
export function validateNamespace(ns: Obj): FieldError[] {
  const path = FieldPath.of('spec', 'finalizers');
  return finalizersOf(ns).flatMap((f) => finalizerErrors(f, path));
}

/**
 * Status write: `status.phase` must be `Active` while `metadata.deletionTimestamp` is unset and
 * `Terminating` once it is set (upstream reports the path as `status.Phase`).
 */
export function validateNamespaceStatusUpdate(ns: Obj): FieldError[] {
  const phase = ((ns.status as Obj | undefined)?.phase as string | undefined) ?? '';
  const path = FieldPath.of('status', 'Phase');
  if (!(ns.metadata as Obj | undefined)?.deletionTimestamp) {
    return phase === 'Active' ? [] : [invalid(path, phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === 'Terminating' ? [] : [invalid(path, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

/** The `finalize` subresource write: each `spec.finalizers[i]` is checked as on create, with indexed paths. */
export function validateNamespaceFinalizeUpdate(ns: Obj): FieldError[] {
  return finalizersOf(ns).flatMap((f, i) => finalizerErrors(f, FieldPath.of('spec', 'finalizers').index(i)));
}
