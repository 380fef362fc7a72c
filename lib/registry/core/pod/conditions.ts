/**
 * Pod status conditions as upstream's `podutil.UpdatePodCondition` sets them: a new condition is
 * appended with the current time as its transition time; an existing one of the same type is
 * replaced whole, keeping its transition time when the status did not change.
 */
import { formatTime } from '../../../apimachinery/schema/decode.js';
import type { Obj } from '../../../apis/define.js';

/** Sets `condition` (type, status, reason, message) in `pod.status.conditions` at `now`. */
export function updatePodCondition(pod: Obj, condition: Obj, now: Date = new Date()): void {
  const status = (pod.status ??= {}) as Obj;
  const conditions = (Array.isArray(status.conditions) ? status.conditions : (status.conditions = [])) as Obj[];
  const next: Obj = { ...condition, lastTransitionTime: formatTime(now) };
  const i = conditions.findIndex((c) => c.type === condition.type);
  if (i < 0) {
    conditions.push(next);
    return;
  }
  if (conditions[i]!.status === condition.status) next.lastTransitionTime = conditions[i]!.lastTransitionTime;
  conditions[i] = next;
}

/** Upstream IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Obj): boolean {
  const conditions = ((pod.status as Obj | undefined)?.conditions ?? []) as Obj[];
  return Array.isArray(conditions) && conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}
