/**
 * The CRD finalizer (upstream v1.30 apiextensions `CRDFinalizer`): for a CustomResourceDefinition
 * being deleted that still holds the cleanup finalizer, reports Terminating True
 * `InstanceDeletionInProgress`, deletes its custom objects namespace by namespace and waits (a
 * poll every 5 s, up to a minute) until none is left, reports the outcome in the Terminating
 * condition (finalizer.ts) and then removes the finalizer with an update of the main resource,
 * after which the store deletes the CRD. A failure is reported in the condition and the CRD
 * retried with backoff.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CustomResourceDefinition } from '../../apiextensions/types.js';
import { aggregateMessage } from '../../apimachinery/errors.js';
import type { Store } from '../../registry/generic/store.js';
import { WorkQueue } from '../queue.js';
import { type Condition, setCondition } from './conditions.js';
import {
  DELETION_COMPLETED,
  DELETION_IN_PROGRESS,
  NEVER_ESTABLISHED,
  OVERLAPPING_BUILT_IN,
  WAIT_TIMEOUT_MESSAGE,
  changedBeyondTerminating,
  checkFailed,
  cleanupPlan,
  deletesFailed,
  errorMessage,
  listFailed,
  needsFinalization,
  withoutCleanupFinalizer,
} from './finalizer.js';
import { type CRDStatusControllerDeps, crdName, updateCRD } from './write.js';

/** Access to the custom objects of a CRD (the serving side's storage of them). */
export interface CustomObjects {
  /** The namespaces holding objects of `crd` (`''` for cluster-scoped ones). @throws when they cannot be listed. */
  listNamespaces(crd: CustomResourceDefinition): Promise<string[]>;
  /** Deletes every object of `crd` in `namespace` (a delete-collection, as for a client). @throws on failure. */
  deleteCollection(crd: CustomResourceDefinition, namespace: string): Promise<void>;
  /** How many objects of `crd` are left, in all namespaces. @throws when they cannot be counted. */
  count(crd: CustomResourceDefinition): Promise<number>;
}

/** What the finalizer works with. */
export interface CRDFinalizerDeps extends CRDStatusControllerDeps {
  /** The main store of customresourcedefinitions (removes the finalizer). */
  store: Store;
  instances: CustomObjects;
  /** Poll interval and limit of the wait for the objects to be gone (ms; default 5000 and 60000). */
  pollIntervalMs?: number;
  pollTimeoutMs?: number;
}

/** Deletes the objects of `crd` and waits for them to be gone: the Terminating outcome, and the error to retry on. */
async function deleteInstances(deps: CRDFinalizerDeps, crd: CustomResourceDefinition, signal: AbortSignal): Promise<{ condition: Condition; error?: unknown }> {
  let namespaces: string[];
  try {
    namespaces = await deps.instances.listNamespaces(crd);
  } catch (err) {
    return { condition: listFailed(err), error: err };
  }
  const errs: unknown[] = [];
  for (const ns of new Set(namespaces)) {
    try {
      await deps.instances.deleteCollection(crd, ns);
    } catch (err) {
      errs.push(err);
    }
  }
  if (errs.length > 0) return { condition: deletesFailed(errs), error: new Error(aggregateMessage(errs.map(errorMessage))) };
  const interval = deps.pollIntervalMs ?? 5000;
  const deadline = Date.now() + (deps.pollTimeoutMs ?? 60_000);
  for (;;) {
    let left: number;
    try {
      left = await deps.instances.count(crd);
    } catch (err) {
      return { condition: checkFailed(err), error: err };
    }
    if (left === 0) return { condition: DELETION_COMPLETED };
    if (Date.now() + interval > deadline) {
      const err = new Error(WAIT_TIMEOUT_MESSAGE);
      return { condition: checkFailed(err), error: err };
    }
    await sleep(interval, undefined, { signal });
  }
}

/** Runs the finalizer until `signal` aborts. */
export async function runCRDFinalizer(deps: CRDFinalizerDeps, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  const now = deps.now ?? (() => new Date());
  const seen = new Map<string, CustomResourceDefinition>();

  /** Writes the Terminating condition while the CRD still waits for the finalizer; the stored CRD or undefined. */
  const report = (name: string, cond: Condition) =>
    updateCRD(deps.ctx, deps.statusStore, 'status', name, (current) => {
      if (!needsFinalization(current)) return false;
      setCondition((current.status ??= {}), cond, now());
      return true;
    });

  const sync = async (name: string): Promise<void> => {
    const cached = deps.informer.get(name) as unknown as CustomResourceDefinition | undefined;
    if (!cached || !needsFinalization(cached)) return;
    const crd = await report(name, DELETION_IN_PROGRESS);
    if (!crd) return;
    const plan = cleanupPlan(crd);
    let outcome: Condition = plan === 'skip' ? OVERLAPPING_BUILT_IN : NEVER_ESTABLISHED;
    if (plan === 'delete') {
      const { condition, error } = await deleteInstances(deps, crd, signal);
      outcome = condition;
      if (error !== undefined) {
        await report(name, condition).catch((err: unknown) => deps.onError(err));
        throw error;
      }
    }
    if (!(await report(name, outcome))) return;
    await updateCRD(deps.ctx, deps.store, '', name, (current) => {
      if (!needsFinalization(current)) return false;
      const finalizers = withoutCleanupFinalizer(current.metadata.finalizers);
      if (finalizers.length > 0) current.metadata.finalizers = finalizers;
      else delete current.metadata.finalizers;
      return true;
    });
  };

  deps.informer.addHandler((type, obj) => {
    const crd = obj as unknown as CustomResourceDefinition;
    const name = crdName(crd);
    const old = seen.get(name);
    if (type === 'DELETED') {
      seen.delete(name);
      return;
    }
    seen.set(name, crd);
    if (needsFinalization(crd) && (!old || changedBeyondTerminating(old, crd))) queue.add(name);
  });
  await deps.informer.waitForSync();
  for (const o of deps.informer.list()) {
    const crd = o as unknown as CustomResourceDefinition;
    if (needsFinalization(crd)) queue.add(crdName(crd));
  }
  await queue.run(signal, sync, (err) => deps.onError(err));
}
