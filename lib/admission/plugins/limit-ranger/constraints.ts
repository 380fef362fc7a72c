/**
 * The checks of one LimitRange item against observed requests and limits (spec 001 § Admission
 * control; upstream v1.30 LimitRanger's minConstraint, maxConstraint, maxRequestConstraint and
 * limitRequestRatioConstraint), each returning upstream's message or undefined, and upstream's
 * aggregation of several messages into one.
 */
import { Quantity } from '../../../apimachinery/quantity.js';
import type { ResourceList } from './resources.js';

/** Upstream resource.MaxMilliValue: the largest value whose thousandths fit an int64. */
const MAX_MILLI_VALUE = 9223372036854775807n / 1000n;
const ZERO = Quantity.fromInt(0);

/**
 * The request, limit and enforced values at a common precision (upstream
 * requestLimitEnforcedValues): thousandths when all three allow it, whole units otherwise; an
 * absent quantity counts as zero.
 */
function commonValues(req: Quantity | undefined, lim: Quantity | undefined, enforced: Quantity): [bigint, bigint, bigint] {
  const r = req ?? ZERO;
  const l = lim ?? ZERO;
  const whole: [bigint, bigint, bigint] = [r.value(), l.value(), enforced.value()];
  if (whole.every((v) => v <= MAX_MILLI_VALUE)) return [r.milliValue(), l.milliValue(), enforced.milliValue()];
  return whole;
}

/**
 * `min` of `resource` for `limitType` (`Container`, `Pod`, `PersistentVolumeClaim`): a request
 * is required and must reach it; a limit, when given, too.
 */
export function minConstraint(limitType: string, resource: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(resource);
  const lim = limits.get(resource);
  const [r, l, e] = commonValues(req, lim, enforced);
  if (!req) return `minimum ${resource} usage per ${limitType} is ${enforced}.  No request is specified`;
  if (r < e) return `minimum ${resource} usage per ${limitType} is ${enforced}, but request is ${req}`;
  if (lim && l < e) return `minimum ${resource} usage per ${limitType} is ${enforced}, but limit is ${lim}`;
  return undefined;
}

/** `max` of `resource`: a limit is required and may not exceed it; a request, when given, neither. */
export function maxConstraint(limitType: string, resource: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(resource);
  const lim = limits.get(resource);
  const [r, l, e] = commonValues(req, lim, enforced);
  if (!lim) return `maximum ${resource} usage per ${limitType} is ${enforced}.  No limit is specified`;
  if (l > e) return `maximum ${resource} usage per ${limitType} is ${enforced}, but limit is ${lim}`;
  if (req && r > e) return `maximum ${resource} usage per ${limitType} is ${enforced}, but request is ${req}`;
  return undefined;
}

/** `max` of `resource` where only requests count (claims): a request is required and may not exceed it. */
export function maxRequestConstraint(limitType: string, resource: string, enforced: Quantity, requests: ResourceList): string | undefined {
  const req = requests.get(resource);
  const [r, , e] = commonValues(req, undefined, enforced);
  if (!req) return `maximum ${resource} usage per ${limitType} is ${enforced}.  No request is specified`;
  if (r > e) return `maximum ${resource} usage per ${limitType} is ${enforced}, but request is ${req}`;
  return undefined;
}

/**
 * `maxLimitRequestRatio` of `resource`: a non-zero request and limit are required and
 * limit / request may not exceed it; the observed ratio is shown as Go's `%f` (six decimals).
 */
export function limitRequestRatioConstraint(limitType: string, resource: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(resource);
  const lim = limits.get(resource);
  const [r, l] = commonValues(req, lim, enforced);
  if (!req || r === 0n) return `${resource} max limit to request ratio per ${limitType} is ${enforced}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${resource} max limit to request ratio per ${limitType} is ${enforced}, but no limit is specified or limit is 0`;
  const shown = Number(l) / Number(r);
  let observed = shown;
  let allowed = Number(enforced.value());
  if (enforced.value() <= MAX_MILLI_VALUE) {
    observed = shown * 1000;
    allowed = Number(enforced.milliValue());
  }
  if (observed > allowed) return `${resource} max limit to request ratio per ${limitType} is ${enforced}, but provided ratio is ${shown.toFixed(6)}`;
  return undefined;
}

/**
 * Upstream utilerrors.NewAggregate(...).Error(): no messages → undefined; one (after removing
 * repeats) → itself; several → `[a, b, …]`.
 */
export function aggregate(messages: readonly string[]): string | undefined {
  const unique = [...new Set(messages)];
  if (unique.length === 0) return undefined;
  if (unique.length === 1) return unique[0];
  return `[${unique.join(', ')}]`;
}
