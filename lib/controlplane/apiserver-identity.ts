/**
 * The API server identity hooks (issue #16 item 1; upstream instance.go's two post-start hooks
 * behind the APIServerIdentity gate): this server's identity lease controller and the garbage
 * collector of stale identity leases, both in every replica, both in the system namespace.
 */
import { SERVER_NAME, SYSTEM_NAMESPACE } from '../apis/vendor.js';
import { runIdentityLeaseGC } from '../controllers/apiserver-identity/gc.js';
import { runIdentityLeaseController } from '../controllers/apiserver-identity/lease-controller.js';
import type { RequestContext } from '../request/context.js';
import type { Store } from '../registry/generic/store.js';
import type { PostStartHooks } from '../server/hooks.js';
import type { ServerIdentity } from '../server/identity.js';
import type { Logger } from '../server/logging.js';

/** The hook names (upstream `start-kube-apiserver-identity-lease-controller` and `…-garbage-collector`). */
export const IDENTITY_LEASE_HOOK = `start-${SERVER_NAME}-identity-lease-controller`;
export const IDENTITY_LEASE_GC_HOOK = `start-${SERVER_NAME}-identity-lease-garbage-collector`;

/** Identity lease timings (tests shorten them). */
export interface IdentityLeaseTimings {
  /** `leaseDurationSeconds` (default upstream's 3600). */
  durationSeconds?: number;
  /** Renew interval in milliseconds (default upstream's 10 s). */
  renewIntervalMs?: number;
  /** Garbage collection period in milliseconds (default upstream's one hour). */
  gcPeriodMs?: number;
}

/** What the hooks need. */
export interface IdentityLeaseDeps {
  leases: Store;
  identity: ServerIdentity;
  timings?: IdentityLeaseTimings;
  ctx: RequestContext;
  /** Aborted when the server stops. */
  signal: AbortSignal;
  log: Logger;
}

/** Adds the two hooks; each starts its loop and finishes at once (readiness does not wait on them). */
export function addIdentityLeaseHooks(hooks: PostStartHooks, deps: IdentityLeaseDeps): void {
  const t = deps.timings ?? {};
  hooks.add(IDENTITY_LEASE_HOOK, async () => {
    void runIdentityLeaseController(
      {
        leases: deps.leases,
        namespace: SYSTEM_NAMESPACE,
        id: deps.identity.id,
        hostname: deps.identity.hostname,
        leaseDurationSeconds: t.durationSeconds,
        renewIntervalMs: t.renewIntervalMs,
        ctx: deps.ctx,
        onError: (err) => deps.log.error({ err }, 'failed to renew the API server identity lease'),
      },
      deps.signal,
    );
  });
  hooks.add(IDENTITY_LEASE_GC_HOOK, async () => {
    void runIdentityLeaseGC(
      {
        leases: deps.leases,
        namespace: SYSTEM_NAMESPACE,
        periodMs: t.gcPeriodMs,
        ctx: deps.ctx,
        onError: (err) => deps.log.error({ err }, 'failed to garbage-collect API server identity leases'),
      },
      deps.signal,
    );
  });
}
