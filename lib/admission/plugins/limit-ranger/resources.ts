/**
 * Resource lists for LimitRanger (spec 001 § Admission control; upstream v1.30 LimitRanger): the
 * quantities of a `requests` / `limits` / LimitRange map as parsed Quantities, and a Pod's
 * effective requests and limits — the containers' sum, raised to the largest init container's
 * need, counting restartable ("sidecar") init containers as upstream's KEP-753 formula does.
 */
import { Quantity } from '../../../apimachinery/quantity.js';
import type { Obj } from '../../../apis/define.js';
import { obj, objs } from '../../../apis/core/v1/obj-access.js';

/** Resource name → quantity. Keys keep the order of the map they were read from. */
export type ResourceList = Map<string, Quantity>;

/** Parses one quantity value as stored (a string, or a JSON number); undefined when unparsable. */
function parseQuantity(v: unknown): Quantity | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  try {
    return Quantity.parse(String(v));
  } catch {
    return undefined;
  }
}

/** The parsable entries of a resource map (`{cpu: "1", memory: "1Gi"}`); absent or not a map: empty. */
export function resourceList(v: unknown): ResourceList {
  const out: ResourceList = new Map();
  for (const [name, raw] of Object.entries(obj(v) ?? {})) {
    const q = parseQuantity(raw);
    if (q) out.set(name, q);
  }
  return out;
}

/** Adds every quantity of `more` into `into` (upstream addResourceList: a key of either is kept). */
export function addInto(into: ResourceList, more: ResourceList): void {
  for (const [name, q] of more) {
    const have = into.get(name);
    into.set(name, have ? have.add(q) : q);
  }
}

/** Raises each quantity of `into` to the one in `other` where that is larger (upstream maxResourceList). */
export function maxInto(into: ResourceList, other: ResourceList): void {
  for (const [name, q] of other) {
    const have = into.get(name);
    if (!have || q.cmp(have) > 0) into.set(name, q);
  }
}

/** A container's `resources.requests` or `resources.limits`. */
function containerList(container: Obj, which: 'requests' | 'limits'): ResourceList {
  return resourceList(obj(container.resources)?.[which]);
}

/**
 * The pod's effective `requests` or `limits` (upstream podRequests / podLimits, spec only, no
 * overhead): the sum over containers and restartable init containers, raised per resource to the
 * need of each regular init container plus the restartable ones started before it.
 */
export function podResources(pod: Obj, which: 'requests' | 'limits'): ResourceList {
  const spec = obj(pod.spec) ?? {};
  const total: ResourceList = new Map();
  for (const c of objs(spec.containers)) addInto(total, containerList(c, which));
  const sidecars: ResourceList = new Map();
  const initPeak: ResourceList = new Map();
  for (const c of objs(spec.initContainers)) {
    const own = containerList(c, which);
    let need: ResourceList;
    if (c.restartPolicy === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      need = sidecars;
    } else {
      need = new Map();
      addInto(need, own);
      addInto(need, sidecars);
    }
    maxInto(initPeak, need);
  }
  maxInto(total, initPeak);
  return total;
}
