/**
 * The CRD naming controller (upstream v1.30 apiextensions `NamingConditionController`): on every
 * add, update or delete of a CustomResourceDefinition it re-decides that CRD's accepted names and
 * NamesAccepted / Established conditions (naming.ts) and writes them through the status
 * subresource when they change; after a write, and when a CRD is gone (its names are free), the
 * other CRDs of the group are re-decided. One worker, so two CRDs never claim a name at once; the
 * objects it wrote are remembered until the informer has caught up with them (upstream's mutation
 * cache), so the next decision sees the names just claimed.
 */
import type { CustomResourceDefinition } from '../../apiextensions/types.js';
import { WorkQueue } from '../queue.js';
import { namingStatus } from './naming.js';
import { type CRDStatusControllerDeps, crdName, updateCRD } from './write.js';

const revision = (crd: CustomResourceDefinition): number => Number(crd.metadata?.resourceVersion ?? 0);

/** Runs the naming controller until `signal` aborts. */
export async function runCRDNamingController(deps: CRDStatusControllerDeps, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  const now = deps.now ?? (() => new Date());
  const written = new Map<string, CustomResourceDefinition>();

  /** The newest known version of the CRD `name`: the informer's, or one written since. */
  const latest = (name: string): CustomResourceDefinition | undefined => {
    const cached = deps.informer.get(name) as unknown as CustomResourceDefinition | undefined;
    const mine = written.get(name);
    if (!mine || !cached) return cached;
    if (revision(mine) > revision(cached)) return mine;
    written.delete(name);
    return cached;
  };
  const groupOf = (name: string): string => name.slice(name.indexOf('.') + 1);
  const inGroup = (group: string): CustomResourceDefinition[] =>
    deps.informer
      .list()
      .map((o) => latest(crdName(o as unknown as CustomResourceDefinition)))
      .filter((c): c is CustomResourceDefinition => c !== undefined && c.spec?.group === group);
  const requeueOthers = (name: string): void => {
    for (const c of inGroup(groupOf(name))) if (crdName(c) !== name) queue.add(crdName(c));
  };

  const sync = async (name: string): Promise<void> => {
    const crd = latest(name);
    if (!crd) {
      requeueOthers(name);
      return;
    }
    const others = inGroup(crd.spec?.group);
    const stored = await updateCRD(deps.ctx, deps.statusStore, 'status', name, (current) => {
      const status = namingStatus(current, others, now());
      if (!status) return false;
      current.status = status;
      return true;
    });
    if (!stored) return;
    written.set(name, stored);
    requeueOthers(name);
  };

  deps.informer.addHandler((type, obj) => {
    const name = crdName(obj as unknown as CustomResourceDefinition);
    if (type === 'DELETED') written.delete(name);
    queue.add(name);
  });
  await deps.informer.waitForSync();
  for (const o of deps.informer.list()) queue.add(crdName(o as unknown as CustomResourceDefinition));
  await queue.run(signal, sync, (err) => deps.onError(err));
}
