/**
 * Evicting a pod (upstream `EvictionREST`, v1.30): `POST …/pods/<name>/eviction` with a policy/v1
 * Eviction deletes the pod — with the Eviction's deleteOptions — unless the PodDisruptionBudget
 * selecting it allows no disruption (429 TooManyRequests with a `DisruptionBudget` cause). A pod
 * that is pending, finished or already terminating is deleted without looking at budgets; an
 * unready pod is when its budget says AlwaysAllow or is currently met. An admitted eviction
 * decrements the budget's `status.disruptionsAllowed` and records the pod in
 * `status.disruptedPods` in one conditional write of the budget's status; the pod then gets the
 * DisruptionTarget condition and is deleted.
 */
import { type GroupResource, newBadRequest, newConflict, newForbidden, StatusError } from '../../../apimachinery/errors.js';
import { labelSelectorFromObject, type LabelSelectorObject, SelectorParseError } from '../../../apimachinery/labels/selector.js';
import { formatTime } from '../../../apimachinery/schema/decode.js';
import { eviction } from '../../../apis/policy/v1/eviction.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import { EVERYTHING } from '../../../storage/interface.js';
import { metaOf } from '../../generic/object-meta.js';
import type { Store } from '../../generic/store.js';
import type { CreateOnlyOptions, CreateTarget, Creater } from '../../rest/creater.js';
import type { DeleteOptionsBody } from '../../rest/strategy.js';
import { BINDING_SUCCESS } from './binding.js';
import { isPodReady, updatePodCondition } from './conditions.js';

/** Upstream MaxDisruptedPodSize: more unconfirmed evictions than this and the budget refuses. */
export const MAX_DISRUPTED_POD_SIZE = 2000;
/** Attempts of the delete of a pod that ignores budgets, while it keeps conflicting. */
const DELETE_ATTEMPTS = 5;
const PDB_RESOURCE: GroupResource = { group: 'policy', resource: 'poddisruptionbudget' };
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

/** The stores an eviction works with. */
export interface EvictionStores {
  /** Pods: get and delete. */
  pods: Store;
  /** The pods' status subresource: the DisruptionTarget condition. */
  podStatus: Store;
  /** PodDisruptionBudgets: list. */
  budgets: Store;
  /** Their status subresource: the check-and-decrement. */
  budgetStatus: Store;
}

/** 429 with a `DisruptionBudget` cause, as upstream (Retry-After only when `retryAfterSeconds` > 0). */
export function newBudgetViolation(cause: string, retryAfterSeconds: number): StatusError {
  const details = { causes: [{ reason: 'DisruptionBudget', message: cause }], ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}) };
  return new StatusError(
    { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: VIOLATION, reason: 'TooManyRequests', details, code: 429 },
    retryAfterSeconds > 0 ? { 'Retry-After': String(retryAfterSeconds) } : {},
  );
}

/** Upstream createTooManyRequestsError: the budget's status is older than its spec. */
function stillProcessing(budget: string): StatusError {
  return newBudgetViolation(`The disruption budget ${budget} is still being processed by the server.`, 10);
}

/** Upstream canIgnorePDB: pending, finished and terminating pods are deleted without budgets. */
function canIgnoreBudgets(pod: Obj): boolean {
  const phase = (pod.status as Obj | undefined)?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!metaOf(pod).deletionTimestamp;
}

/** Upstream shouldEnforceResourceVersion: not for finished or terminating pods. */
function enforcesResourceVersion(pod: Obj): boolean {
  const phase = (pod.status as Obj | undefined)?.phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || !!metaOf(pod).deletionTimestamp);
}

/** The Eviction's deleteOptions as the store takes them, with the request's dry run. */
function deleteOptionsOf(ev: Obj, dryRun: boolean): { options: DeleteOptionsBody; dryRun: boolean } {
  const d = (ev.deleteOptions ?? {}) as Obj;
  const options: DeleteOptionsBody = {};
  if (typeof d.gracePeriodSeconds === 'number') options.gracePeriodSeconds = d.gracePeriodSeconds;
  if (d.preconditions && typeof d.preconditions === 'object') options.preconditions = { ...(d.preconditions as Obj) } as DeleteOptionsBody['preconditions'];
  if (typeof d.propagationPolicy === 'string') options.propagationPolicy = d.propagationPolicy as DeleteOptionsBody['propagationPolicy'];
  if (typeof d.orphanDependents === 'boolean') options.orphanDependents = d.orphanDependents;
  const bodyDryRun = Array.isArray(d.dryRun) && d.dryRun.includes('All');
  return { options, dryRun: dryRun || bodyDryRun };
}

