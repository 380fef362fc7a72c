/**
 * Transactional quota reservation (upstream v1.30 resourcequota `quotaEvaluator`): the requests
 * of one namespace are checked in batches — while one batch is being written, newer requests
 * queue and form the next — against the namespace's quotas, and the batch's charges are written
 * to each changed quota's `status.used` with a compare-and-swap on its resourceVersion BEFORE any
 * of the objects is stored. A write that loses to another writer (another replica, the quota
 * controller) re-reads that quota from storage and re-checks the requests still waiting on it,
 * up to {@link DEFAULT_RETRIES} times; so concurrent creates across replicas never exceed a
 * quota. Dry-run requests are checked but never charged. Spec 001 § Admission control.
 */
import { StatusError, newInternalError } from '../../../apimachinery/errors.js';
import { type Obj, obj, str } from '../../../apis/core/v1/obj-access.js';
import type { RequestContext } from '../../../request/context.js';
import type { ResourceAccess } from '../../plugin-deps.js';
import { type QuotaRequest, type QuotaState, checkRequest, quotaState } from './check.js';
import type { LimitedResource } from './config.js';
import type { QuotaEvaluator } from './evaluators.js';
import { listsEqual, resourceListObject } from './resource-list.js';

/** Re-reads and re-checks after a lost compare-and-swap before the conflict is returned. */
export const DEFAULT_RETRIES = 10;
/** How long a request waits for its batch (upstream: 10 s, then 500 `resource quota evaluation timed out`). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Access to the ResourceQuotas (a subset of the plugin deps' ResourceAccess). */
export type QuotaAccess = Pick<ResourceAccess, 'lister' | 'get' | 'updateStatus'>;

/** Options of a {@link QuotaReserver}. */
export interface ReserverOptions {
  retries?: number;
  timeoutMs?: number;
  /** The clock (ms since the epoch); for tests. */
  now?: () => number;
  /** The configuration's `limitedResources`: with any, namespaces without quotas are checked too. */
  limited?: readonly LimitedResource[];
}

const PENDING = Symbol('pending');

interface Waiter {
  req: QuotaRequest;
  evaluator: QuotaEvaluator;
  dryRun: boolean;
  /** null: admitted; PENDING: charged, waiting for the write; else the rejection. */
  result: null | typeof PENDING | Error;
  settle(): void;
}

const rvOf = (o: Obj): number => Number(str(obj(o.metadata)?.resourceVersion)) || 0;

/** Checks and reserves quota for the requests of every namespace. */
export class QuotaReserver {
  private readonly queues = new Map<string, Waiter[]>();
  private readonly active = new Set<string>();
  /** Per namespace: quotas this reserver read or wrote that may be newer than the informer's. */
  private readonly fresher = new Map<string, Map<string, Obj>>();
  private readonly retries: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly limited: readonly LimitedResource[];

  constructor(
    private readonly quotas: QuotaAccess,
    private readonly ctx: RequestContext,
    opts: ReserverOptions = {},
  ) {
    this.retries = opts.retries ?? DEFAULT_RETRIES;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.now = opts.now ?? Date.now;
    this.limited = opts.limited ?? [];
  }

  /**
   * Whether requests in `namespace` need checking: it has a ResourceQuota (an informer cache
   * lookup: the cheap common case), or resources are limited by configuration.
   */
  needsCheck(namespace: string): boolean {
    return this.limited.length > 0 || this.quotas.lister.list(namespace).length > 0;
  }

