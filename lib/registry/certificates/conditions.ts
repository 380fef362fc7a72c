/**
 * Condition bookkeeping of CertificateSigningRequest subresource writes (upstream certificates
 * registry of v1.30): a status write keeps the stored Approved and Denied conditions as they
 * were, and both subresources stamp the conditions they leave without times.
 */
import { deepCopy } from '../../apimachinery/deep-equal.js';
import { formatTime } from '../../apimachinery/schema/decode.js';
import { obj, objs, str } from '../../apis/core/v1/obj-access.js';
import type { Obj } from '../../apis/define.js';

const conditionsOf = (csr: Obj): Obj[] => objs(obj(csr.status)?.conditions);
const isZeroTime = (v: unknown) => typeof v !== 'string' || v === '';

/**
 * Puts back the stored conditions of `type` over the new ones of that type, by position, when
 * their number did not change (upstream `preserveConditionInstances`); an added or removed one
 * is left for validation to refuse.
 */
export function preserveConditions(csr: Obj, old: Obj, type: string): void {
  const before = conditionsOf(old).filter((c) => c.type === type);
  const conditions = conditionsOf(csr);
  const indices = conditions.flatMap((c, i) => (c.type === type ? [i] : []));
  if (indices.length !== before.length) return;
  const list = (obj(csr.status)!.conditions as unknown[]);
  indices.forEach((at, i) => (list[at] = deepCopy(before[i])));
}

/**
 * Sets a missing `lastUpdateTime` to now, and a missing `lastTransitionTime` to the stored one of
 * the same type and status, else now (upstream `populateConditionTimestamps`).
 */
export function stampConditions(csr: Obj, old: Obj, now: Date = new Date()): void {
  const text = formatTime(now);
  for (const c of conditionsOf(csr)) {
    if (isZeroTime(c.lastUpdateTime)) c.lastUpdateTime = text;
    if (isZeroTime(c.lastTransitionTime)) {
      const same = conditionsOf(old).find((o) => o.type === c.type && str(o.status) === str(c.status) && !isZeroTime(o.lastTransitionTime));
      c.lastTransitionTime = same ? same.lastTransitionTime : text;
    }
  }
}
