/**
 * The CRD establishing controller (upstream v1.30 apiextensions `EstablishingController`, queued
 * as upstream's CRD handler queues it): a CustomResourceDefinition whose names are accepted and
 * that is not Established yet becomes Established True `InitialNamesAccepted` (establishing.ts),
 * written through the status subresource. Upstream waits 5 s first when several API servers run
 * (so that all of them serve the names before clients are told); `delayMs` is that wait.
 */
import type { CustomResourceDefinition } from '../../apiextensions/types.js';
import { WorkQueue } from '../queue.js';
import { establishedStatus, needsEstablishing } from './establishing.js';
import { type CRDStatusControllerDeps, crdName, updateCRD } from './write.js';

/** What the establishing controller works with. */
export interface CRDEstablishingDeps extends CRDStatusControllerDeps {
  /** Wait before establishing a CRD whose names were accepted (ms; default 0, one server). */
  delayMs?: number;
}

/** Runs the establishing controller until `signal` aborts. */
export async function runCRDEstablishingController(deps: CRDEstablishingDeps, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  const now = deps.now ?? (() => new Date());
  const consider = (o: unknown): void => {
    const crd = o as CustomResourceDefinition;
    if (needsEstablishing(crd)) queue.addAfter(crdName(crd), deps.delayMs ?? 0);
  };

  const sync = async (name: string): Promise<void> => {
    const cached = deps.informer.get(name) as unknown as CustomResourceDefinition | undefined;
    if (!cached || !needsEstablishing(cached)) return;
    await updateCRD(deps.ctx, deps.statusStore, 'status', name, (current) => {
      const status = establishedStatus(current, now());
      if (!status) return false;
      current.status = status;
      return true;
    });
  };

  deps.informer.addHandler((type, obj) => {
    if (type !== 'DELETED') consider(obj);
  });
  await deps.informer.waitForSync();
  for (const o of deps.informer.list()) consider(o);
  await queue.run(signal, sync, (err) => deps.onError(err));
}
