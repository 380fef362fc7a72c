/**
 * The served versions of the same objects (upstream's equivalent resource mapping, for
 * `matchPolicy: Equivalent`): a stored resource and every other version or group serving its
 * objects (autoscaling/v1 over autoscaling/v2 HorizontalPodAutoscalers, events.<vendor>/v1 over
 * core/v1 Events), the storage version first.
 */
import type { AdmissionAttributes } from '../interface.js';
import type { ServedResource } from '../plugin-deps.js';
import type { EquivalentResources } from './rules.js';

/** Indexes `served` (deps.servedResources()) by the stored group and resource. */
export function equivalentResources(served: readonly ServedResource[]): EquivalentResources {
  const byStorage = new Map<string, ServedResource[]>();
  for (const r of served) {
    const storage = r.conversion?.storageKind ?? r.definition;
    const key = `${storage.group}/${storage.resource}`;
    let list = byStorage.get(key);
    if (!list) byStorage.set(key, (list = []));
    list.push(r);
  }
  return { equivalents: (a: AdmissionAttributes) => byStorage.get(`${a.group}/${a.resource}`) ?? [] };
}
