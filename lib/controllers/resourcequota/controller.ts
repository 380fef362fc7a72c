/**
 * The resource quota controller (`resourcequota-controller`, alias `resourcequota`, on by default;
 * upstream v1.30 pkg/controller/resourcequota): keeps every ResourceQuota's status right.
 * - A quota that is created, or whose `spec.hard` changes, gets `status.hard` = `spec.hard` and
 *   `status.used` recounted from the objects of its namespace (listed through the stores).
 * - Replenishment: when a Pod, Service or PersistentVolumeClaim is deleted, or an update lowers
 *   what it costs (a pod turns terminal, a service changes type, a claim's request changes), the
 *   quotas of its namespace that track it are recounted, so `used` goes down.
 * - Every quota is recounted every `resyncMs` (default 5 min, upstream's
 *   `--resource-quota-sync-period`): that is when `count/…` of other resources goes down.
 * Status writes are compare-and-swap on the quota read before counting, so a charge the
 * admission plugin writes meanwhile is never overwritten (the sync is retried). A recount that
 * would lower an amount waits `settleMs` and counts again, so that objects whose charge was
 * reserved just before the read but that were not stored yet are not dropped.
 * Spec 001 § Admission control (ResourceQuota).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isReason } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import { Informer } from '../../client/informer.js';
import { recordManagedFields } from '../../registry/generic/managed-fields.js';
import type { Store } from '../../registry/generic/store.js';
import type { RequestContext } from '../../request/context.js';
import { EVERYTHING } from '../../storage/interface.js';
import { WorkQueue } from '../queue.js';

/** A served resource (group in the vendor spelling, '' for core). */
export interface GroupResource {
  group: string;
  resource: string;
}

/**
 * What the controller needs to know about quota usage; lib/controlplane hands it the admission
 * plugin's evaluators (lib/admission/plugins/resource-quota/usage.ts) so both count alike.
 */
export interface QuotaCalculator {
  /** The resources whose objects count against the quota's `spec.hard`. */
  trackedResources(quota: Obj): GroupResource[];
  /** The new `{hard, used}` given the namespace's objects of each tracked resource (undefined: not served). `now` in ms. */
  status(quota: Obj, objectsOf: (gr: GroupResource) => readonly Obj[] | undefined, now: number): Obj;
  /** Whether `status` differs from the quota's current one (or it has none). */
  differs(quota: Obj, status: Obj): boolean;
  /** Whether some amount of `status.used` is below the quota's current one. */
  lowers(quota: Obj, status: Obj): boolean;
  /** Text that changes when an object's cost can drop on update. */
  costState(gr: GroupResource, object: Obj, now: number): string;
}

/** Upstream's default full recount period (`--resource-quota-sync-period`, 5m). */
export const DEFAULT_RESYNC_MS = 5 * 60_000;
/** How long a recount that lowers usage waits before counting again (ms). */
export const DEFAULT_SETTLE_MS = 1_000;

/** How long a recount that lost its compare-and-swap waits before counting again (ms). */
const CONFLICT_RETRY_MS = 100;

/** The resources whose deletes and updates trigger a recount. */
const REPLENISHED: readonly GroupResource[] = [
  { group: '', resource: 'pods' },
  { group: '', resource: 'services' },
  { group: '', resource: 'persistentvolumeclaims' },
];

/** What the controller works with. */
export interface ResourceQuotaControllerConfig {
  /** The main store of ResourceQuotas (reads) and its `status` store (writes). */
  quotas: Store;
  quotaStatus: Store;
  /** The main store of a served resource, or undefined. */
  storeOf(gr: GroupResource): Store | undefined;
  calculator: QuotaCalculator;
  /** Context of the controller's writes (a privileged internal user). */
  ctx: RequestContext;
  onError: (err: unknown) => void;
  /** Full recount period (ms); default {@link DEFAULT_RESYNC_MS}; 0 turns it off. */
  resyncMs?: number;
  /** Default {@link DEFAULT_SETTLE_MS}. */
  settleMs?: number;
}

const metaOf = (o: Obj): Obj => (o.metadata ?? {}) as Obj;
const nsOf = (o: Obj): string => String(metaOf(o).namespace ?? '');
const nameOf = (o: Obj): string => String(metaOf(o).name ?? '');

/** The controller of one server (safe in several replicas: every write is a compare-and-swap). */
export class ResourceQuotaController {
  private readonly queue = new WorkQueue();
  private readonly quotaInformer: Informer;
  private readonly informers: Informer[] = [];
  /** Quota names by namespace (from the informer). */
  private readonly byNamespace = new Map<string, Set<string>>();
  /** Last cost state of each watched object: `<resource>|<ns>/<name>` → state. */
  private readonly costs = new Map<string, string>();

  constructor(private readonly cfg: ResourceQuotaControllerConfig) {
    this.quotaInformer = new Informer(cfg.quotas.storage, cfg.quotas.prefixFor(''), cfg.onError);
    this.quotaInformer.addHandler((type, q) => this.onQuota(type, q));
    for (const gr of REPLENISHED) {
      const store = cfg.storeOf(gr);
      if (!store) continue;
      const informer = new Informer(store.storage, store.prefixFor(''), cfg.onError);
      informer.addHandler((type, o) => this.onObject(gr, type, o));
      this.informers.push(informer);
    }
  }

