/**
 * The ClusterRole aggregation controller (`clusterrole-aggregation`, on by default; spec 001
 * § RBAC mode; upstream pkg/controller/clusterroleaggregation): a ClusterRole with
 * `aggregationRule.clusterRoleSelectors` gets as `rules` the union of the rules of every other
 * ClusterRole matching any selector — selectors in order, matching roles by name, each rule once
 * (first occurrence kept), as upstream. Any change to any ClusterRole requeues every aggregated
 * one; a role is written only when its rules differ. Writes go through the store with the
 * controller's privileged context, so escalation checks do not stand in the way (upstream grants
 * its controller `escalate`).
 */
import { deepEqual } from '../../apimachinery/deep-equal.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../../apimachinery/labels/selector.js';
import type { Obj } from '../../apis/define.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { WorkQueue } from '../queue.js';
import { updateObject } from '../writes.js';

/** What the controller works with. */
export interface AggregationControllerConfig {
  /** Every ClusterRole. */
  clusterRoles: Informer;
  /** The ClusterRole store it writes through. */
  store: Store;
  /** Context of the controller's writes (a privileged internal user). */
  ctx: RequestContext;
  onError: (err: unknown) => void;
}

const nameOf = (obj: Obj) => (obj.metadata as Obj | undefined)?.name as string;
const selectorsOf = (obj: Obj): LabelSelectorObject[] | undefined =>
  (obj.aggregationRule as { clusterRoleSelectors?: LabelSelectorObject[] } | undefined)?.clusterRoleSelectors;

/**
 * The rules `role` aggregates from `all` (upstream `syncClusterRole`): for each selector in
 * order, the matching roles other than `role` sorted by name, their rules appended unless an
 * equal rule is already in.
 */
export function aggregateRules(role: Obj, all: readonly Obj[]): Obj[] {
  const out: Obj[] = [];
  const sorted = [...all].sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
  for (const sel of selectorsOf(role) ?? []) {
    const selector = labelSelectorFromObject(sel);
    for (const other of sorted) {
      if (nameOf(other) === nameOf(role)) continue;
      if (!selector.matches((other.metadata as Obj | undefined)?.labels as Record<string, string> | undefined)) continue;
      for (const rule of (other.rules as Obj[] | undefined) ?? []) {
        if (!out.some((r) => deepEqual(r, rule))) out.push(rule);
      }
    }
  }
  return out;
}

/** Runs the controller until `signal` aborts; resolves once the worker stopped. */
export async function runClusterRoleAggregationController(cfg: AggregationControllerConfig, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  const enqueueAggregated = () => {
    for (const role of cfg.clusterRoles.list()) if (role.aggregationRule) queue.add(nameOf(role));
  };
  cfg.clusterRoles.addHandler(() => enqueueAggregated());
  await cfg.clusterRoles.waitForSync();
  enqueueAggregated();
  await queue.run(signal, (name) => syncClusterRole(cfg, name), (err) => cfg.onError(err));
}

/** Sets the rules of the aggregated ClusterRole `name` from the informer's cache, when they differ. */
async function syncClusterRole(cfg: AggregationControllerConfig, name: string): Promise<void> {
  const role = cfg.clusterRoles.get(name);
  if (!role?.aggregationRule) return;
  const rules = aggregateRules(role, cfg.clusterRoles.list());
  if (deepEqual(rules, role.rules ?? [])) return;
  await updateObject(cfg.ctx, cfg.store, '', name, (obj) => {
    obj.rules = rules;
  });
}
