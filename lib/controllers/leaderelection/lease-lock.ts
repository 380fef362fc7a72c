/**
 * The Lease lock of leader election (issue #16 item 1; client-go `tools/leaderelection/resourcelock`
 * LeaseLock): the election record lives in a `coordination.<vendor>/v1` Lease's spec. The lock
 * remembers the Lease it last read or wrote and updates exactly that version: a write over a
 * Lease someone else changed meanwhile is a 409 Conflict (optimistic concurrency through
 * `metadata.resourceVersion`), never a blind overwrite.
 */
import { deepCopy } from '../../apimachinery/deep-equal.js';
import type { Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';

/** The election record (client-go `LeaderElectionRecord`); times are MicroTime strings. */
export interface LeaderElectionRecord {
  /** '' when the lease was released. */
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime?: string;
  renewTime?: string;
  leaderTransitions: number;
}

/** A lock the elector takes turns on (client-go `resourcelock.Interface`). */
export interface ResourceLock {
  /** This candidate's identity. */
  identity(): string;
  /** `<namespace>/<name>` (log messages, the health check). */
  describe(): string;
  /**
   * The current record and its canonical JSON (compared to notice changes).
   * @throws StatusError NotFound when there is no lock object yet, others on failure.
   */
  get(): Promise<{ record: LeaderElectionRecord; raw: string }>;
  /** Creates the lock object with `record`. @throws StatusError (AlreadyExists when another candidate was first). */
  create(record: LeaderElectionRecord): Promise<void>;
  /**
   * Writes `record` over the version last read or written.
   * @throws Error `lease not initialized, call get or create first` before any get or create; StatusError Conflict when the object changed meanwhile.
   */
  update(record: LeaderElectionRecord): Promise<void>;
}

/** Where the Lease is. */
export interface LeaseLockConfig {
  leases: Store;
  namespace: string;
  name: string;
  /** The candidate's identity (`<hostname>_<uuid>`). */
  identity: string;
  /** Context of the lock's writes. */
  ctx: RequestContext;
}

/** The record a Lease's spec holds (client-go `LeaseSpecToLeaderElectionRecord`). */
export function recordOfLease(lease: Obj): LeaderElectionRecord {
  const spec = (lease.spec ?? {}) as Obj;
  return {
    holderIdentity: typeof spec.holderIdentity === 'string' ? spec.holderIdentity : '',
    leaseDurationSeconds: typeof spec.leaseDurationSeconds === 'number' ? spec.leaseDurationSeconds : 0,
    ...(typeof spec.acquireTime === 'string' && { acquireTime: spec.acquireTime }),
    ...(typeof spec.renewTime === 'string' && { renewTime: spec.renewTime }),
    leaderTransitions: typeof spec.leaseTransitions === 'number' ? spec.leaseTransitions : 0,
  };
}

/** The Lease spec of a record (client-go `LeaderElectionRecordToLeaseSpec`). */
export function leaseSpecOf(r: LeaderElectionRecord): Obj {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    ...(r.acquireTime !== undefined && { acquireTime: r.acquireTime }),
    ...(r.renewTime !== undefined && { renewTime: r.renewTime }),
    leaseTransitions: r.leaderTransitions,
  };
}

/** The Lease lock (module doc). */
export class LeaseLock implements ResourceLock {
  private lease: Obj | undefined;

  constructor(private readonly cfg: LeaseLockConfig) {}

  identity(): string {
    return this.cfg.identity;
  }

  describe(): string {
    return `${this.cfg.namespace}/${this.cfg.name}`;
  }

  async get(): Promise<{ record: LeaderElectionRecord; raw: string }> {
    this.lease = await this.cfg.leases.get(this.cfg.ctx, this.cfg.namespace, this.cfg.name);
    const record = recordOfLease(this.lease);
    return { record, raw: JSON.stringify(record) };
  }

  async create(record: LeaderElectionRecord): Promise<void> {
    const kind = this.cfg.leases.strategy.kind;
    this.lease = await this.cfg.leases.create(this.cfg.ctx, this.cfg.namespace, {
      apiVersion: kind.apiVersion,
      kind: kind.kind,
      metadata: { name: this.cfg.name, namespace: this.cfg.namespace },
      spec: leaseSpecOf(record),
    });
  }

  async update(record: LeaderElectionRecord): Promise<void> {
    const observed = this.lease;
    if (!observed) throw new Error('lease not initialized, call get or create first');
    const next = deepCopy(observed);
    next.spec = leaseSpecOf(record);
    const { obj } = await this.cfg.leases.update(this.cfg.ctx, this.cfg.namespace, this.cfg.name, async () => deepCopy(next));
    this.lease = obj;
  }
}