  /** Starts the informers, waits until all have listed, then works until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const all = [this.quotaInformer, ...this.informers];
    for (const i of all) void i.run(signal);
    await this.waitForSync();
    const resyncMs = this.cfg.resyncMs ?? DEFAULT_RESYNC_MS;
    const timer = resyncMs > 0 ? setInterval(() => this.enqueueAll(), resyncMs) : undefined;
    timer?.unref();
    try {
      await this.queue.run(signal, (key) => this.sync(key), (err) => this.cfg.onError(err));
    } finally {
      if (timer) clearInterval(timer);
    }
  }

  /** Resolves once every informer has listed. */
  async waitForSync(): Promise<void> {
    await Promise.all([this.quotaInformer, ...this.informers].map((i) => i.waitForSync()));
  }

  private enqueueAll(): void {
    for (const [ns, names] of this.byNamespace) for (const n of names) this.queue.add(`${ns}/${n}`);
  }

  private onQuota(type: 'ADDED' | 'MODIFIED' | 'DELETED', q: Obj): void {
    const ns = nsOf(q);
    const name = nameOf(q);
    let names = this.byNamespace.get(ns);
    if (type === 'DELETED') {
      names?.delete(name);
      if (names?.size === 0) this.byNamespace.delete(ns);
      return;
    }
    if (!names) this.byNamespace.set(ns, (names = new Set()));
    names.add(name);
    // A new quota, or one whose status does not reflect its spec yet (upstream: spec.hard changes).
    if (type === 'ADDED' || this.cfg.calculator.differs(q, { hard: (q.spec as Obj | undefined)?.hard ?? {}, used: (q.status as Obj | undefined)?.used ?? {} })) {
      this.queue.add(`${ns}/${name}`);
    }
  }

  private onObject(gr: GroupResource, type: 'ADDED' | 'MODIFIED' | 'DELETED', o: Obj): void {
    const key = `${gr.resource}|${nsOf(o)}/${nameOf(o)}`;
    if (type === 'DELETED') {
      this.costs.delete(key);
      this.replenish(gr, nsOf(o));
      return;
    }
    const state = this.cfg.calculator.costState(gr, o, Date.now());
    const was = this.costs.get(key);
    this.costs.set(key, state);
    if (type === 'MODIFIED' && was !== undefined && was !== state) this.replenish(gr, nsOf(o));
  }

  /** Queues the quotas of `namespace` that track `gr`. */
  private replenish(gr: GroupResource, namespace: string): void {
    const names = this.byNamespace.get(namespace);
    if (!names) return;
    for (const name of names) {
      const q = this.quotaInformer.get(`${namespace}/${name}`);
      if (q && this.cfg.calculator.trackedResources(q).some((t) => t.group === gr.group && t.resource === gr.resource)) this.queue.add(`${namespace}/${name}`);
    }
  }

  /** Lists the namespace's objects of every tracked resource. */
  private async objectsOf(quota: Obj): Promise<Map<string, readonly Obj[]>> {
    const out = new Map<string, readonly Obj[]>();
    for (const gr of this.cfg.calculator.trackedResources(quota)) {
      const store = this.cfg.storeOf(gr);
      if (!store || !store.strategy.namespaceScoped()) continue;
      const list = await store.list(this.cfg.ctx, nsOf(quota), { predicate: EVERYTHING });
      out.set(`${gr.group}/${gr.resource}`, list.items as Obj[]);
    }
    return out;
  }

  /** Recounts one quota (`<namespace>/<name>`) and writes its status when it changed. */
  private async sync(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const namespace = key.slice(0, slash);
    const name = key.slice(slash + 1);
    let quota: Obj;
    try {
      quota = await this.cfg.quotas.get(this.cfg.ctx, namespace, name);
    } catch (err) {
      if (isReason(err, 'NotFound')) return;
      throw err;
    }
    const count = async () => {
      const objects = await this.objectsOf(quota);
      return this.cfg.calculator.status(quota, (gr) => objects.get(`${gr.group}/${gr.resource}`), Date.now());
    };
    let status = await count();
    const settleMs = this.cfg.settleMs ?? DEFAULT_SETTLE_MS;
    if (settleMs > 0 && this.cfg.calculator.lowers(quota, status)) {
      await sleep(settleMs);
      status = await count();
    }
    if (!this.cfg.calculator.differs(quota, status)) return;
    const kind = this.cfg.quotaStatus.strategy.kind;
    try {
      await this.cfg.quotaStatus.update(this.cfg.ctx, namespace, name, async (current) => {
        const next: Obj = { ...quota, metadata: { ...metaOf(quota) }, status };
        if (current) recordManagedFields(kind, 'status', current, next, this.cfg.ctx.userAgent);
        return next;
      });
    } catch (err) {
      // Admission (or another replica) wrote the quota since it was read: count again shortly.
      if (isReason(err, 'Conflict')) this.queue.addAfter(key, CONFLICT_RETRY_MS);
      else if (!isReason(err, 'NotFound')) throw err;
    }
  }
}
