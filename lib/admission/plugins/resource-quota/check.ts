/**
 * Checks one create or update against the quotas of its namespace (upstream v1.30
 * `CheckRequest` of the resourcequota admission plugin), without I/O: finds the quotas that
 * track the object (their `status.hard` names something its evaluator charges and it falls in
 * all their scopes), rejects what a quota forbids, and returns the quotas with the request's
 * cost added to `status.used`. Spec 001 § Admission control (ResourceQuota).
 */
import { StatusError, newForbidden } from '../../../apimachinery/errors.js';
import type { Quantity } from '../../../apimachinery/quantity.js';
import { type Obj, obj, str } from '../../../apis/core/v1/obj-access.js';
import type { LimitedResource } from './config.js';
import type { QuotaEvaluator } from './evaluators.js';
import { addLists, exceededNames, maskList, negativeNames, prettyPrint, readResourceList, removeZeros, subtractNonNegative } from './resource-list.js';
import { type ScopeRequirement, scopeRequirements } from './scopes.js';

/** A ResourceQuota as the check sees it. `used` is replaced (never mutated) when a request is charged. */
export interface QuotaState {
  name: string;
  /** The object as read (its resourceVersion is the compare-and-swap condition of the write). */
  object: Obj;
  hard: ReadonlyMap<string, Quantity>;
  used: ReadonlyMap<string, Quantity>;
  scopes: ScopeRequirement[];
}

/** The check's view of a ResourceQuota object. */
export function quotaState(quota: Obj): QuotaState {
  const status = obj(quota.status) ?? {};
  return {
    name: str(obj(quota.metadata)?.name),
    object: quota,
    hard: readResourceList(status.hard),
    used: readResourceList(status.used),
    scopes: scopeRequirements(quota),
  };
}

/** The request being checked. */
export interface QuotaRequest {
  operation: 'CREATE' | 'UPDATE';
  /** Group and resource of the request (the Forbidden error's). */
  group: string;
  resource: string;
  object: Obj;
  oldObject: Obj | null;
}

/** The name a rejection names: the object's, its generateName, or `Unknown` (upstream `extractResourceName`). */
function nameOf(o: Obj): string {
  const m = obj(o.metadata) ?? {};
  return str(m.name) || str(m.generateName) || 'Unknown';
}

/** The consumed names (positive amounts) that contain a `matchContains` text of an entry (upstream `limitedByDefault`). */
function limitedByDefault(usage: ReadonlyMap<string, Quantity>, limited: readonly LimitedResource[]): string[] {
  const out: string[] = [];
  for (const l of limited) for (const [k, v] of usage) if (v.sign() > 0 && l.matchContains.some((m) => k.includes(m))) out.push(k);
  return out;
}

/** Whether `quota` tracks `object` (upstream generic `Matches`): a charged name in `status.hard` and every scope matched. */
export function quotaTracks(quota: QuotaState, evaluator: QuotaEvaluator, object: Obj): boolean {
  if (evaluator.matchingResources([...quota.hard.keys()]).length === 0) return false;
  return quota.scopes.every((s) => evaluator.matchesScope(s, object));
}

/**
 * Charges `req` to `quotas`: returns the quotas with new `used` amounts (the same array when
 * nothing is charged, e.g. no quota tracks the object or an update does not grow its cost).
 * `now` in ms since the epoch (terminal pods).
 * `limited`: the plugin configuration's `limitedResources`.
 * @throws StatusError 403 Forbidden: `exceeded quota: <name>, requested: …, used: …, limited: …`,
 *   `failed quota: <name>: must specify …`, `status unknown for quota: <name>, resources: …`,
 *   `quota usage is negative for resource(s): …`, `insufficient quota to consume: …`; 500
 *   `insufficient quota to match these scopes: …`.
 */
export function checkRequest(
  quotas: readonly QuotaState[],
  req: QuotaRequest,
  evaluator: QuotaEvaluator,
  now: number,
  limited: readonly LimitedResource[] = [],
): readonly QuotaState[] {
  const forbid = (reason: string) => newForbidden({ group: req.group, resource: req.resource }, nameOf(req.object), reason);
  const inScope = (s: ScopeRequirement) => evaluator.matchesScope(s, req.object);
  const limitedScopes = limited.flatMap((l) => l.matchScopes.filter(inScope));
  const limitedHere = limited.filter((l) => l.apiGroup === req.group && l.resource === req.resource);
  const limitedNames = limitedHere.length === 0 ? [] : limitedByDefault(evaluator.usage(req.object, now), limitedHere);
  const coveredScopes = new Set(quotas.flatMap((q) => q.scopes.filter(inScope).map((s) => s.scopeName)));
  const covered = new Set<string>();
  const interesting: number[] = [];
  quotas.forEach((q, i) => {
    if (!quotaTracks(q, evaluator, req.object)) return;
    const restricted = evaluator.matchingResources([...q.hard.keys()]);
    const violation = evaluator.constraintViolation(restricted, req.object);
    if (violation !== undefined) throw forbid(`failed quota: ${q.name}: ${violation}`);
    if (restricted.some((r) => !q.used.has(r))) throw forbid(`status unknown for quota: ${q.name}, resources: ${[...restricted].sort().join(',')}`);
    interesting.push(i);
    for (const r of restricted) covered.add(r);
  });

  let delta: ReadonlyMap<string, Quantity> = evaluator.usage(req.object, now);
  const negative = negativeNames(delta);
  if (negative.length > 0) throw forbid(`quota usage is negative for resource(s): ${negative.join(',')}`);
  if (req.operation === 'UPDATE') {
    if (!req.oldObject) throw forbid('unable to get previous usage since prior version of object was not found');
    if (str(obj(req.oldObject.metadata)?.resourceVersion) !== '') delta = subtractNonNegative(delta, evaluator.usage(req.oldObject, now));
  }
  delta = removeZeros(delta);
  if (delta.size === 0) return quotas;
  const uncovered = [...new Set(limitedNames)].filter((n) => !covered.has(n)).sort();
  if (uncovered.length > 0) throw forbid(`insufficient quota to consume: ${uncovered.join(',')}`);
  const uncoveredScopes = limitedScopes.filter((s) => !coveredScopes.has(s.scopeName));
  if (uncoveredScopes.length > 0) {
    // Upstream returns a plain error here: a 500 without a reason.
    const message = `insufficient quota to match these scopes: [${uncoveredScopes.map((s) => `{${s.scopeName} ${s.operator} [${s.values.join(' ')}]}`).join(' ')}]`;
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
  }
  if (interesting.length === 0) return quotas;

  const out = [...quotas];
  for (const i of interesting) {
    const q = out[i]!;
    const requested = maskList(delta, q.hard.keys());
    const used = addLists(q.used, requested);
    const exceeded = exceededNames(maskList(used, requested.keys()), q.hard);
    if (exceeded.length > 0) {
      throw forbid(
        `exceeded quota: ${q.name}, requested: ${prettyPrint(maskList(requested, exceeded))}, used: ${prettyPrint(maskList(q.used, exceeded))}, limited: ${prettyPrint(maskList(q.hard, exceeded))}`,
      );
    }
    out[i] = { ...q, used };
  }
  return out;
}
