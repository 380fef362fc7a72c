/**
 * The API server identity lease garbage collector (issue #16 item 1; upstream
 * `apiserverleasegc`, post-start hook `start-kube-apiserver-identity-lease-garbage-collector`):
 * every period (upstream one hour, the lease duration) it lists the identity leases (label
 * `apiserver.<vendor>/identity=<server name>`) of the system namespace and deletes those expired:
 * `renewTime + leaseDurationSeconds` in the past, or either field missing. Each candidate is read
 * again before the delete, and deleted only at the resourceVersion found expired, so a lease its
 * server just renewed survives.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isReason } from '../../apimachinery/errors.js';
import { API_SERVER_IDENTITY_LABEL, API_SERVER_IDENTITY_LABEL_VALUE } from '../../apis/vendor.js';
import type { Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { EVERYTHING } from '../../storage/interface.js';
import { DEFAULT_IDENTITY_LEASE_GC_PERIOD_MS } from './lease-controller.js';

/** What the collector works with. */
export interface IdentityLeaseGCConfig {
  leases: Store;
  /** The namespace of the identity leases (the system namespace). */
  namespace: string;
  /** Check period in milliseconds (default one hour). */
  periodMs?: number;
  ctx: RequestContext;
  onError: (err: unknown) => void;
  /** The clock (tests). */
  now?: () => Date;
}

/** Whether `lease` has expired at `nowMs` (upstream `isLeaseExpired`: missing fields count as expired). */
export function isLeaseExpired(lease: Obj, nowMs: number): boolean {
  const spec = (lease.spec ?? {}) as Obj;
  if (typeof spec.renewTime !== 'string' || typeof spec.leaseDurationSeconds !== 'number') return true;
  const renewed = Date.parse(spec.renewTime);
  return !Number.isFinite(renewed) || renewed + spec.leaseDurationSeconds * 1000 < nowMs;
}

function isIdentityLease(lease: Obj): boolean {
  const labels = ((lease.metadata as Obj | undefined)?.labels ?? {}) as Obj;
  return labels[API_SERVER_IDENTITY_LABEL] === API_SERVER_IDENTITY_LABEL_VALUE;
}

/**
 * One pass: deletes the expired identity leases; resolves to the names deleted.
 * @throws StatusError when the list fails (a failed delete of one lease is reported and skipped).
 */
export async function collectIdentityLeases(cfg: IdentityLeaseGCConfig): Promise<string[]> {
  const now = () => (cfg.now ?? (() => new Date()))().getTime();
  const list = await cfg.leases.list(cfg.ctx, cfg.namespace, { predicate: EVERYTHING });
  const deleted: string[] = [];
  for (const item of list.items as Obj[]) {
    if (!isIdentityLease(item) || !isLeaseExpired(item, now())) continue;
    const name = String((item.metadata as Obj).name);
    try {
      const fresh = await cfg.leases.get(cfg.ctx, cfg.namespace, name);
      if (!isIdentityLease(fresh) || !isLeaseExpired(fresh, now())) continue;
      const resourceVersion = String((fresh.metadata as Obj).resourceVersion ?? '');
      await cfg.leases.delete(cfg.ctx, cfg.namespace, name, { preconditions: { resourceVersion } });
      deleted.push(name);
    } catch (err) {
      if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) cfg.onError(err);
    }
  }
  return deleted;
}

/** Runs a pass at once, then every period (upstream's `wait.Until`), until `signal` aborts; failures are reported. */
export async function runIdentityLeaseGC(cfg: IdentityLeaseGCConfig, signal: AbortSignal): Promise<void> {
  const period = cfg.periodMs ?? DEFAULT_IDENTITY_LEASE_GC_PERIOD_MS;
  while (!signal.aborted) {
    await collectIdentityLeases(cfg).catch(cfg.onError);
    await sleep(period, undefined, { signal, ref: false }).catch(() => undefined);
  }
}
