/**
 * The API server identity lease controller (issue #16 item 1; upstream APIServerIdentity: the
 * post-start hook `start-kube-apiserver-identity-lease-controller` running component-helpers'
 * lease controller): every renew interval (upstream 10 s) this server creates or renews its
 * Lease `<identity>` in the system namespace — `holderIdentity` the server's ID,
 * `leaseDurationSeconds` upstream's 3600, `renewTime` now — labelled with the identity label and
 * the host's name. Other servers' leases are never touched here; stale ones are deleted by the
 * garbage collector (gc.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { formatMicroTime } from '../../apimachinery/schema/decode.js';
import { API_SERVER_IDENTITY_LABEL, API_SERVER_IDENTITY_LABEL_VALUE, HOSTNAME_LABEL } from '../../apis/vendor.js';
import type { Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { createObject, updateObject } from '../writes.js';

/** Upstream's defaults (`IdentityLeaseDurationSeconds`, `IdentityLeaseRenewIntervalPeriod`, `IdentityLeaseGCPeriod`). */
export const DEFAULT_IDENTITY_LEASE_DURATION_SECONDS = 3600;
export const DEFAULT_IDENTITY_LEASE_RENEW_INTERVAL_MS = 10_000;
export const DEFAULT_IDENTITY_LEASE_GC_PERIOD_MS = 3_600_000;

/** What the controller works with. */
export interface IdentityLeaseConfig {
  /** The Lease store. */
  leases: Store;
  /** The namespace of the lease (the system namespace). */
  namespace: string;
  /** The lease's name and holder identity (the server's ID). */
  id: string;
  /** The host's name (label value). */
  hostname: string;
  /** `leaseDurationSeconds` (default 3600). */
  leaseDurationSeconds?: number;
  /** Renew interval in milliseconds (default 10 000). */
  renewIntervalMs?: number;
  ctx: RequestContext;
  onError: (err: unknown) => void;
  /** The clock (tests). */
  now?: () => Date;
}

/** Creates or renews the identity lease once (labels restored, spec set to this server's). */
export async function renewIdentityLease(cfg: IdentityLeaseConfig): Promise<void> {
  const spec = {
    holderIdentity: cfg.id,
    leaseDurationSeconds: cfg.leaseDurationSeconds ?? DEFAULT_IDENTITY_LEASE_DURATION_SECONDS,
    renewTime: formatMicroTime((cfg.now ?? (() => new Date()))()),
  };
  const labels = { [API_SERVER_IDENTITY_LABEL]: API_SERVER_IDENTITY_LABEL_VALUE, [HOSTNAME_LABEL]: cfg.hostname };
  const updated = await updateObject(cfg.ctx, cfg.leases, cfg.namespace, cfg.id, (lease) => {
    const meta = lease.metadata as Obj;
    meta.labels = { ...((meta.labels as Obj | undefined) ?? {}), ...labels };
    lease.spec = { ...((lease.spec as Obj | undefined) ?? {}), ...spec };
  });
  if (updated) return;
  await createObject(cfg.ctx, cfg.leases, cfg.namespace, { metadata: { name: cfg.id, labels }, spec });
}

/** Renews the lease at once, then every renew interval, until `signal` aborts; failures are reported and retried next interval. */
export async function runIdentityLeaseController(cfg: IdentityLeaseConfig, signal: AbortSignal): Promise<void> {
  const interval = cfg.renewIntervalMs ?? DEFAULT_IDENTITY_LEASE_RENEW_INTERVAL_MS;
  while (!signal.aborted) {
    await renewIdentityLease(cfg).catch(cfg.onError);
    await sleep(interval, undefined, { signal, ref: false }).catch(() => undefined);
  }
}
