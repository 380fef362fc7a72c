/**
 * The decisions of the CRD finalizer (upstream v1.30 apiextensions `CRDFinalizer`): which CRDs it
 * works on, what it does with their custom objects, and the `Terminating` condition it reports
 * at each step, with upstream's reasons and messages. Pure; the loop is finalizer-controller.ts.
 */
import type { CustomResourceDefinition } from '../../apiextensions/types.js';
import { deepEqual } from '../../apimachinery/deep-equal.js';
import { aggregateMessage } from '../../apimachinery/errors.js';
import { CRD_CLEANUP_FINALIZER, vendorGroup } from '../../apis/vendor.js';
import { type Condition, ESTABLISHED, TERMINATING, isConditionTrue, removeCondition } from './conditions.js';

/** Set before the custom objects are deleted. */
export const DELETION_IN_PROGRESS: Condition = { type: TERMINATING, status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' };
/** Set when no custom object is left. */
export const DELETION_COMPLETED: Condition = { type: TERMINATING, status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
/** Set when the CRD was never Established: it has no objects to delete. */
export const NEVER_ESTABLISHED: Condition = { type: TERMINATING, status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
/** Set when the CRD's storage path is a built-in resource's: its objects are left alone. */
export const OVERLAPPING_BUILT_IN: Condition = { type: TERMINATING, status: 'False', reason: 'OverlappingBuiltInResource', message: 'instances overlap with built-in resources in storage' };

/** Upstream's text of a poll that gave up (`wait.ErrWaitTimeout`). */
export const WAIT_TIMEOUT_MESSAGE = 'timed out waiting for the condition';

/** The message of a thrown value (an Error's message, else its string form). */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Terminating True `InstanceDeletionFailed` after the objects could not be listed. */
export function listFailed(err: unknown): Condition {
  return { type: TERMINATING, status: 'True', reason: 'InstanceDeletionFailed', message: `could not list instances: ${errorMessage(err)}` };
}

/** Terminating True `InstanceDeletionFailed` after some namespaces' deletes failed (`errs`: at least one). */
export function deletesFailed(errs: readonly unknown[]): Condition {
  return { type: TERMINATING, status: 'True', reason: 'InstanceDeletionFailed', message: `could not issue all deletes: ${aggregateMessage(errs.map(errorMessage))}` };
}

/** Terminating True `InstanceDeletionCheck` when the objects could not be seen gone (`err`: the poll's error). */
export function checkFailed(err: unknown): Condition {
  return { type: TERMINATING, status: 'True', reason: 'InstanceDeletionCheck', message: `could not confirm zero CustomResources remaining: ${errorMessage(err)}` };
}

/** Whether `crd` is being deleted and still holds the cleanup finalizer. */
export function needsFinalization(crd: CustomResourceDefinition): boolean {
  return !!crd.metadata?.deletionTimestamp && (crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER);
}

/** `finalizers` without the cleanup finalizer. */
export function withoutCleanupFinalizer(finalizers: readonly string[] | undefined): string[] {
  return (finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
}

/**
 * The built-in resources whose storage paths a CRD of the same group and plural would share
 * (upstream `OverlappingBuiltInResources`), as `<plural>.<group>`.
 */
const OVERLAPPING = new Set([`apiservices.${vendorGroup('apiregistration')}`, `customresourcedefinitions.${vendorGroup('apiextensions')}`]);

/**
 * What the finalizer does with the objects of `crd`: `skip` them when its storage overlaps a
 * built-in resource's (then Terminating is OVERLAPPING_BUILT_IN), `delete` them when it is
 * Established, else nothing to delete (`neverEstablished`, Terminating NEVER_ESTABLISHED).
 */
export function cleanupPlan(crd: CustomResourceDefinition): 'skip' | 'delete' | 'neverEstablished' {
  if (OVERLAPPING.has(`${crd.spec?.names?.plural ?? ''}.${crd.spec?.group ?? ''}`)) return 'skip';
  return isConditionTrue(crd, ESTABLISHED) ? 'delete' : 'neverEstablished';
}

/** `crd` as compared for a change: without resourceVersion, managed fields and the Terminating condition. */
function comparable(crd: CustomResourceDefinition): CustomResourceDefinition {
  const status = crd.status ? { ...crd.status } : undefined;
  if (status) removeCondition(status, TERMINATING);
  return { ...crd, metadata: { ...crd.metadata, resourceVersion: '', managedFields: undefined }, status };
}

/**
 * Whether an update from `old` to `current` should wake the finalizer (upstream's update
 * handler): the same resourceVersion (a relist) does; otherwise only a change beyond the
 * Terminating condition does, so that the finalizer's own status writes do not requeue it (nor
 * bypass the backoff of a failed attempt). Unlike upstream, the managed fields those writes
 * update are ignored too.
 */
export function changedBeyondTerminating(old: CustomResourceDefinition, current: CustomResourceDefinition): boolean {
  if (old.metadata?.resourceVersion === current.metadata?.resourceVersion) return true;
  return !deepEqual(comparable(old), comparable(current));
}