  /**
   * Checks `req` in `namespace` and, unless `dryRun`, charges it to the quotas that track it.
   * @throws StatusError 403 Forbidden when a quota rejects it (check.ts), 409 Conflict when the
   *   quota kept changing under every retry, 500 when the check timed out.
   */
  reserve(namespace: string, req: QuotaRequest, evaluator: QuotaEvaluator, dryRun: boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(newInternalError('resource quota evaluation timed out')), this.timeoutMs);
      const w: Waiter = {
        req,
        evaluator,
        dryRun,
        result: PENDING,
        settle: () => {
          clearTimeout(timer);
          if (w.result === null) resolve();
          else reject(w.result === PENDING ? newInternalError('resource quota evaluation did not complete') : w.result);
        },
      };
      const queue = this.queues.get(namespace);
      if (queue) queue.push(w);
      else this.queues.set(namespace, [w]);
      if (!this.active.has(namespace)) {
        this.active.add(namespace);
        void this.drain(namespace);
      }
    });
  }

  /** Processes the namespace's queue batch by batch until it is empty. */
  private async drain(namespace: string): Promise<void> {
    for (;;) {
      const batch = this.queues.get(namespace) ?? [];
      this.queues.delete(namespace);
      if (batch.length === 0) break;
      try {
        const quotas = this.current(namespace).map(quotaState);
        if (quotas.length === 0 && this.limited.length === 0) for (const w of batch) w.result = null;
        else await this.checkQuotas(namespace, quotas, batch, this.retries);
      } catch (err) {
        for (const w of batch) if (w.result === PENDING) w.result = err instanceof Error ? err : new Error(String(err));
      }
      for (const w of batch) w.settle();
    }
    this.active.delete(namespace);
  }

  /** The namespace's quotas: the informer's, each replaced by a newer copy this reserver knows of. */
  private current(namespace: string): Obj[] {
    const known = this.fresher.get(namespace);
    const listed = this.quotas.lister.list(namespace);
    const kept = new Map<string, Obj>();
    const out = listed.map((q) => {
      const name = str(obj(q.metadata)?.name);
      const mine = known?.get(name);
      if (mine && rvOf(mine) > rvOf(q)) {
        kept.set(name, mine);
        return mine;
      }
      return q;
    });
    if (kept.size > 0) this.fresher.set(namespace, kept);
    else this.fresher.delete(namespace);
    return out.sort((a, b) => str(obj(a.metadata)?.name).localeCompare(str(obj(b.metadata)?.name)));
  }

  private remember(namespace: string, quota: Obj): void {
    let known = this.fresher.get(namespace);
    if (!known) this.fresher.set(namespace, (known = new Map()));
    known.set(str(obj(quota.metadata)?.name), quota);
  }

  /**
   * Checks the waiters still pending against `quotas` in order, each seeing the charges of those
   * before it, then writes every changed quota. Lost writes: re-read those quotas and recurse
   * with the waiters still pending (their charges to the quotas that were written stand).
   */
  private async checkQuotas(namespace: string, quotas: readonly QuotaState[], batch: Waiter[], retries: number): Promise<void> {
    let current = quotas;
    let changed = false;
    for (const w of batch) {
      if (w.result !== PENDING) continue;
      let next: readonly QuotaState[];
      try {
        next = checkRequest(current, w.req, w.evaluator, this.now(), this.limited);
      } catch (err) {
        w.result = err instanceof StatusError ? err : newInternalError(String(err));
        continue;
      }
      const charged = !w.dryRun && next.some((q, i) => !listsEqual(q.used, current[i]!.used));
      if (!charged) {
        w.result = null;
        continue;
      }
      changed = true;
      current = next;
    }
    if (!changed) return;

    const lost: string[] = [];
    let lastErr: unknown;
    await Promise.all(
      current.map(async (q, i) => {
        if (listsEqual(q.used, quotas[i]!.used)) return;
        // A copy: the quota may be the informer's shared object.
        const next = structuredClone(q.object);
        next.status = { ...(obj(next.status) ?? {}), used: resourceListObject(q.used) };
        try {
          this.remember(namespace, await this.quotas.updateStatus(this.ctx, next));
        } catch (err) {
          lost.push(q.name);
          lastErr = err;
        }
      }),
    );
    const fail = (err: unknown) => {
      for (const w of batch) if (w.result === PENDING) w.result = err instanceof Error ? err : new Error(String(err));
    };
    if (lost.length === 0) {
      for (const w of batch) if (w.result === PENDING) w.result = null;
      return;
    }
    if (retries <= 0) return fail(lastErr);
    let fresh: Obj[];
    try {
      fresh = (await Promise.all(lost.sort().map((name) => this.quotas.get(namespace, name)))).filter((q): q is Obj => q !== null);
    } catch {
      return fail(lastErr);
    }
    for (const q of fresh) this.remember(namespace, q);
    await this.checkQuotas(namespace, fresh.map(quotaState), batch, retries - 1);
  }
}
