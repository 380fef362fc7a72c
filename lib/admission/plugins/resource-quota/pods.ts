/**
 * What a Pod costs in quota and which quota scopes it falls in (upstream v1.30
 * `pkg/quota/v1/evaluator/core/pods.go` with `resourcehelper.PodRequests/PodLimits` and
 * `qos.GetPodQOS`). Spec 001 § Admission control (ResourceQuota).
 *
 * Usage: `count/pods` always; unless the pod is terminal (phase Succeeded or Failed, or its
 * deletion grace period has run out), also `pods` 1 and its compute resources — `requests.cpu`
 * (and the `cpu` shorthand), `limits.cpu`, the same for memory and ephemeral-storage,
 * `hugepages-<size>` with `requests.hugepages-<size>`, and `requests.<name>` for extended
 * resources — summed over the containers, at least the largest init container (restartable
 * init containers, sidecars, add up), plus `spec.overhead`.
 */
import type { Quantity } from '../../../apimachinery/quantity.js';
import { isExtended, isNative } from '../../../apis/core/v1/resource-quota-names.js';
import { type Obj, list, num, obj, objs, str } from '../../../apis/core/v1/obj-access.js';
import { type ResourceList, addLists, maxLists, quantityOf, readResourceList } from './resource-list.js';
import type { ScopeRequirement } from './scopes.js';

/** The object count name of pods. */
export const POD_COUNT = 'count/pods';

/** The fixed resource names the pod evaluator tracks. */
export const POD_RESOURCES: readonly string[] = [
  POD_COUNT,
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
];

/** The names a quota on which makes every container state its own value (a historical coupling upstream keeps). */
const MUST_SPECIFY = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

const spec = (pod: Obj): Obj => obj(pod.spec) ?? {};
const resourcesOf = (c: Obj): Obj => obj(c.resources) ?? {};

/** A quota resource the pod evaluator tracks: a fixed name, hugepages, or `requests.<extended>`. */
export function isPodResource(name: string): boolean {
  if (POD_RESOURCES.includes(name)) return true;
  if (name.startsWith('hugepages-') || name.startsWith('requests.hugepages-')) return true;
  return !isNative(name) && name.startsWith('requests.');
}

/**
 * The quota names one set of requests and limits accounts for (upstream `podComputeUsageHelper`):
 * `pods` 1, the compute resources, hugepages and extended resources.
 */
export function computeUsage(requests: ResourceList, limits: ResourceList): Map<string, Quantity> {
  const out = new Map<string, Quantity>([['pods', quantityOf(1)]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim) out.set(`limits.${r}`, lim);
  }
  for (const [r, req] of requests) {
    if (r.startsWith('hugepages-')) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    if (isExtended(r)) out.set(`requests.${r}`, req);
  }
  return out;
}

/** Sum over containers, the init-container rule, then overhead (`which`: requests or limits). */
function podAmounts(pod: Obj, which: 'requests' | 'limits'): Map<string, Quantity> {
  let total = new Map<string, Quantity>();
  for (const c of objs(spec(pod).containers)) total = addLists(total, readResourceList(resourcesOf(c)[which]));
  let sidecars = new Map<string, Quantity>();
  let init = new Map<string, Quantity>();
  for (const c of objs(spec(pod).initContainers)) {
    const own = readResourceList(resourcesOf(c)[which]);
    let use: Map<string, Quantity>;
    if (str(c.restartPolicy) === 'Always') {
      total = addLists(total, own);
      sidecars = addLists(sidecars, own);
      use = sidecars;
    } else {
      use = addLists(own, sidecars);
    }
    init = maxLists(init, use);
  }
  total = maxLists(total, init);
  const overhead = readResourceList(spec(pod).overhead);
  if (which === 'requests') return addLists(total, overhead);
  for (const [k, v] of overhead) {
    const x = total.get(k);
    if (x) total.set(k, x.add(v));
  }
  return total;
}

/** The pod's effective requests (upstream `PodRequests`). */
export const podRequests = (pod: Obj): Map<string, Quantity> => podAmounts(pod, 'requests');
/** The pod's effective limits (upstream `PodLimits`): overhead only on limited resources. */
export const podLimits = (pod: Obj): Map<string, Quantity> => podAmounts(pod, 'limits');

/**
 * Whether the pod is charged compute quota (upstream `QuotaV1Pod`): not terminal, and not stuck
 * deleting past its grace period. `now` in ms since the epoch.
 */
