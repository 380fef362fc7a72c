/**
 * The API servers' endpoint leases: each live server renews a coordination Lease for its
 * advertised address; the addresses of the unexpired leases are the endpoints of the API server
 * Service. Upstream keeps such leases as etcd keys `masterleases/<ip>` with an etcd TTL; here they
 * are Lease objects in the system namespace, named after the address, whose `holderIdentity` is
 * the address and whose expiry is `renewTime + leaseDurationSeconds` (as upstream's API server
 * identity leases): visible through the API, and expired without any server having to be alive
 * to remove them. Expired ones are deleted by whichever server notices first. Server clocks are
 * assumed to agree within the lease duration.
 */
import { isReason } from '../../apimachinery/errors.js';
import { formatMicroTime } from '../../apimachinery/schema/decode.js';
import { parseIP, isIPv4Bytes } from '../../apimachinery/validation/ip.js';
import type { Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { EVERYTHING } from '../../storage/interface.js';
import { createObject, updateObject } from '../writes.js';

/** The name prefix of endpoint leases. */
export const ENDPOINT_LEASE_PREFIX = 'apiserver-endpoint-';

/**
 * The Lease name of an address: `apiserver-endpoint-10-1-0-1` for IPv4, the 32 hex digits of
 * the address for IPv6 (a valid object name either way).
 */
export function endpointLeaseName(ip: string): string {
  const bytes = parseIP(ip);
  if (!bytes) throw new Error(`${JSON.stringify(ip)} is not an IP address`);
  if (isIPv4Bytes(bytes)) return `${ENDPOINT_LEASE_PREFIX}${[...bytes.subarray(12)].join('-')}`;
  return `${ENDPOINT_LEASE_PREFIX}${Buffer.from(bytes).toString('hex')}`;
}

/** What the leases work with. */
export interface EndpointLeasesConfig {
  /** The Lease store. */
  store: Store;
  /** The namespace of the leases (the system namespace). */
  namespace: string;
  ctx: RequestContext;
  /** How long a lease lives without renewal, in seconds (upstream default 15). */
  leaseSeconds: number;
  /** The clock (tests). */
  now?: () => Date;
}

/** The endpoint leases of the API servers (module doc). */
export class EndpointLeases {
  private readonly now: () => Date;

  constructor(private readonly cfg: EndpointLeasesConfig) {
    this.now = cfg.now ?? (() => new Date());
  }

  /** Creates or renews the lease of `ip`. */
  async renew(ip: string): Promise<void> {
    const name = endpointLeaseName(ip);
    const now = formatMicroTime(this.now());
    const spec = { holderIdentity: ip, leaseDurationSeconds: this.cfg.leaseSeconds, renewTime: now };
    const updated = await updateObject(this.cfg.ctx, this.cfg.store, this.cfg.namespace, name, (lease) => {
      lease.spec = { ...((lease.spec as Obj | undefined) ?? {}), ...spec };
    });
    if (updated) return;
    await createObject(this.cfg.ctx, this.cfg.store, this.cfg.namespace, { metadata: { name }, spec: { ...spec, acquireTime: now } });
  }

  /** Removes the lease of `ip` (gone already is fine). */
  async remove(ip: string): Promise<void> {
    try {
      await this.cfg.store.delete(this.cfg.ctx, this.cfg.namespace, endpointLeaseName(ip), {});
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
  }

  /** The addresses of the unexpired leases, sorted; expired leases are deleted on the way. */
  async liveAddresses(): Promise<string[]> {
    const list = await this.cfg.store.list(this.cfg.ctx, this.cfg.namespace, { predicate: EVERYTHING });
    const now = this.now().getTime();
    const live = new Set<string>();
    for (const lease of list.items) {
      const meta = (lease.metadata ?? {}) as Obj;
      if (!String(meta.name ?? '').startsWith(ENDPOINT_LEASE_PREFIX)) continue;
      const spec = (lease.spec ?? {}) as Obj;
      const ip = String(spec.holderIdentity ?? '');
      const renewed = Date.parse(String(spec.renewTime ?? ''));
      const expires = renewed + Number(spec.leaseDurationSeconds ?? 0) * 1000;
      if (ip !== '' && Number.isFinite(expires) && expires > now) live.add(ip);
      else await this.deleteExpired(String(meta.name), String(meta.resourceVersion ?? ''));
    }
    return [...live].sort();
  }

  /** Deletes an expired lease unless it was renewed meanwhile (resourceVersion precondition). */
  private async deleteExpired(name: string, resourceVersion: string): Promise<void> {
    try {
      await this.cfg.store.delete(this.cfg.ctx, this.cfg.namespace, name, { preconditions: { resourceVersion } });
    } catch (err) {
      if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) throw err;
    }
  }
}
