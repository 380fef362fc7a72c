/**
 * The ValidatingAdmissionPolicy status controller (upstream v1.30
 * `validatingadmissionpolicy-status-controller`; spec 001 § Admission control): for each policy
 * whose `metadata.generation` is newer than `status.observedGeneration`, type-checks the policy
 * and writes `status.observedGeneration` and `status.typeChecking` (`expressionWarnings`, left
 * out when there is none: an empty `typeChecking` means no type error) through the status
 * subresource, keeping the other status fields. The checker is handed in (it lives with the
 * admission plugin). A write that meets a newer object is retried with it.
 */
import { obj, type Obj } from '../../apis/core/v1/obj-access.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { WorkQueue } from '../queue.js';
import { updateObject } from '../writes.js';

/** The controller's name (its field manager, as upstream). */
export const POLICY_STATUS_CONTROLLER = 'validatingadmissionpolicy-status-controller';

/** One type-checking warning. */
export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

/** What the controller works with. */
export interface PolicyStatusConfig {
  /** ValidatingAdmissionPolicies. */
  policies: Informer;
  /** The status subresource's store of the policies. */
  statusStore: Store;
  /** Type-checks a policy (never throws for a bad one). */
  check: (policy: Obj) => ExpressionWarning[];
  /** Context of the controller's writes (a privileged internal user). */
  ctx: RequestContext;
  onError: (err: unknown) => void;
}

const generationOf = (o: Obj): number => Number(obj(o.metadata)?.generation ?? 0);
const observedOf = (o: Obj): number => Number(obj(o.status)?.observedGeneration ?? 0);

/** Whether `policy`'s status describes an older generation than its spec. */
export function needsTypeCheck(policy: Obj): boolean {
  return generationOf(policy) > observedOf(policy);
}

/** Thrown inside the update to leave the policy as it is. */
class Outdated extends Error {}

/** Runs the controller until `signal` aborts. */
export async function runPolicyStatusController(cfg: PolicyStatusConfig, signal: AbortSignal): Promise<void> {
  const queue = new WorkQueue();
  const ctx: RequestContext = { ...cfg.ctx, userAgent: POLICY_STATUS_CONTROLLER };
  cfg.policies.addHandler((type, policy) => {
    if (type !== 'DELETED' && needsTypeCheck(policy)) queue.add(String(obj(policy.metadata)?.name ?? ''));
  });
  await cfg.policies.waitForSync();
  for (const p of cfg.policies.list()) if (needsTypeCheck(p)) queue.add(String(obj(p.metadata)?.name ?? ''));
  await queue.run(signal, (name) => syncPolicy(cfg, ctx, name), (err) => cfg.onError(err));
}

/** Type-checks the policy `name` and records the result for its generation. */
async function syncPolicy(cfg: PolicyStatusConfig, ctx: RequestContext, name: string): Promise<void> {
  const policy = cfg.policies.get(name);
  if (!policy || !needsTypeCheck(policy)) return;
  const generation = generationOf(policy);
  const warnings = cfg.check(policy);
  try {
    await updateObject(ctx, cfg.statusStore, '', name, (current) => {
      if (generationOf(current) !== generation || !needsTypeCheck(current)) throw new Outdated();
      const status = obj(current.status) ?? {};
      status.observedGeneration = generation;
      status.typeChecking = warnings.length > 0 ? { expressionWarnings: warnings } : {};
      current.status = status;
    });
  } catch (err) {
    if (!(err instanceof Outdated)) throw err;
  }
}
