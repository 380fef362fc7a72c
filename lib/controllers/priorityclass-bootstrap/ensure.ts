/**
 * The system priority classes at start (upstream v1.30 post-start hook
 * `scheduling/bootstrap-system-priority-classes`): `system-node-critical` and
 * `system-cluster-critical` are created when missing; existing ones are left as they are.
 * Idempotent and safe with several servers starting at once: a create that finds the class
 * (409 AlreadyExists) is success. Writes go through the PriorityClass store, defaulted and with
 * managed fields, as a client's create would.
 */
import type { Obj } from '../../apis/define.js';
import { SCHEDULING_GROUP, SYSTEM_PRIORITY_CLASSES } from '../../apis/scheduling/v1/index.js';
import type { RequestContext } from '../../request/context.js';
import type { ResourceStorage } from '../../registry/generic/resource-storage.js';
import type { Store } from '../../registry/generic/store.js';
import { createIfMissing } from '../writes.js';

/** The hook's name, as upstream's. */
export const SYSTEM_PRIORITY_CLASSES_HOOK = 'scheduling/bootstrap-system-priority-classes';

/** The priorityclasses store among the served resources. */
export function priorityClassStore(resources: readonly ResourceStorage[]): Store {
  const r = resources.find((x) => x.store.strategy.kind.group === SCHEDULING_GROUP && x.store.strategy.kind.resource === 'priorityclasses');
  if (!r) throw new Error('the control plane serves no priorityclasses');
  return r.store;
}

/** The system classes as objects to create. */
export function systemPriorityClassObjects(): Obj[] {
  return SYSTEM_PRIORITY_CLASSES.map((c) => ({ metadata: { name: c.name }, value: c.value, description: c.description }));
}

/**
 * Creates every system class that does not exist yet.
 * @throws StatusError from the store (the hook retries).
 */
export async function ensureSystemPriorityClasses(ctx: RequestContext, store: Store): Promise<void> {
  await Promise.all(systemPriorityClassObjects().map((pc) => createIfMissing(ctx, store, '', pc)));
}
