/**
 * Namespace defaulting and write preparation (upstream core/v1 `SetDefaults_Namespace`,
 * `SetDefaults_NamespaceStatus`, and the namespace strategy's PrepareForCreate and
 * PrepareForUpdate). spec 000 § Object deletion lifecycle: the vendor finalizer holds a namespace
 * until its contents are deleted.
 */
import { deepCopy } from '../../../apimachinery/deep-equal.js';
import type { Obj } from '../../define.js';
import { VENDOR, vendorKey } from '../../vendor.js';

/** The finalizer the server puts on every namespace at create; the namespace controller removes it. */
export const NAMESPACE_FINALIZER = VENDOR;

/** Label carrying the namespace's own name, so selectors can match namespaces by name. */
export const NAMESPACE_NAME_LABEL = vendorKey('metadata.name');

/** Finalizer names accepted without a `/` prefix (upstream `IsStandardFinalizerName`). */
export const STANDARD_FINALIZERS: readonly string[] = [NAMESPACE_FINALIZER, 'orphan', 'foregroundDeletion'];

/** Sets the name label to the namespace's name (skipped while only `generateName` is known). */
export function defaultNamespace(ns: Obj): void {
  const meta = ns.metadata as Obj | undefined;
  const name = meta?.name;
  if (!meta || typeof name !== 'string' || name === '') return;
  meta.labels = { ...((meta.labels as Obj | undefined) ?? {}), [NAMESPACE_NAME_LABEL]: name };
}

/**
 * Create-time preparation for the registry strategy: status becomes `{phase: Active}` and the
 * vendor finalizer is appended to `spec.finalizers` when missing. Mutates `ns`.
 */
export function prepareNamespaceForCreate(ns: Obj): void {
  ns.status = { phase: 'Active' };
  const spec = ((ns.spec as Obj | undefined) ?? {}) as Obj;
  const finalizers = Array.isArray(spec.finalizers) ? (spec.finalizers as string[]) : [];
  if (!finalizers.includes(NAMESPACE_FINALIZER)) spec.finalizers = [...finalizers, NAMESPACE_FINALIZER];
  ns.spec = spec;
}

/**
 * Update-time preparation for the registry strategy: a main-resource write cannot change
 * `spec.finalizers` (only the `finalize` subresource can) nor `status`; both are carried over
 * from `old`. Mutates `ns`.
 */
export function prepareNamespaceForUpdate(ns: Obj, old: Obj): void {
  const finalizers = (old.spec as Obj | undefined)?.finalizers;
  const spec = { ...((ns.spec as Obj | undefined) ?? {}) };
  if (finalizers === undefined) delete spec.finalizers;
  else spec.finalizers = deepCopy(finalizers);
  ns.spec = spec;
  if (old.status === undefined) delete ns.status;
  else ns.status = deepCopy(old.status);
}
