/**
 * A quota's status recomputed from the objects of its namespace (upstream v1.30
 * `quota.CalculateUsage` and the resource quota controller's `syncResourceQuota`): `status.hard`
 * becomes `spec.hard`; `status.used` gets, for every hard name some evaluator tracks, the summed
 * cost of the objects that fall in all the quota's scopes; amounts for names nothing can measure
 * (a `count/…` of a resource this server does not serve) keep their last value. Handed to the
 * resource quota controller by lib/controlplane (controllers may not import admission).
 * Spec 001 § Admission control (ResourceQuota).
 */
import type { Quantity } from '../../../apimachinery/quantity.js';
import { type Obj, obj } from '../../../apis/core/v1/obj-access.js';
import { EvaluatorRegistry, type QuotaEvaluator } from './evaluators.js';
import { isQuotaPod } from './pods.js';
import { addLists, listsEqual, maskList, quantityOf, readResourceList, resourceListObject } from './resource-list.js';
import { scopeRequirements } from './scopes.js';

/** A served resource (group in the vendor spelling, '' for core). */
export interface GroupResource {
  group: string;
  resource: string;
}

/** The objects of one resource in the quota's namespace, or undefined when the resource is not served. */
export type ObjectsOf = (gr: GroupResource) => readonly Obj[] | undefined;

/** What the resource quota controller needs to know about quota (lib/controllers/resourcequota). */
export interface QuotaCalculator {
  /** The resources whose objects count against some hard name of the quota's `spec.hard`. */
  trackedResources(quota: Obj): GroupResource[];
  /** The quota's new status (`{hard, used}`, canonical quantities) given its namespace's objects. `now` in ms. */
  status(quota: Obj, objectsOf: ObjectsOf, now: number): { hard: Record<string, string>; used: Record<string, string> };
  /** Whether `status` differs from the quota's current one (quantities compared by value) or the quota has none yet. */
  differs(quota: Obj, status: Obj): boolean;
  /** Whether some amount of `status.used` is lower than the quota's current one. */
  lowers(quota: Obj, status: Obj): boolean;
  /**
   * A short text that changes when what an object costs can drop on update (a pod turning
   * terminal, a service changing type, a claim's request): a change asks for a recount.
   */
  costState(gr: GroupResource, object: Obj, now: number): string;
}

const specHard = (quota: Obj) => readResourceList(obj(quota.spec)?.hard);

/** The summed cost of `objects` in all `scopes`, masked to `names`, every name starting at zero. */
function usageStats(e: QuotaEvaluator, quota: Obj, names: readonly string[], objects: readonly Obj[], now: number): Map<string, Quantity> {
  const scopes = scopeRequirements(quota);
  let used = new Map<string, Quantity>(names.map((n) => [n, quantityOf(0)]));
  for (const o of objects) if (scopes.every((s) => e.matchesScope(s, o))) used = addLists(used, e.usage(o, now));
  return maskList(used, names);
}

/** The calculator over upstream's evaluators. */
export function quotaCalculator(registry = new EvaluatorRegistry()): QuotaCalculator {
  return {
    trackedResources(quota) {
      const names = [...specHard(quota).keys()];
      return registry.forNames(names).map((e) => ({ group: e.group, resource: e.resource }));
    },
    status(quota, objectsOf, now) {
      const hard = specHard(quota);
      const names = [...hard.keys()];
      let used: Map<string, Quantity> = readResourceList(obj(quota.status)?.used);
      for (const e of registry.forNames(names)) {
        const tracked = e.matchingResources(names);
        const objects = objectsOf({ group: e.group, resource: e.resource });
        if (tracked.length === 0 || objects === undefined) continue;
        for (const [k, v] of usageStats(e, quota, tracked, objects, now)) used.set(k, v);
      }
      used = maskList(used, names);
      return { hard: resourceListObject(hard), used: resourceListObject(used) };
    },
    differs(quota, status) {
      const cur = obj(quota.status);
      if (!cur || cur.hard === undefined || cur.used === undefined) return true;
      return !listsEqual(readResourceList(cur.hard), readResourceList(status.hard)) || !listsEqual(readResourceList(cur.used), readResourceList(status.used));
    },
    lowers(quota, status) {
      const cur = readResourceList(obj(quota.status)?.used);
      for (const [k, v] of readResourceList(status.used)) {
        const was = cur.get(k);
        if (was && v.cmp(was) < 0) return true;
      }
      return false;
    },
    costState(gr, object, now) {
      if (gr.group !== '') return '';
      const spec = obj(object.spec) ?? {};
      switch (gr.resource) {
        case 'pods':
          return isQuotaPod(object, now) ? 'charged' : 'terminal';
        case 'services':
          return String(spec.type ?? '');
        case 'persistentvolumeclaims':
          return String(readResourceList(obj(spec.resources)?.requests).get('storage') ?? '');
        default:
          return '';
      }
    },
  };
}