/**
 * Upstream UpdateDisruptionAllowedCondition after the last allowed disruption: DisruptionAllowed
 * False, reason InsufficientPods, at the status's observed generation.
 */
function markInsufficient(status: Obj, now: Date): void {
  const conditions = (Array.isArray(status.conditions) ? status.conditions : (status.conditions = [])) as Obj[];
  const next = { type: 'DisruptionAllowed', status: 'False', observedGeneration: status.observedGeneration ?? 0, reason: 'InsufficientPods', message: '' };
  const i = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
  if (i < 0) conditions.push({ ...next, lastTransitionTime: formatTime(now) });
  else conditions[i] = { ...conditions[i], ...next, lastTransitionTime: conditions[i]!.status === 'False' ? conditions[i]!.lastTransitionTime : formatTime(now) };
}

/** `pods/eviction`. */
export class EvictionREST implements Creater {
  readonly kind = eviction;

  constructor(private readonly stores: EvictionStores) {}

  /**
   * Evicts the pod. Answers a Success Status, or a 500 Failure Status when several budgets
   * select the pod. @throws StatusError 400 (names differ), 404 (no pod), 409 (preconditions),
   * 429 (a budget forbids it), 403 (a broken budget status).
   */
  async create(ctx: RequestContext, target: CreateTarget, obj: Obj, opts: CreateOnlyOptions & { validate: (o: Obj) => Promise<void> }): Promise<Obj> {
    const name = target.name;
    if (metaOf(obj).name !== name) throw newBadRequest('name in URL does not match name in Eviction object');
    const { options, dryRun } = deleteOptionsOf(obj, opts.dryRun);
    await opts.validate(obj);
    const rvUnset = options.preconditions?.resourceVersion === undefined;
    let pod: Obj | undefined;
    for (let attempt = 1; ; attempt++) {
      pod = await this.stores.pods.get(ctx, target.namespace, name);
      if (!canIgnoreBudgets(pod)) break;
      const opts2: DeleteOptionsBody = enforcesResourceVersion(pod) && rvUnset ? { ...options, preconditions: { ...options.preconditions, resourceVersion: String(metaOf(pod).resourceVersion) } } : options;
      try {
        await this.conditionAndDelete(ctx, target.namespace, name, opts2, dryRun);
        return { ...BINDING_SUCCESS };
      } catch (err) {
        if (!(err instanceof StatusError && err.status.reason === 'Conflict') || !rvUnset || attempt >= DELETE_ATTEMPTS) throw err;
      }
    }
    const budgets = await this.selecting(ctx, pod);
    if (budgets.length > 1) {
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 };
    }
    let pinned = false;
    const budget = budgets[0];
    if (budget) {
      const spec = (budget.spec ?? {}) as Obj;
      const status = (budget.status ?? {}) as Obj;
      const current = Number(status.currentHealthy ?? 0);
      const desired = Number(status.desiredHealthy ?? 0);
      if (!isPodReady(pod) && (spec.unhealthyPodEvictionPolicy === 'AlwaysAllow' || (current >= desired && desired > 0))) pinned = true;
      else await this.checkAndDecrement(ctx, target.namespace, String(metaOf(budget).name), name, dryRun);
    }
    const deleteOptions = pinned ? { ...options, preconditions: { ...options.preconditions, resourceVersion: String(metaOf(pod).resourceVersion) } } : options;
    try {
      await this.conditionAndDelete(ctx, target.namespace, name, deleteOptions, dryRun);
    } catch (err) {
      if (err instanceof StatusError && err.status.reason === 'Conflict' && pinned && rvUnset) throw stillProcessing(String(metaOf(budget!).name));
      throw err;
    }
    return { ...BINDING_SUCCESS };
  }

  /**
   * The budgets of the pod's namespace whose selector matches its labels (upstream
   * getPodDisruptionBudgets): `{}` matches every pod, a missing selector none, an invalid one none.
   */
  private async selecting(ctx: RequestContext, pod: Obj): Promise<Obj[]> {
    const meta = metaOf(pod);
    const list = await this.stores.budgets.list(ctx, String(meta.namespace), { predicate: EVERYTHING });
    const labels = (meta.labels ?? {}) as Record<string, string>;
    return list.items.filter((b) => {
      try {
        return labelSelectorFromObject((b.spec as Obj | undefined)?.selector as LabelSelectorObject | undefined).matches(labels);
      } catch (err) {
        if (err instanceof SelectorParseError) return false;
        throw err;
      }
    });
  }

  /**
   * Upstream checkAndDecrement, run on the current budget inside one conditional status write
   * (retried on conflict): a stale status is 429 (retry in 10s); a negative allowance or more than
   * MAX_DISRUPTED_POD_SIZE pending evictions 403; no allowance 429 naming the healthy counts.
   * Otherwise one disruption is taken and the pod recorded; a dry run writes nothing.
   */
  private async checkAndDecrement(ctx: RequestContext, namespace: string, budget: string, podName: string, dryRun: boolean): Promise<void> {
    const take = (pdb: Obj): Obj => {
      const status = (pdb.status ??= {}) as Obj;
      const allowed = Number(status.disruptionsAllowed ?? 0);
      if (Number(status.observedGeneration ?? 0) < Number(metaOf(pdb).generation ?? 0)) throw stillProcessing(budget);
      if (allowed < 0) throw newForbidden(PDB_RESOURCE, budget, 'pdb disruptions allowed is negative');
      if (Object.keys((status.disruptedPods ?? {}) as Obj).length > MAX_DISRUPTED_POD_SIZE) {
        throw newForbidden(PDB_RESOURCE, budget, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
      }
      if (allowed === 0) {
        throw newBudgetViolation(`The disruption budget ${budget} needs ${Number(status.desiredHealthy ?? 0)} healthy pods and has ${Number(status.currentHealthy ?? 0)} currently`, 0);
      }
      const now = new Date();
      status.disruptionsAllowed = allowed - 1;
      if (allowed - 1 === 0) markInsufficient(status, now);
      status.disruptedPods = { ...((status.disruptedPods ?? {}) as Obj), [podName]: formatTime(now) };
      return pdb;
    };
    if (dryRun) {
      take(await this.stores.budgets.get(ctx, namespace, budget));
      return;
    }
    await this.stores.budgetStatus.update(ctx, namespace, budget, async (current) => {
      if (!current) throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `poddisruptionbudgets.policy "${budget}" not found`, reason: 'NotFound', code: 404 });
      return take(current);
    });
  }

  /**
   * Upstream addConditionAndDeletePod: unless a dry run, the pod's status gets DisruptionTarget
   * (reason EvictionByEvictionAPI) after the deleteOptions' preconditions are checked (409 on
   * `Pod`), the resourceVersion precondition moving to the version that write made; then the
   * pod is deleted with `options`.
   */
  private async conditionAndDelete(ctx: RequestContext, namespace: string, name: string, options: DeleteOptionsBody, dryRun: boolean): Promise<void> {
    let deleteOptions = options;
    if (!dryRun) {
      const pre = options.preconditions;
      const { obj } = await this.stores.podStatus.update(ctx, namespace, name, async (current) => {
        if (!current) throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `pods "${name}" not found`, reason: 'NotFound', details: { name, kind: 'pods' }, code: 404 });
        const meta = metaOf(current);
        const kindGR = { group: '', resource: 'Pod' };
        if (pre?.uid && pre.uid !== meta.uid) {
          throw newConflict(kindGR, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${String(meta.uid)}). The object might have been deleted and then recreated`);
        }
        if (pre?.resourceVersion && pre.resourceVersion !== meta.resourceVersion) {
          throw newConflict(kindGR, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${String(meta.resourceVersion)}). The object might have been modified`);
        }
        updatePodCondition(current, { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
        return current;
      });
      if (pre?.resourceVersion !== undefined) deleteOptions = { ...options, preconditions: { ...pre, resourceVersion: String(metaOf(obj).resourceVersion) } };
    }
    await this.stores.pods.delete(ctx, namespace, name, deleteOptions, { dryRun });
  }
}