export function isQuotaPod(pod: Obj, now: number): boolean {
  const phase = str(obj(pod.status)?.phase);
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const meta = obj(pod.metadata) ?? {};
  const grace = num(meta.deletionGracePeriodSeconds);
  const at = Date.parse(str(meta.deletionTimestamp));
  return !(grace !== undefined && Number.isFinite(at) && now > at + grace * 1000);
}

/** The quota usage of a pod (upstream `PodUsageFunc`). `now` in ms since the epoch. */
export function podUsage(pod: Obj, now: number): Map<string, Quantity> {
  const out = new Map<string, Quantity>([[POD_COUNT, quantityOf(1)]]);
  if (!isQuotaPod(pod, now)) return out;
  return addLists(out, computeUsage(podRequests(pod), podLimits(pod)));
}

/**
 * The `must specify …` reason when a quota constrains cpu or memory (`required`: the quota's
 * tracked names) and some container states no value for it; undefined when every container does
 * (upstream podEvaluator.Constraints): `must specify limits.cpu for: a,b; requests.memory for: a`.
 */
export function podConstraintViolation(required: readonly string[], pod: Obj): string | undefined {
  const need = required.filter((r) => MUST_SPECIFY.has(r));
  if (need.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const c of [...objs(spec(pod).containers), ...objs(spec(pod).initContainers)]) {
    const has = computeUsage(readResourceList(resourcesOf(c).requests), readResourceList(resourcesOf(c).limits));
    for (const r of need) {
      if (has.has(r)) continue;
      const names = missing.get(r) ?? new Set<string>();
      names.add(str(c.name));
      missing.set(r, names);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

/** A term of pod (anti-)affinity that looks beyond the pod's namespace. */
const crossNamespaceTerm = (t: Obj | undefined): boolean => !!t && (list(t.namespaces).length > 0 || (t.namespaceSelector !== undefined && t.namespaceSelector !== null));

/** Whether the pod's affinity or anti-affinity names other namespaces (upstream `usesCrossNamespacePodAffinity`). */
export function usesCrossNamespacePodAffinity(pod: Obj): boolean {
  const affinity = obj(spec(pod).affinity);
  if (!affinity) return false;
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = obj(affinity[kind]);
    if (!a) continue;
    if (objs(a.requiredDuringSchedulingIgnoredDuringExecution).some(crossNamespaceTerm)) return true;
    if (objs(a.preferredDuringSchedulingIgnoredDuringExecution).some((w) => crossNamespaceTerm(obj(w.podAffinityTerm)))) return true;
  }
  return false;
}

/**
 * Whether the pod's QoS class is BestEffort (upstream `GetPodQOS`): `status.qosClass` when set,
 * else no container or init container requests or limits a positive amount of cpu or memory.
 */
export function isBestEffort(pod: Obj): boolean {
  const qos = str(obj(pod.status)?.qosClass);
  if (qos !== '') return qos === 'BestEffort';
  for (const c of [...objs(spec(pod).containers), ...objs(spec(pod).initContainers)]) {
    for (const which of ['requests', 'limits']) {
      const l = readResourceList(resourcesOf(c)[which]);
      for (const r of ['cpu', 'memory']) if ((l.get(r)?.sign() ?? 0) > 0) return false;
    }
  }
  return true;
}

/** Whether the pod has a non-negative `activeDeadlineSeconds` (the Terminating scope). */
export const isTerminating = (pod: Obj): boolean => (num(spec(pod).activeDeadlineSeconds) ?? -1) >= 0;

/** Whether the pod falls in the scope `sel` (upstream `podMatchesScopeFunc`); unknown scopes never match. */
export function podMatchesScope(sel: ScopeRequirement, pod: Obj): boolean {
  switch (sel.scopeName) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass':
      return matchesValue(sel, str(spec(pod).priorityClassName));
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespacePodAffinity(pod);
    default:
      return false;
  }
}

/**
 * A scope requirement against one value (`''`: none), as a label selector on `{<scope>: value}`
 * matches (upstream `podMatchesSelector`): In, NotIn, Exists, DoesNotExist.
 */
function matchesValue(sel: ScopeRequirement, value: string): boolean {
  const has = value !== '';
  switch (sel.operator) {
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'In':
      return has && sel.values.includes(value);
    case 'NotIn':
      return !has || !sel.values.includes(value);
    default:
      return false;
  }
}
