/**
 * The condition helpers of CustomResourceDefinition status (upstream apiextensions `apihelpers`:
 * FindCRDCondition, SetCRDCondition, RemoveCRDCondition, IsCRDConditionTrue,
 * IsCRDConditionEquivalent) and the condition types the in-server CRD controllers write. Pure:
 * the caller passes the time of a write.
 */
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionStatus } from '../../apiextensions/types.js';
import { formatTime } from '../../apimachinery/schema/decode.js';

/** Condition types (upstream apiextensions v1 `CustomResourceDefinitionConditionType`). */
export const ESTABLISHED = 'Established';
export const NAMES_ACCEPTED = 'NamesAccepted';
export const TERMINATING = 'Terminating';

/** A condition as the controllers compute it: no lastTransitionTime (set when written). */
export type Condition = Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'> & { reason: string; message: string };

/** The condition of `type` in `status`, or undefined. */
export function findCondition(status: CustomResourceDefinitionStatus | undefined, type: string): CustomResourceDefinitionCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

/** Whether `crd` has the condition `type` with status True. */
export function isConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return findCondition(crd.status, type)?.status === 'True';
}

/**
 * Whether two conditions say the same (type, status, reason, message; the time is ignored); two
 * absent conditions are equivalent, one absent is not.
 */
export function isConditionEquivalent(a: CustomResourceDefinitionCondition | undefined, b: CustomResourceDefinitionCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '');
}

/**
 * Sets `cond` in `status.conditions` (mutates `status`): a new type is appended with
 * `lastTransitionTime` = `now` (RFC 3339, second precision); an existing one takes the new reason
 * and message, and its time changes only when its status does (or it had no time).
 */
export function setCondition(status: CustomResourceDefinitionStatus, cond: Condition, now: Date): void {
  const time = formatTime(now);
  const conditions = (status.conditions ??= []);
  const existing = conditions.find((c) => c.type === cond.type);
  if (!existing) {
    conditions.push({ type: cond.type, status: cond.status, lastTransitionTime: time, reason: cond.reason, message: cond.message });
    return;
  }
  if (existing.status !== cond.status || !existing.lastTransitionTime) {
    existing.status = cond.status;
    existing.lastTransitionTime = time;
  }
  existing.reason = cond.reason;
  existing.message = cond.message;
}

/** Removes the condition of `type` from `status` (mutates it; no-op when absent). */
export function removeCondition(status: CustomResourceDefinitionStatus, type: string): void {
  if (status.conditions) status.conditions = status.conditions.filter((c) => c.type !== type);
}
