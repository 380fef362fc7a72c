/**
 * The quality-of-service class of a Pod, set in `status.qosClass` at create (upstream
 * `GetPodQOS`): BestEffort without any cpu/memory request or limit; Guaranteed when every
 * container has cpu and memory limits equal to its requests; Burstable otherwise.
 */
import { Quantity } from '../../../apimachinery/quantity.js';
import type { Obj } from '../../../apis/define.js';

const SUPPORTED = ['cpu', 'memory'] as const;

type Resources = Partial<Record<(typeof SUPPORTED)[number], string | number>>;

function quantity(v: string | number | undefined): Quantity | undefined {
  if (v === undefined) return undefined;
  try {
    return Quantity.parse(String(v));
  } catch {
    return undefined;
  }
}

/** `BestEffort`, `Burstable` or `Guaranteed`. */
export function podQOSClass(pod: Obj): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const spec = (pod.spec ?? {}) as Obj;
  const containers = [...((spec.initContainers as Obj[] | undefined) ?? []), ...((spec.containers as Obj[] | undefined) ?? [])];
  let anySet = false;
  let guaranteed = true;
  for (const c of containers) {
    const res = (c.resources ?? {}) as { requests?: Resources; limits?: Resources };
    for (const name of SUPPORTED) {
      const req = quantity(res.requests?.[name]);
      const lim = quantity(res.limits?.[name]);
      if ((req && req.sign() !== 0) || (lim && lim.sign() !== 0)) anySet = true;
      if (!lim || (req && req.cmp(lim) !== 0)) guaranteed = false;
    }
  }
  if (!anySet) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
